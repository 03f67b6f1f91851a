import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct ThrottleTests {
    private static let events: [Recorded<Event<Int>>] = [
        .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5), .next(410, 6), .next(450, 7),
    ]

    @Test func notLatestDropsEverythingInThePeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.events + [.completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func notLatestErrorAndNoEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(250, 3), .error(410, opTestError), .next(450, 7)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .error(410, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 410)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable(Self.events)
        let res2 = scheduler2.start { ys.throttle(.seconds(200), latest: false, scheduler: scheduler2) }
        #expect(res2.events == [.next(210, 2), .next(410, 6)])
        #expect(ys.subscriptions == [Subscription(200, 1000)])
    }

    @Test func latestEmitsTheLastHeldBackElementAfterThePeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.events + [.completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(610)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func latestCompletedAfterDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.events + [.completed(900)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(900)])
        #expect(xs.subscriptions == [Subscription(200, 900)])
    }

    @Test func latestEmptyErrorAndNoEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let empty = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(empty.events == [.completed(500)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([
            .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5), .error(410, opTestError), .next(450, 7),
        ])
        let failed = scheduler2.start { ys.throttle(.seconds(200), scheduler: scheduler2) }
        #expect(failed.events == [.next(210, 2), .error(410, opTestError)])
        #expect(ys.subscriptions == [Subscription(200, 410)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let zs = scheduler3.createHotObservable(Self.events)
        let open = scheduler3.start { zs.throttle(.seconds(200), scheduler: scheduler3) }
        #expect(open.events == [.next(210, 2), .next(410, 6), .next(610, 7)])
    }

    @Test func disposalCancelsThePendingTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(250, 3)])
        let res = scheduler.start(disposed: 300) { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func millisecondSpansOnAFinerScheduler() {
        // 1 tick = 1 ms: a 20 ms throttle.
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let xs = scheduler.createHotObservable([
            .next(215, 1), .next(221, 2), .next(225, 3), .next(231, 4), .next(246, 5), .completed(300),
        ])
        let res = scheduler.start { xs.throttle(.milliseconds(20), latest: false, scheduler: scheduler) }
        #expect(res.events == [.next(215, 1), .next(246, 5), .completed(300)])
    }
}
