import Foundation
import RxCore
import RxTesting
import Synchronization
import Testing

/// An error with a name, equal by name.
struct TestError: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { "TestError(\(name))" }
}

/// A tracer that records the calls of the subscribe flow, in order, and nothing else.
final class StepRecorder: RxTracer, @unchecked Sendable {
    private let state = Mutex<(nextID: UInt64, calls: [TraceCall])>((0, []))

    var calls: [TraceCall] { state.withLock { $0.calls } }

    func node(kind: TraceNodeKind, type: String, callSite: CallSite?) -> UInt64 {
        state.withLock {
            $0.nextID += 1; return $0.nextID
        }
    }
    func edge(from: UInt64, to: UInt64, relation: TraceRelation) {}
    func step(_ call: TraceCall, from: UInt64, to: UInt64, detail: String?) {
        state.withLock { $0.calls.append(call) }
    }
    func event(node: UInt64, kind: TraceEventKind, value: String?) {}
    func disposed(_ node: UInt64) {}
    func deinitialized(_ node: UInt64) {}
    func anomaly(node: UInt64, _ kind: TraceAnomaly, detail: String) {}
}

/// Runs `body` with `tracer` installed, and always uninstalls it.
func withTracer<T>(_ tracer: any RxTracer, _ body: () throws -> T) rethrows -> T {
    Tracing.tracer = tracer
    defer { Tracing.tracer = nil }
    return try body()
}

/// A thread-safe list, for results gathered from closures (and threads).
final class Collected<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ item: T) { lock.lock(); items.append(item); lock.unlock() }
    var all: [T] { lock.lock(); defer { lock.unlock() }; return items }
    var count: Int { all.count }
}

/// An observer that records events as they come (no clock), without stopping at stop events.
final class EventLog<Element>: ObserverType, @unchecked Sendable {
    private let lock = NSLock()
    private var log: [Event<Element>] = []
    func on(_ event: Event<Element>) { lock.lock(); log.append(event); lock.unlock() }
    /// What was received; tests that collect by hand append to it.
    var events: [Event<Element>] {
        get { lock.lock(); defer { lock.unlock() }; return log }
        set { lock.lock(); log = newValue; lock.unlock() }
    }
}

/// False when RxCore was built with `RX_NO_TRACE` (tracing compiled out).
let tracingCompiledIn: Bool = {
    Tracing.tracer = StepRecorder()
    defer { Tracing.tracer = nil }
    return Tracing.isOn
}()
