import Foundation
import InMemoryTracing
import RxDistributedTracing
import RxTesting
import Testing
import Tracing

/// Runs `body` with the span tracer installed over a fresh in-memory tracer, then checks that,
/// once the body's objects are gone, no span is left open and the tracer keeps nothing of them.
func withSpans<T>(
    _ body: (InMemoryTracer, RxSpanTracer) throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) rethrows -> T {
    let memory = InMemoryTracer()
    let spans = RxDistributedTracing.install(tracer: memory)
    defer { RxDistributedTracing.uninstall() }
    let result = try body(memory, spans)
    // Objects released by a dispatch queue's thread just after the body may take a moment.
    let settled = eventually { spans.retainedNodes == 0 && spans.openSpans == 0 }
    #expect(settled, "the span tracer keeps \(spans.retainedNodes) nodes", sourceLocation: sourceLocation)
    #expect(memory.activeSpans.isEmpty, "open spans: \(memory.activeSpans.map(\.operationName))")
    return result
}

/// Polls `condition` for up to `seconds`; its last value.
func eventually(within seconds: TimeInterval = 2, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.002)
    }
    return true
}

/// Waits (bounded) until `count` calls of `done` have happened.
final class Countdown: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func done() { semaphore.signal() }
    /// False when the calls did not all come within `seconds`.
    func wait(for count: Int, seconds: Double = 5) -> Bool {
        for _ in 0..<count where semaphore.wait(timeout: .now() + seconds) == .timedOut { return false }
        return true
    }
}

/// A value several threads append to.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
    var current: Value { withLock { $0 } }
}

/// The span id of the in-memory span bound on this thread now ("-" when none).
var boundSpanID: String { ServiceContext.current?.inMemorySpanContext?.spanID ?? "-" }

/// `line` of the caller, as a span name's call site: `SpanTests.swift:12`.
func site(_ line: UInt, file: String = #fileID) -> String {
    "\(file.split(separator: "/").last ?? ""):\(line)"
}

struct Failure: Error, Equatable, CustomStringConvertible {
    let reason: String
    var description: String { "Failure(\(reason))" }
}

extension FinishedInMemorySpan {
    /// An attribute as text (`nil` when absent).
    func attribute(_ name: String) -> String? {
        switch attributes.get(name) {
        case .none: return nil
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .int32(let number): return String(number)
        case .some(let other): return "\(other)"
        }
    }
}
