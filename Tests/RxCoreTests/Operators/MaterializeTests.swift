import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct MaterializeTests {
    @Test func materializeTurnsEventsIntoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(250)])
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [.next(210, .next(2)), .next(250, .completed), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func materializeTurnsAnErrorIntoAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, opTestError, Int.self)])
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [.next(210, .next(2)), .next(250, .error(opTestError)), .completed(250)])
    }

    @Test func dematerializeUndoesMaterialize() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .error(250, opTestError, Int.self)])
        let res = scheduler.start { xs.materialize().dematerialize() }
        #expect(res.events == [.next(210, 2), .next(220, 3), .error(250, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func dematerializeStopsAtAnInnerStopEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event<Int>.next(1)), .next(220, Event<Int>.completed), .next(230, Event<Int>.next(2)),
            .completed(300),
        ])
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }
}
