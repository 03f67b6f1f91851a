import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct IfEmptyTests {
    private let fallback: [Recorded<Event<Int>>] = [.next(10, 0), .next(20, 1), .completed(50)]

    @Test func defaultWhenTheSourceIsEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(420)])
        let res = scheduler.start { xs.ifEmpty(default: -1) }
        #expect(res.events == [.next(420, -1), .completed(420)])
        #expect(xs.subscriptions == [Subscription(200, 420)])
    }

    @Test func noDefaultWhenTheSourceHasElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(280, 42), .next(360, 43), .completed(420)])
        let res = scheduler.start { xs.ifEmpty(default: -1) }
        #expect(res.events == [.next(280, 42), .next(360, 43), .completed(420)])
    }

    @Test func anErrorIsPassedOnWithoutTheDefault() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(420, opTestError, Int.self)])
        let res = scheduler.start { xs.ifEmpty(default: -1) }
        #expect(res.events == [.error(420, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 420)])
    }

    @Test func neverStaysSilent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        #expect(scheduler.start { xs.ifEmpty(default: -1) }.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func switchesWhenTheSourceIsEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(210, Int.self)])
        let ys = scheduler.createColdObservable(fallback)
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        #expect(res.events == [.next(220, 0), .next(230, 1), .completed(260)])
        // The source is let go when it completes empty, before the other one starts.
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(ys.subscriptions == [Subscription(210, 260)])
    }

    @Test func theSwitchedToErrorEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(210, Int.self)])
        let ys = scheduler.createColdObservable([.next(10, 0), .error(50, opTestError)])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        #expect(res.events == [.next(220, 0), .error(260, opTestError)])
        #expect(ys.subscriptions == [Subscription(210, 260)])
    }

    @Test func noSwitchWhenTheSourceHasElementsOrFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .completed(210)])
        let ys = scheduler.createColdObservable(fallback)
        #expect(scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }.events == [.next(205, 1), .completed(210)])
        #expect(ys.subscriptions == [])

        let failing = TestScheduler(initialClock: 0)
        let zs = failing.createHotObservable([.error(210, opTestError, Int.self)])
        let unused = failing.createColdObservable(fallback)
        #expect(failing.start { zs.ifEmpty(switchTo: unused.asObservable()) }.events == [.error(210, opTestError)])
        #expect(unused.subscriptions == [])
    }

    @Test func disposingStopsTheSwitchedTo() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(210, Int.self)])
        let ys = scheduler.createColdObservable(fallback)
        let res = scheduler.start(disposed: 225) { xs.ifEmpty(switchTo: ys.asObservable()) }
        #expect(res.events == [.next(220, 0)])
        #expect(ys.subscriptions == [Subscription(210, 225)])
    }

    @Test func maybeForms() {
        #expect(recorded { _ in Maybe<Int>.empty().ifEmpty(default: 7) } == [.next(200, 7), .completed(200)])
        #expect(recorded { _ in Maybe.just(1).ifEmpty(default: 7) } == [.next(200, 1), .completed(200)])
        #expect(
            recorded { _ in Maybe<Int>.empty().ifEmpty(switchTo: Maybe.just(8)) } == [.next(200, 8), .completed(200)])
        #expect(
            recorded { _ in Maybe<Int>.empty().ifEmpty(switchTo: Single.just(9)) } == [.next(200, 9), .completed(200)])
        #expect(recorded { _ in Maybe<Int>.empty().ifEmpty(switchTo: Maybe.empty()) } == [.completed(200)])
    }
}
