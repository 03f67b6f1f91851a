import Foundation
import RxCore
import Testing

/// Runs `body` and records a test issue naming each type with more live objects after it than
/// before, e.g. `leaked: +1 MapSink, +1 SinkDisposer`.
///
/// Everything `body` creates must be gone when it returns: keep Rx objects in its locals.
/// In Swift Testing the issue fails the current test. Elsewhere (XCTest, an executable) the
/// message goes to standard error: from XCTest, check the returned table,
/// `XCTAssertEqual(assertNoLeaks { … }, [:])`.
///
/// ```swift
/// @Test func mapDoesNotLeak() {
///     assertNoLeaks {
///         _ = Observable.of(1, 2).map { $0 * 2 }.subscribe()
///     }
/// }
/// ```
///
/// - Returns: the types that grew, with how many objects more are alive.
@discardableResult
public func assertNoLeaks(
    _ comment: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ body: () throws -> Void
) rethrows -> [String: Int] {
    let before = Resources.snapshot()
    try body()
    return LeakCheck.verify(
        since: before, comment: comment(),
        sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// `assertNoLeaks` for asynchronous bodies.
@discardableResult
public func assertNoLeaks(
    _ comment: @autoclosure () -> String = "",
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ body: () async throws -> Void
) async rethrows -> [String: Int] {
    let before = Resources.snapshot()
    try await body()
    return LeakCheck.verify(
        since: before, comment: comment(),
        sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// The comparison behind `assertNoLeaks` and the `.noLeaks` trait.
public enum LeakCheck {
    /// The types with more live objects now than in `before`, with the growth.
    public static func leaks(since before: ResourceSnapshot) -> [String: Int] {
        Resources.snapshot().grown(since: before).filter { $0.value > 0 }
    }

    /// `+1 MapSink, +2 SinkDisposer`: the growth, most first, then by name.
    public static func describe(_ leaks: [String: Int]) -> String {
        leaks.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            .map { "+\($0.value) \($0.key)" }
            .joined(separator: ", ")
    }

    /// How long `verify` waits for objects that other threads are still releasing (a dispatch
    /// queue dropping its last closure) before calling them leaked.
    public static let settleTime: TimeInterval = 0.2

    /// Records an issue when anything grew since `before`; returns what grew.
    ///
    /// Objects released by another thread just after the test body returned are not leaks: when
    /// something grew, the check looks again for up to `settleTime` before it reports.
    @discardableResult
    public static func verify(
        since before: ResourceSnapshot, comment: String = "", sourceLocation: SourceLocation
    ) -> [String: Int] {
        var grown = leaks(since: before)
        let deadline = Date(timeIntervalSinceNow: settleTime)
        while !grown.isEmpty && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
            grown = leaks(since: before)
        }
        if !grown.isEmpty {
            let prefix = comment.isEmpty ? "" : "\(comment): "
            let message = "\(prefix)leaked: \(describe(grown))"
            if Test.current == nil {
                // Not inside Swift Testing (XCTest, an executable): say it on standard error.
                FileHandle.standardError.write(Data("\(sourceLocation): \(message)\n".utf8))
            }
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
        return grown
    }
}

/// Checks that each test leaves no core object alive: `@Test(.noLeaks)` or, for every test of
/// a suite, `@Suite(.noLeaks)`. A failing test names each type that grew (`+1 MapSink`).
///
/// Under `RXTRACE` it also marks each test's start and end in the trace (`Tracing.mark`, named
/// `Suite/test()`), so `rxtrace leaks --by-test` can say what each test left open.
public struct NoLeaksTrait: TestTrait, SuiteTrait, TestScoping {
    public init() {}

    /// Applies to every test inside a suite that has it.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if test.isSuite {
            try await function()
            return
        }
        let name = test.id.nameComponents.joined(separator: "/")
        Tracing.mark(.testStarted, name)
        defer { Tracing.mark(.testEnded, name) }
        let before = Resources.snapshot()
        try await function()
        LeakCheck.verify(since: before, comment: "\(test.name)", sourceLocation: test.sourceLocation)
    }
}

extension Trait where Self == NoLeaksTrait {
    /// Fails the test when core objects outlive it, naming their types.
    public static var noLeaks: Self { NoLeaksTrait() }
}
