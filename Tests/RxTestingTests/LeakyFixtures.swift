import Foundation
import RxCore
import RxTest
import RxTesting
import Testing
import XCTest

// A suite with known leaks and known held objects, recorded with RXTRACE by
// Tests/rxtraceTests/TestAttributionTests (which runs this test program as a child with
// RXANATOMY_LEAKY_SUITE=1): `rxtrace leaks` must find these roots, and `--by-test` must give
// each leftover to the test that made it. Without the variable every test here is skipped.
// The test finds the call sites by the `// mark:` comments.

/// What the leaky tests keep, as a program's globals and a view model would.
enum LeakyHolders {
    nonisolated(unsafe) static var viewModels: [LeakyViewModel] = []
    nonisolated(unsafe) static var observers: [AnyObserver<Int>] = []
    // Held, but nothing leaked: a subject with no subscribers, a finished subscription's disposable.
    nonisolated(unsafe) static var idleSubject: PublishSubject<Int>?
    nonisolated(unsafe) static var finished: Disposable?
}

/// A view model that keeps its subscriptions in its bag, and is kept alive.
final class LeakyViewModel {
    let bag = DisposeBag() // mark: view model bag
    let input = PublishSubject<Int>() // mark: view model subject
    init() {
        input.map { $0 * 2 }.subscribe(onNext: { _ in }).disposed(by: bag) // mark: view model subscribe
    }
}

let leakySuiteEnabled = ProcessInfo.processInfo.environment["RXANATOMY_LEAKY_SUITE"] == "1"

@Suite(.serialized, .noLeaks, .enabled(if: leakySuiteEnabled)) struct LeakySuite {
    @Test func keepsAViewModel() {
        LeakyHolders.viewModels.append(LeakyViewModel())
    }

    @Test func dropsADisposable() {
        // The handler keeps the observer (as a callback API would): the subscription lives on,
        // and its disposable is dropped.
        _ = Observable<Int>.create { observer in // mark: create
            LeakyHolders.observers.append(observer)
            return Disposables.create()
        }.map { $0 + 1 }.subscribe(onNext: { _ in }) // mark: dropped subscribe
    }

    @Test func cleansUp() {
        LeakyHolders.idleSubject = PublishSubject<Int>()
        LeakyHolders.finished = Observable.of(1, 2).subscribe(onNext: { _ in })
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(onNext: { _ in })
        subject.onNext(1)
        subscription.dispose()
    }
}

/// The same for XCTest: a bag in a test case's property (XCTest keeps the test case until the
/// run ends), a subscription a later class teardown disposes, one made by the class's setUp
/// (outside any test).
final class LeakyXCTests: XCTestCase {
    nonisolated(unsafe) static var subject: PublishSubject<Int>?
    nonisolated(unsafe) static var pending: Disposable?
    nonisolated(unsafe) static var classLevel: Disposable?
    var bag: DisposeBag!

    override class func setUp() {
        super.setUp()
        guard leakySuiteEnabled else { return }
        subject = PublishSubject<Int>() // mark: class setUp subject
        classLevel = subject?.subscribe(onNext: { _ in }) // mark: class setUp subscribe
    }

    override class func tearDown() {
        pending?.dispose()
        pending = nil
        super.tearDown()
    }

    override func setUpWithError() throws {
        try XCTSkipUnless(leakySuiteEnabled, "runs only when recorded (RXANATOMY_LEAKY_SUITE=1)")
        bag = DisposeBag() // mark: setUp bag
    }

    func testKeepsABagInAProperty() {
        Self.subject?.filter { $0 > 0 }.subscribe(onNext: { _ in }).disposed(by: bag) // mark: property bag subscribe
    }

    func testLeavesOneForLater() {
        Self.pending = Self.subject?.map { $0 }.subscribe(onNext: { _ in }) // mark: pending subscribe
    }

    func testCleansUp() {
        let subscription = Observable.of(1, 2, 3).subscribe(onNext: { _ in })
        subscription.dispose()
    }
}
