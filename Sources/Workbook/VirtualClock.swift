import Foundation
import RxCore

/// Virtual time for the chapters: the documents' examples that wait (`delay`, `interval`,
/// `throttle`, the sign-up "network") run on a clock that moves only when its queued work runs,
/// so a chapter's transcript is identical on every run and takes no real time.
///
/// One tick is one millisecond: `interval(.milliseconds(300), …)` ticks at 300, 600, …
public final class VirtualClock {
    /// The clock of the innermost running `onVirtualTime { }`.
    public private(set) static var current: VirtualClock?

    /// The scheduler to hand to time-based operators.
    public let scheduler: VirtualTimeScheduler<MillisecondConverter>

    init() {
        scheduler = VirtualTimeScheduler(initialClock: 0, converter: MillisecondConverter())
    }

    /// Milliseconds since the clock started.
    public var now: Int { scheduler.clock }

    /// Seconds since the clock started, as the documents write times (`0.3`).
    public var seconds: Double { Double(now) / 1000 }

    /// Runs `action` `seconds` from now.
    public func schedule(after seconds: Double, _ action: @escaping () -> Void) {
        _ = scheduler.scheduleRelativeVirtual((), dueTime: Int((seconds * 1000).rounded())) { _ in
            action()
            return Disposables.create()
        }
    }

    /// Runs `action` at absolute virtual time `seconds`.
    public func at(_ seconds: Double, _ action: @escaping () -> Void) {
        _ = scheduler.scheduleAbsoluteVirtual((), time: Int((seconds * 1000).rounded())) { _ in
            action()
            return Disposables.create()
        }
    }

    /// `[t=0.300]`: a prefix for lines printed on virtual time.
    public var stamp: String { String(format: "[t=%.3f]", seconds) }

    fileprivate func run() { scheduler.start() }

    fileprivate static func push(_ clock: VirtualClock?) -> VirtualClock? {
        let previous = current
        current = clock
        return previous
    }
}

/// Sets up a virtual clock, runs `body` (which schedules work and subscribes on
/// `clock.scheduler`), then runs the clock until nothing is left to do.
///
/// ```swift
/// onVirtualTime { clock in
///     let subscription = Observable<Int>.interval(.milliseconds(300), scheduler: clock.scheduler)
///         .subscribe { print($0) }
///     clock.at(2) { subscription.dispose() }
/// }
/// ```
public func onVirtualTime(_ body: (VirtualClock) -> Void) {
    let clock = VirtualClock()
    let previous = VirtualClock.push(clock)
    body(clock)
    clock.run()
    _ = VirtualClock.push(previous)
}

/// Integer milliseconds ⇄ real time, for `VirtualTimeScheduler`.
public struct MillisecondConverter: VirtualTimeConverterType {
    public init() {}

    public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: Double(virtualTime) / 1000)
    }

    public func convertToVirtualTime(_ time: RxTime) -> Int {
        Int((time.timeIntervalSince1970 * 1000).rounded())
    }

    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        Double(virtualTimeInterval) / 1000
    }

    public func convertToVirtualTimeInterval(_ timeInterval: RxTimeInterval) -> Int {
        switch timeInterval {
        case .seconds(let s): return s * 1000
        case .milliseconds(let ms): return ms
        case .microseconds(let us): return us / 1000
        case .nanoseconds(let ns): return ns / 1_000_000
        case .never: return Int.max / 2
        @unknown default: return 0
        }
    }

    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }

    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}
