import Foundation
import RxSwift
import RxTest

/// SplitMix64: the same numbers on every machine and in every build, so pipeline *n* of a seed
/// is the same pipeline against RxSwift and against the drop-in.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64, index: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 ^ index &* 0xD1B5_4A32_D192_ED03
        _ = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<count`.
    mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}

/// The error the pipelines fail with; printed `E<code>`.
struct Failure: Error, Equatable {
    let code: Int
}

/// An object whose lifetime a pipeline controls (`withUnretained`, `using`).
final class Token: Disposable {
    let name: String
    let log: Log
    init(_ name: String, _ log: Log) {
        self.name = name
        self.log = log
    }
    func dispose() { log.note(name, "dispose") }
}

/// What a pipeline's closures say while it runs (`do`, `create`, `using`), each line stamped
/// with the virtual time.
final class Log {
    unowned let scheduler: TestScheduler
    var lines: [String] = []
    init(_ scheduler: TestScheduler) { self.scheduler = scheduler }
    func note(_ tag: String, _ what: String) { lines.append("\(scheduler.clock):\(tag).\(what)") }

    /// What a `create` closure returns: logs that the closure returns (after what it sent at
    /// once), and, when disposed, the disposal, cancelling `scheduled`.
    func returned(_ tag: String, cancelling scheduled: Disposable? = nil) -> Disposable {
        note(tag, "returns")
        return Disposables.create {
            self.note(tag, "dispose")
            scheduled?.dispose()
        }
    }

    /// An observer that logs each event, then hands it to `observer`.
    func logging(_ name: String, _ observer: TestableObserver<Int>) -> AnyObserver<Int> {
        AnyObserver { event in
            self.note(name, Run.text(event))
            observer.on(event)
        }
    }
}

/// One pipeline's world: its scheduler, the lines that describe it, and everything it records.
final class Run {
    let scheduler: TestScheduler
    let log: Log
    /// The description: named sources, subjects, shared observables and scheduled actions.
    var lines: [String] = []
    private(set) var testables: [(name: String, observable: TestableObservable<Int>)] = []
    private(set) var observers: [(name: String, observer: TestableObserver<Int>)] = []
    /// Objects kept alive until a chosen time (`withUnretained`).
    var held: [Token?] = []
    private var counters: [String: Int] = [:]

    init(simulateProcessingDelay: Bool) {
        scheduler = TestScheduler(initialClock: 0, resolution: 1, simulateProcessingDelay: simulateProcessingDelay)
        log = Log(scheduler)
    }

    /// `prefix` with the next number for it: cold0, cold1, hot0…
    func name(_ prefix: String) -> String {
        let n = counters[prefix, default: 0]
        counters[prefix] = n + 1
        return "\(prefix)\(n)"
    }

    func add(_ name: String, _ observable: TestableObservable<Int>) { testables.append((name, observable)) }
    func add(_ name: String, _ observer: TestableObserver<Int>) { observers.append((name, observer)) }

    /// The outcome, one line per observer, testable observable and the log: what is compared.
    func outcome() -> [String] {
        var out: [String] = []
        for (name, observer) in observers {
            out.append("\(name): " + observer.events.map(Self.text).joined(separator: " "))
        }
        for (name, observable) in testables {
            out.append("\(name) subscriptions: " + observable.subscriptions.map(Self.text).joined(separator: " "))
        }
        out.append("log: " + log.lines.joined(separator: " "))
        return out
    }

    static func text(_ recorded: Recorded<Event<Int>>) -> String { "\(recorded.time):\(text(recorded.value))" }

    static func text(_ event: Event<Int>) -> String {
        switch event {
        case .next(let value): "n\(value)"
        case .error(let error): "e(\(text(error)))"
        case .completed: "c"
        }
    }

    static func text(_ subscription: Subscription) -> String {
        "\(subscription.subscribe)-" + (subscription.unsubscribe == Int.max ? "inf" : "\(subscription.unsubscribe)")
    }

    static func text(_ error: Error) -> String {
        if let failure = error as? Failure { return "E\(failure.code)" }
        if error is DecodingError { return "decoding" }
        guard let rx = error as? RxError else { return "other" }
        switch rx {
        case .unknown: return "unknown"
        case .disposed: return "disposed"
        case .overflow: return "overflow"
        case .argumentOutOfRange: return "argumentOutOfRange"
        case .noElements: return "noElements"
        case .moreThanOneElement: return "moreThanOneElement"
        case .timeout: return "timeout"
        }
    }

    static func text(_ recorded: [Recorded<Event<Int>>]) -> String { recorded.map(text).joined(separator: " ") }
}
