import Foundation
import RxCore
import XCTest

/// Marks each XCTest test's start and end in the trace when the suite runs under `RXTRACE`
/// (`Tracing.mark`), so `rxtrace leaks --by-test` can say what each test left open: registered
/// with XCTest's observation center when the test program loads, for every program that links
/// RxTest, with no code in the tests. Names are XCTest's (`LeakTests.testLeavesABag`, or with
/// the module on Darwin).
///
/// XCTest makes every test case object before the first test runs and keeps them all until the
/// run ends, so what a test case's properties hold (a `DisposeBag` made in `setUp`) outlives
/// its test: `leaks --by-test` says so ("still held at the end of the run").
final class RxTestObservation: NSObject, XCTestObservation {
    func testCaseWillStart(_ testCase: XCTestCase) { Tracing.mark(.testStarted, testCase.name) }
    func testCaseDidFinish(_ testCase: XCTestCase) { Tracing.mark(.testEnded, testCase.name) }

    /// Registers one observer, only when `RXTRACE` is set (a run that records nothing is left as is).
    static func register() {
        guard let path = getenv("RXTRACE"), path.pointee != 0 else { return }
        XCTestObservationCenter.shared.addTestObserver(RxTestObservation())
    }
}

// Run when the program loads, before XCTest starts (a function in the loader's list of
// initializers, SE-0492's `@section`): XCTest has no other hook a library can use without a
// line in each test.
#if os(Linux) || os(FreeBSD) || os(Android)
@used @section(".init_array")
private let registerTestObservation: @convention(c) () -> Void = { RxTestObservation.register() }
#elseif canImport(Darwin)
@used @section("__DATA,__mod_init_func")
private let registerTestObservation: @convention(c) () -> Void = { RxTestObservation.register() }
#endif
