import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct SkipTests {
    @Test func skipCountDropsTheFirstElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.skip(2) }
        #expect(res.events == [.next(230, 4), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func skipCountZeroErrorAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, opTestError, Int.self)])
        let res = scheduler.start { xs.skip(0) }
        #expect(res.events == [.next(210, 2), .error(220, opTestError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 2), .next(220, 3), .next(260, 4)])
        let res2 = scheduler2.start(disposed: 250) { ys.skip(1) }
        #expect(res2.events == [.next(220, 3)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }

    @Test func skipWhilePassesEverythingAfterTheFirstFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(300),
        ])
        let res = scheduler.start { xs.skip(while: { $0 < 3 }) }
        #expect(res.events == [.next(230, 5), .next(240, 1), .completed(300)])
    }

    @Test func skipWhileThrowing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            xs.skip(while: { value in
                if value == 2 { throw opTestError }
                return true
            })
        }
        #expect(res.events == [.error(220, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func skipUntilOtherEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
        let other = scheduler.createHotObservable([.next(150, 1), .next(225, 99), .completed(400)])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [.next(230, 4), .next(240, 5), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func skipUntilOtherCompletesFirstSilencesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 5), .completed(250)])
        let other = scheduler.createHotObservable([.completed(225, Int.self)])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(other.subscriptions == [Subscription(200, 225)])
    }

    @Test func skipUntilErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 5), .completed(250)])
        let other = scheduler.createHotObservable([.error(225, opTestError, Int.self)])
        let res = scheduler.start { xs.skip(until: other) }
        #expect(res.events == [.error(225, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 225)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.error(215, opTestError, Int.self)])
        let other2 = scheduler2.createHotObservable([.next(210, 1)])
        let res2 = scheduler2.start { ys.skip(until: other2) }
        #expect(res2.events == [.error(215, opTestError)])
        #expect(other2.subscriptions == [Subscription(200, 210)])
    }
}
