import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct DistinctUntilChangedTests {
    @Test func dropsConsecutiveDuplicates() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(215, 2), .next(220, 3), .next(225, 2), .next(230, 2), .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(225, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func keySelectorComparerAndKeyPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, "a"), .next(220, "A"), .next(230, "bb"), .next(240, "cc"), .completed(250),
        ])
        let byKey = scheduler.start { xs.distinctUntilChanged { $0.lowercased() } }
        #expect(byKey.events == [.next(210, "a"), .next(230, "bb"), .next(240, "cc"), .completed(250)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([
            .next(210, "a"), .next(220, "A"), .next(230, "bb"), .next(240, "cc"), .completed(250),
        ])
        let byComparer = scheduler2.start { ys.distinctUntilChanged { $0.count == $1.count } }
        #expect(byComparer.events == [.next(210, "a"), .next(230, "bb"), .completed(250)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let zs = scheduler3.createHotObservable([.next(210, "a"), .next(220, "A"), .next(230, "bb"), .completed(250)])
        let byKeyPath = scheduler3.start { zs.distinctUntilChanged(at: \.count) }
        #expect(byKeyPath.events == [.next(210, "a"), .next(230, "bb"), .completed(250)])
    }

    @Test func throwingKeySelectorOrComparerFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged { (_: Int) -> Int in throw opTestError } }
        #expect(res.events == [.error(210, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res2 = scheduler2.start { ys.distinctUntilChanged { (_: Int, _: Int) -> Bool in throw opTestError } }
        #expect(res2.events == [.next(210, 1), .error(220, opTestError)])
    }

    @Test func errorAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, opTestError, Int.self)])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 1), .error(220, opTestError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(300, 2)])
        let res2 = scheduler2.start(disposed: 250) { ys.distinctUntilChanged() }
        #expect(res2.events == [.next(210, 1)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }
}
