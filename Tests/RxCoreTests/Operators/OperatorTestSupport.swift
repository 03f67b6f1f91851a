import Foundation
import RxCore
import RxTesting

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

/// What a pipeline's closures did, each line with the virtual time it happened at
/// (`"250:outer.dispose"`): the order of side effects at one time, which recorded events alone
/// do not show.
final class SideEffectLog {
    private let scheduler: TestScheduler
    private(set) var entries: [String] = []

    init(_ scheduler: TestScheduler) { self.scheduler = scheduler }

    func callAsFunction(_ what: String) { entries.append("\(scheduler.clock):\(what)") }

    /// A source that never ends and logs its subscribe and its dispose.
    func endless<Element>(_ name: String, _: Element.Type = Element.self) -> Observable<Element> {
        Observable.create { _ in
            self("\(name).subscribe")
            return Disposables.create { self("\(name).dispose") }
        }
    }

    /// A source that sends `element` and completes while being subscribed, and logs its
    /// subscribe, the return from it, and its dispose.
    func synchronous<Element>(_ name: String, _ element: Element) -> Observable<Element> {
        Observable.create { observer in
            self("\(name).subscribe")
            observer.onNext(element)
            observer.onCompleted()
            self("\(name).returns")
            return Disposables.create { self("\(name).dispose") }
        }
    }
}
