import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct IgnoreElementsTests {
    @Test func passesOnlyCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.ignoreElements() }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func passesErrorsAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(300, opTestError, Int.self)])
        let res = scheduler.start { xs.ignoreElements() }
        #expect(res.events == [.error(300, opTestError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .completed(300)])
        let res2 = scheduler2.start(disposed: 250) { ys.ignoreElements() }
        #expect(res2.events == [])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }
}
