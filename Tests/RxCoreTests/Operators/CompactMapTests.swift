import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct CompactMapTests {
    @Test func dropsNilResults() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "0"), .next(210, "1"), .next(220, "x"), .next(230, "3"), .completed(300),
        ])
        let res = scheduler.start { xs.compactMap { Int($0) } }
        #expect(res.events == [.next(210, 1), .next(230, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func passesTheSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "1"), .error(220, opTestError, String.self)])
        let res = scheduler.start { xs.compactMap { Int($0) } }
        #expect(res.events == [.next(210, 1), .error(220, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func aThrowingTransformFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start {
            xs.compactMap { value -> Int? in
                if value == 2 { throw opTestError }
                return value * 10
            }
        }
        #expect(res.events == [.next(210, 10), .error(220, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposalStopsTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.compactMap { $0 } }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
