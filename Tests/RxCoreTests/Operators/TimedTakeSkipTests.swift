import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct TimedTakeSkipTests {
    private let events: [Recorded<Event<Int>>] = [
        .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
    ]

    @Test func takeForEndsWhenTheTimeIsUp() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(225)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
    }

    @Test func takeForPassesTheSourcesEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        #expect(
            scheduler.start { xs.take(for: .seconds(100), scheduler: scheduler) }.events
                == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let failing = TestScheduler(initialClock: 0)
        let ys = failing.createHotObservable([.next(210, 1), .error(220, opTestError)])
        #expect(
            failing.start { ys.take(for: .seconds(100), scheduler: failing) }.events
                == [.next(210, 1), .error(220, opTestError)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
    }

    @Test func takeForZeroCompletesOnTheNextTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        #expect(scheduler.start { xs.take(for: .seconds(0), scheduler: scheduler) }.events == [.completed(201)])
        #expect(xs.subscriptions == [Subscription(200, 201)])
    }

    @available(*, deprecated)
    @Test func takeWithADurationIsTheOldSpelling() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        #expect(
            scheduler.start { xs.take(.seconds(15), scheduler: scheduler) }.events
                == [.next(210, 1), .completed(215)])
    }

    @Test func skipDropsTheFirstDuration() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        let res = scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }
        #expect(res.events == [.next(220, 2), .next(230, 3), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func skipPassesStopEventsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, opTestError)])
        #expect(scheduler.start { xs.skip(.seconds(50), scheduler: scheduler) }.events == [.error(220, opTestError)])
        let all = TestScheduler(initialClock: 0)
        let ys = all.createHotObservable(events)
        #expect(all.start { ys.skip(.seconds(100), scheduler: all) }.events == [.completed(240)])
    }

    @Test func skipZeroDropsOnlyWhatComesBeforeTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        #expect(
            scheduler.start { xs.skip(.seconds(0), scheduler: scheduler) }.events
                == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
    }
}
