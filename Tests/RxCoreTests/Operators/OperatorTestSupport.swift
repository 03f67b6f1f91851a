import Foundation
import RxCore

/// The error operator tests send and expect.
struct OpTestError: Error, Equatable, CustomStringConvertible {
    var name = "op"
    var description: String { "OpTestError(\(name))" }
}

let opTestError = OpTestError()

extension EventLog {
    var elements: [Element] { events.compactMap { $0.element } }
    var isCompleted: Bool { events.last?.isCompleted ?? false }
}

/// An observer for concurrency tests: counts events and records every breach of the Rx
/// contract it can see — two `on` calls at once, or anything after `completed`/`error`.
final class GrammarProbe<Element>: ObserverType, @unchecked Sendable {
    struct Report: Equatable, CustomStringConvertible {
        var nexts = 0
        var completions = 0
        var errors = 0
        var overlaps = 0
        var afterTermination = 0

        var description: String {
            "next×\(nexts) completed×\(completions) error×\(errors) overlaps×\(overlaps) "
                + "afterTermination×\(afterTermination)"
        }
    }

    private let lock = NSLock()
    private var inside = 0
    private var state = Report()

    func on(_ event: Event<Element>) {
        lock.lock()
        inside += 1
        if inside > 1 { state.overlaps += 1 }
        if state.completions + state.errors > 0 { state.afterTermination += 1 }
        switch event {
        case .next: state.nexts += 1
        case .completed: state.completions += 1
        case .error: state.errors += 1
        }
        lock.unlock()
        // Give another thread the chance to enter while this one is "inside".
        for _ in 0..<10 { _ = inside }
        lock.lock()
        inside -= 1
        lock.unlock()
    }

    var report: Report {
        lock.lock(); defer { lock.unlock() }
        return state
    }
}

/// How many `Token`s are alive.
final class LiveTokens {
    var count = 0
}

/// An element whose lifetime is counted: tests of the operators that queue elements check
/// that what they have delivered is let go.
final class Token {
    private let live: LiveTokens
    init(_ live: LiveTokens) {
        self.live = live
        live.count += 1
    }
    deinit { live.count -= 1 }
}
