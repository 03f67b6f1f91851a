import RxCore
import RxTesting
import XCTest

/// Written as RxSwift's own tests are (XCTest, RxTest names): only the imports differ.
final class RxTestCompatibilityTests: XCTestCase {
    func testMap_Range() {
        let leaks = assertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)

            let xs = scheduler.createHotObservable([
                .next(150, 1),
                .next(210, 0),
                .next(220, 1),
                .next(230, 2),
                .next(240, 4),
                .completed(300),
            ])

            let res = scheduler.start { xs.map { $0 * 2 } }

            let correctMessages = Recorded.events(
                .next(210, 0 * 2),
                .next(220, 1 * 2),
                .next(230, 2 * 2),
                .next(240, 4 * 2),
                .completed(300)
            )

            let correctSubscriptions = [
                Subscription(200, 300)
            ]

            XCTAssertEqual(res.events, correctMessages)
            XCTAssertEqual(xs.subscriptions, correctSubscriptions)
        }
        XCTAssertEqual(leaks, [:])
    }

    func testFilter_Error() {
        XCTAssertEqual(assertNoLeaks { filterError() }, [:])
    }

    private func filterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let testError = NSError(domain: "dummyError", code: -232, userInfo: nil)

        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .next(20, 2),
            .error(30, testError),
        ])

        let res = scheduler.start(created: 0, subscribed: 200, disposed: 1000) {
            xs.filter { $0 % 2 == 0 }
        }

        XCTAssertEqual(
            res.events,
            [
                .next(220, 2),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testBlocking() throws {
        let leaks = try assertNoLeaks {
            XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
            XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().first(), 1)
        }
        XCTAssertEqual(leaks, [:])
    }
}

/// XCTest runs its tests on the main thread: `toBlocking()` there must keep the main queue
/// turning, or a sequence delivered by `MainScheduler` could never end.
final class BlockingOnTheMainThreadTests: XCTestCase {
    func testObservedOnTheMainScheduler() throws {
        XCTAssertTrue(Thread.isMainThread)
        let leaks = try assertNoLeaks {
            let values = try Observable.of(1, 2, 3).observe(on: MainScheduler.asyncInstance).toBlocking(timeout: 5)
                .toArray()
            XCTAssertEqual(values, [1, 2, 3])
        }
        XCTAssertEqual(leaks, [:])
    }

    func testSubscribedOnTheMainSchedulerFromAnotherQueue() throws {
        let leaks = try assertNoLeaks {
            let background = ConcurrentDispatchQueueScheduler(qos: .default)
            // `toArray`, not `first`: waiting for the end leaves nothing queued on the main queue,
            // which the leak check (blocking the main thread) could not let run.
            let values = try Observable<Int>.timer(.milliseconds(20), scheduler: background)
                .observe(on: MainScheduler.instance)
                .toBlocking(timeout: 5)
                .toArray()
            XCTAssertEqual(values, [0])
        }
        XCTAssertEqual(leaks, [:])
    }

    func testTheTimeoutStillHolds() {
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.05).first()) { error in
            guard case .timeout? = error as? RxError else { return XCTFail("expected RxError.timeout, got \(error)") }
        }
    }
}
