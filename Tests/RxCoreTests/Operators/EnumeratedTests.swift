import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct EnumeratedTests {
    @Test func pairsElementsWithIndices() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, "a"), .next(210, "b"), .next(220, "c"), .completed(300)])
        let res = scheduler.start { xs.enumerated().map { "\($0.index):\($0.element)" } }
        #expect(res.events == [.next(210, "0:b"), .next(220, "1:c"), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func passesErrorsAndCountsPerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "b"), .error(220, opTestError, String.self)])
        let res = scheduler.start { xs.enumerated().map { $0.index } }
        #expect(res.events == [.next(210, 0), .error(220, opTestError)])

        let source = Observable.of("x", "y").enumerated().map { $0.index }
        var indices: [Int] = []
        _ = source.subscribe(onNext: { indices.append($0) })
        _ = source.subscribe(onNext: { indices.append($0) })
        #expect(indices == [0, 1, 0, 1])
    }
}
