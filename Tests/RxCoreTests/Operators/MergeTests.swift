import Foundation
import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct MergeTests {
    /// With sources always waiting behind the running one (its queue never empties),
    /// `merge(maxConcurrent:)` lets go of the sources it has taken from its queue.
    @Test func mergeMaxConcurrentLetsGoOfSourcesItHasTakenFromItsQueue() {
        let outer = PublishSubject<Observable<Int>>()
        let log = EventLog<Int>()
        let subscription = outer.merge(maxConcurrent: 1).subscribe(log)
        // The running source first, then the two waiting behind it.
        var sources = [PublishSubject<Int>(), PublishSubject<Int>(), PublishSubject<Int>()]
        for source in sources { outer.onNext(source.asObservable()) }
        for i in 0..<10_000 {
            let next = PublishSubject<Int>()
            outer.onNext(next.asObservable())
            sources.append(next)
            let running = sources.removeFirst()
            running.onNext(i)
            running.onCompleted()
        }
        #expect(log.elements == Array(0..<10_000))
        // The outer subject, the three here and at most a few dozen taken sources not yet
        // dropped from the queue, not 10,003.
        #expect((Resources.liveCounts["PublishSubject"] ?? 0) <= 64)
        subscription.dispose()
    }

    // MARK: flatMap

    @Test func flatMapMergesInnerSequences() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 102), .next(90, 103), .next(110, 104), .completed(200)])
        let ys2 = scheduler.createColdObservable([.next(10, 202), .completed(50)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(400, 2), .completed(500)])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? ys1 : ys2 } }
        #expect(res.events == [.next(220, 102), .next(300, 103), .next(320, 104), .next(410, 202), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
        #expect(ys1.subscriptions == [Subscription(210, 410)])
        #expect(ys2.subscriptions == [Subscription(400, 450)])
    }

    @Test func flatMapCompletesWhenTheLastInnerCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 0), .completed(250)])
        let res = scheduler.start { xs.flatMap { _ in ys } }
        #expect(res.events == [.next(220, 1), .completed(310)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(210, 310)])
    }

    @Test func flatMapInnerErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .next(200, 2), .completed(300)])
        let ys2 = scheduler.createColdObservable([.error(20, opTestError, Int.self)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2), .completed(500)])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? ys1 : ys2 } }
        #expect(res.events == [.next(220, 1), .error(320, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 320)])
        #expect(ys1.subscriptions == [Subscription(210, 320)])
        #expect(ys2.subscriptions == [Subscription(300, 320)])
    }

    @Test func flatMapOuterErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1), .next(200, 2), .completed(300)])
        let xs = scheduler.createHotObservable([.next(210, 1), .error(300, opTestError, Int.self)])
        let res = scheduler.start { xs.flatMap { _ in ys } }
        #expect(res.events == [.next(220, 1), .error(300, opTestError)])
        #expect(ys.subscriptions == [Subscription(210, 300)])
    }

    @Test func flatMapSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1), .completed(300)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(500)])
        let res = scheduler.start {
            xs.flatMap { value -> TestableObservable<Int> in
                if value == 2 { throw opTestError }
                return ys
            }
        }
        #expect(res.events == [.next(220, 1), .error(250, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(210, 250)])
    }

    @Test func flatMapDisposeDisposesInnerSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1), .next(200, 2), .completed(300)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(500)])
        let res = scheduler.start(disposed: 350) { xs.flatMap { _ in ys } }
        #expect(res.events == [.next(220, 1), .next(230, 1)])
        #expect(xs.subscriptions == [Subscription(200, 350)])
        #expect(ys.subscriptions == [Subscription(210, 350), Subscription(220, 350)])
    }

    @Test func flatMapReentrantJustIsDeliveredNested() {
        let subject = PublishSubject<Int>()
        let log = EventLog<Int>()
        let subscription = subject.flatMap { Observable.just($0) }
            .subscribe { event in
                log.events.append(event)
                if let value = event.element, value < 5 { subject.onNext(value + 1) }
            }
        subject.onNext(1)
        subject.onCompleted()
        #expect(log.events.count == 6)
        #expect(log.elements == [1, 2, 3, 4, 5])
        #expect(log.isCompleted)
        subscription.dispose()
    }

    @Test func flatMapOfManyJustInners() {
        var count = 0
        var completed = false
        _ = Observable.range(start: 0, count: 10_000).flatMap { Observable.just($0) }
            .subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
        #expect(count == 10_000)
        #expect(completed)
    }

    @Test func flatMapReentrantSubjectFeedsItself() {
        let subject = PublishSubject<Int>()
        let log = EventLog<Int>()
        let subscription = subject.flatMap { Observable.of($0, $0 * 100) }
            .subscribe { event in
                log.events.append(event)
                if let value = event.element, value < 3 { subject.onNext(value + 1) }
            }
        subject.onNext(1)
        subject.onCompleted()
        // `of` steps on the CurrentThreadScheduler trampoline, so the inner sequences started
        // from inside the handler interleave with the one already running.
        #expect(log.elements == [1, 2, 100, 3, 200, 300])
        #expect(log.isCompleted)
        subscription.dispose()
    }

    // MARK: flatMapFirst

    @Test func flatMapFirstIgnoresElementsWhileAnInnerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 11), .next(90, 12), .completed(100)])
        let ys2 = scheduler.createColdObservable([.next(10, 21), .completed(20)])
        let ys3 = scheduler.createColdObservable([.next(10, 31), .completed(20)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .next(320, 3), .completed(400)])
        let res = scheduler.start {
            xs.flatMapFirst { value -> TestableObservable<Int> in
                switch value {
                case 1: return ys1
                case 2: return ys2
                default: return ys3
                }
            }
        }
        #expect(res.events == [.next(220, 11), .next(300, 12), .next(330, 31), .completed(400)])
        #expect(ys1.subscriptions == [Subscription(210, 310)])
        #expect(ys2.subscriptions == [])
        #expect(ys3.subscriptions == [Subscription(320, 340)])
    }

    // MARK: merge

    @Test func mergeOfObservableOfObservables() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        let ys2 = scheduler.createColdObservable([.next(5, 2), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .next(220, ys2), .completed(230)])
        let res = scheduler.start { xs.merge() }
        #expect(res.events == [.next(220, 1), .next(225, 2), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func staticMergeCompletesWhenAllComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(310, 3), .completed(320)])
        let res = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(310, 3), .completed(320)])
        #expect(a.subscriptions == [Subscription(200, 300)])
        #expect(b.subscriptions == [Subscription(200, 320)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let res2 = scheduler2.start { Observable<Int>.merge([Observable<Int>]()) }
        #expect(res2.events == [.completed(200)])
    }

    @Test func staticMergeErrorDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let b = scheduler.createHotObservable([.error(250, opTestError, Int.self)])
        let res = scheduler.start { Observable.merge([a.asObservable(), b.asObservable()]) }
        #expect(res.events == [.next(210, 1), .error(250, opTestError)])
        #expect(a.subscriptions == [Subscription(200, 250)])
    }

    @Test func mergeMaxConcurrentQueuesTheRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(100)])
        let ys2 = scheduler.createColdObservable([.next(10, 2), .completed(100)])
        let ys3 = scheduler.createColdObservable([.next(10, 3), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .next(220, ys2), .next(230, ys3), .completed(240)])
        let res = scheduler.start { xs.merge(maxConcurrent: 2) }
        #expect(res.events == [.next(220, 1), .next(230, 2), .next(320, 3), .completed(410)])
        #expect(ys1.subscriptions == [Subscription(210, 310)])
        #expect(ys2.subscriptions == [Subscription(220, 320)])
        #expect(ys3.subscriptions == [Subscription(310, 410)])
    }

    @Test func mergeMaxConcurrentDisposesQueuedAndActive() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(100)])
        let ys2 = scheduler.createColdObservable([.next(10, 2), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .next(220, ys2), .completed(240)])
        let res = scheduler.start(disposed: 260) { xs.merge(maxConcurrent: 1) }
        #expect(res.events == [.next(220, 1)])
        #expect(ys1.subscriptions == [Subscription(210, 260)])
        #expect(ys2.subscriptions == [])
    }

    // MARK: concatMap

    @Test func concatMapSubscribesOneAfterTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 0), .next(20, 1), .completed(30)])
        let xs = scheduler.createHotObservable([.next(210, 10), .next(215, 20), .completed(220)])
        let res = scheduler.start { xs.concatMap { offset in ys.map { $0 + offset } } }
        #expect(res.events == [.next(220, 10), .next(230, 11), .next(250, 20), .next(260, 21), .completed(270)])
        #expect(ys.subscriptions == [Subscription(210, 240), Subscription(240, 270)])
    }

    // MARK: concurrency

    @Test func flatMapFromSeveralThreadsKeepsTheGrammar() {
        let subject = PublishSubject<Int>()
        let probe = GrammarProbe<Int>()
        let subscription = subject.flatMap { value in Observable.of(value, value) }.subscribe(probe)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<500 { subject.onNext(thread * 1000 + i) }
        }
        subject.onCompleted()
        #expect(
            probe.report
                == GrammarProbe.Report(nexts: 8000, completions: 1, errors: 0, overlaps: 0, afterTermination: 0))
        subscription.dispose()
    }
}
