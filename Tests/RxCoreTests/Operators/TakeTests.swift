import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct TakeTests {
    // MARK: take(count)

    @Test func takeCountCompletesAfterCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.take(2) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func takeZeroCompletesWithoutSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let res = scheduler.start { xs.take(0) }
        #expect(res.events == [.completed(200)])
        #expect(xs.subscriptions == [])
    }

    @Test func takeCountShortSourceAndError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let res = scheduler.start { xs.take(5) }
        #expect(res.events == [.next(210, 2), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 2), .error(300, opTestError, Int.self)])
        let res2 = scheduler2.start { ys.take(5) }
        #expect(res2.events == [.next(210, 2), .error(300, opTestError)])
        #expect(ys.subscriptions == [Subscription(200, 300)])
    }

    @Test func takeCountReentrantCompletesOnce() {
        let subject = PublishSubject<Int>()
        let log = EventLog<Int>()
        let subscription = subject.take(2).subscribe { event in
            log.events.append(event)
            if event.element == 1 { subject.onNext(2); subject.onNext(3) }
        }
        subject.onNext(1)
        #expect(log.elements == [1, 2])
        #expect(log.events.count == 3)
        #expect(log.isCompleted)
        subscription.dispose()
    }

    // MARK: take(until: other)

    @Test func takeUntilOtherEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let other = scheduler.createHotObservable([.next(150, "x"), .next(225, "stop"), .completed(400)])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(225)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func takeUntilOtherCompletesWithoutElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 3), .completed(300)])
        let other = scheduler.createHotObservable([.completed(225, String.self)])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 2), .next(240, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func takeUntilOtherErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 3), .completed(300)])
        let other = scheduler.createHotObservable([.error(225, opTestError, String.self)])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 2), .error(225, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
    }

    @Test func takeUntilSourceEndsFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, opTestError, Int.self)])
        let other = scheduler.createHotObservable([.next(300, "late")])
        let res = scheduler.start { xs.take(until: other) }
        #expect(res.events == [.next(210, 2), .error(230, opTestError)])
        #expect(other.subscriptions == [Subscription(200, 230)])
    }

    @Test func takeUntilReentrantOtherFiredFromHandler() {
        let source = PublishSubject<Int>()
        let stop = PublishSubject<Void>()
        let log = EventLog<Int>()
        let subscription = source.take(until: stop).subscribe { event in
            log.events.append(event)
            if event.element == 2 { stop.onNext(()) }
        }
        source.onNext(1)
        source.onNext(2)
        source.onNext(3)
        #expect(log.elements == [1, 2])
        #expect(log.isCompleted)
        #expect(!stop.hasObservers)
        #expect(!source.hasObservers)
        subscription.dispose()
    }

    // MARK: take(until: predicate) and take(while:)

    @Test func takeUntilPredicateExclusiveAndInclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
        ])
        let exclusive = scheduler.start { xs.take(until: { $0 == 3 }) }
        #expect(exclusive.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
        ])
        let inclusive = scheduler2.start { ys.take(until: { $0 == 3 }, behavior: .inclusive) }
        #expect(inclusive.events == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
    }

    @Test func takeWhileExclusiveInclusiveAndThrowing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(300),
        ])
        let res = scheduler.start { xs.take(while: { $0 < 3 }) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(300),
        ])
        let inclusive = scheduler2.start { ys.take(while: { $0 < 3 }, behavior: .inclusive) }
        #expect(inclusive.events == [.next(210, 1), .next(220, 2), .next(230, 5), .completed(230)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let zs = scheduler3.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let throwing = scheduler3.start {
            zs.take(while: { value in
                if value == 2 { throw opTestError }
                return true
            })
        }
        #expect(throwing.events == [.next(210, 1), .error(220, opTestError)])
        #expect(zs.subscriptions == [Subscription(200, 220)])
    }

    @Test func takeWhileSourceCompletesFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.take(while: { $0 < 3 }) }
        #expect(res.events == [.next(210, 1), .completed(250)])
    }

    // MARK: takeLast

    @Test func takeLastEmitsTheTailOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .completed(300),
        ])
        let res = scheduler.start { xs.takeLast(3) }
        #expect(res.events == [.next(300, 3), .next(300, 4), .next(300, 5), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func takeLastShortSourceZeroAndError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.takeLast(3) }
        #expect(res.events == [.next(300, 1), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .completed(300)])
        let zero = scheduler2.start { ys.takeLast(0) }
        #expect(zero.events == [.completed(300)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let zs = scheduler3.createHotObservable([.next(210, 1), .error(300, opTestError, Int.self)])
        let failed = scheduler3.start { zs.takeLast(3) }
        #expect(failed.events == [.error(300, opTestError)])
    }

    @Test func takeLastDisposedEarlyEmitsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.takeLast(3) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
