import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct ConcatTests {
    @Test func concatSecondFollowsFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { xs.concat(ys) }
        #expect(res.events == [.next(210, 1), .next(260, 2), .completed(270)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(250, 270)])
    }

    @Test func staticConcatStopsAtAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.error(10, opTestError, Int.self)])
        let c = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { Observable.concat([a.asObservable(), b.asObservable(), c.asObservable()]) }
        #expect(res.events == [.next(210, 1), .error(230, opTestError)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(220, 230)])
        #expect(c.subscriptions == [])
    }

    @Test func staticConcatVariadicAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { Observable.concat(a.asObservable(), Observable.just(2), Observable.empty()) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let res2 = scheduler2.start { Observable<Int>.concat([Observable<Int>]()) }
        #expect(res2.events == [.completed(200)])
    }

    @Test func concatDisposalDisposesTheCurrentSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(10, 2), .next(100, 3), .completed(200)])
        let res = scheduler.start(disposed: 300) { a.concat(b) }
        #expect(res.events == [.next(210, 1), .next(230, 2)])
        #expect(b.subscriptions == [Subscription(220, 300)])
    }

    @Test func concatOfObservableOfObservables() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let ys2 = scheduler.createColdObservable([.next(10, 2), .completed(30)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .next(215, ys2), .completed(220)])
        let res = scheduler.start { xs.concat() }
        #expect(res.events == [.next(220, 1), .next(250, 2), .completed(270)])
        #expect(ys1.subscriptions == [Subscription(210, 240)])
        #expect(ys2.subscriptions == [Subscription(240, 270)])
    }

    @Test func concatOfManySynchronousSourcesRunsInConstantStack() {
        let sources = (0..<50_000).map { Observable.just($0) }
        var count = 0
        var last = -1
        var completed = false
        _ = Observable.concat(sources).subscribe(
            onNext: {
                count += 1; last = $0
            }, onCompleted: { completed = true })
        #expect(count == 50_000)
        #expect(last == 49_999)
        #expect(completed)
    }

    @Test func concatReentrantSubject() {
        let subject = PublishSubject<Int>()
        let log = EventLog<Int>()
        let subscription = subject.concatMap { Observable.of($0, -$0) }
            .subscribe { event in
                log.events.append(event)
                if let value = event.element, value > 0, value < 3 { subject.onNext(value + 1) }
            }
        subject.onNext(1)
        // Elements sent from inside the handler wait for the current inner to complete.
        #expect(log.elements == [1, -1, 2, -2, 3, -3])
        subscription.dispose()
    }
}
