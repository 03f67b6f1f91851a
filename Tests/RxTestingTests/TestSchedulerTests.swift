import Foundation
import RxCore
import RxTesting
import Testing

struct TestError: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { "TestError(\(name))" }
}

@Suite(.serialized)
struct TestSchedulerTests {
    @Test func hotObservableDeliversAtAbsoluteTimesInsideTheWindow() {
        let before = Resources.total
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(220, 3), .completed(300),
            ])
            let res = scheduler.start { xs.map { $0 * 10 } }
            #expect(res.events == [.next(210, 20), .next(220, 30), .completed(300)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
        }
        #expect(Resources.total == before)
    }

    @Test func coldObservableTimesAreOffsetsFromSubscription() {
        let before = Resources.total
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, "a"), .error(20, TestError())])
            let res = scheduler.start { xs.map { $0 } }
            #expect(res.events == [.next(210, "a"), .error(220, TestError())])
            // The sink disposes its upstream on the error.
            #expect(xs.subscriptions == [Subscription(200, 220)])
            // Subscribed directly, nothing disposes early: the window closes at 1000.
            let direct = scheduler.createColdObservable([.next(10, "b"), .completed(20)])
            let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { direct }
            #expect(res2.events == [.next(1210, "b"), .completed(1220)])
            #expect(direct.subscriptions == [Subscription(1200, 2000)])
        }
        #expect(Resources.total == before)
    }
}
