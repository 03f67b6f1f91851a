import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct DebounceTests {
    @Test func allPassWhenSpacedOut() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, -1), .next(250, 0), .next(280, 1), .next(310, 2), .next(350, 3), .next(400, 4), .completed(500),
        ])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(
            res.events == [.next(270, 0), .next(300, 1), .next(330, 2), .next(370, 3), .next(420, 4), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func burstsEmitOnlyTheirLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(250, 0), .next(280, 1), .next(290, 2), .next(300, 3), .next(400, 4), .completed(500),
        ])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(270, 0), .next(320, 3), .next(420, 4), .completed(500)])
    }

    @Test func completionFlushesTheWaitingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 0), .next(260, 1), .completed(265)])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(265, 1), .completed(265)])
        #expect(xs.subscriptions == [Subscription(200, 265)])
    }

    @Test func errorDropsTheWaitingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 0), .next(280, 1), .error(290, opTestError)])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(270, 0), .error(290, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 290)])
    }

    @Test func disposalCancelsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 0), .next(290, 1)])
        let res = scheduler.start(disposed: 300) { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(270, 0)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func neverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0)])
        let never = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(never.events == [])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(150, 0), .completed(300)])
        let empty = scheduler2.start { ys.debounce(.seconds(20), scheduler: scheduler2) }
        #expect(empty.events == [.completed(300)])
    }
}
