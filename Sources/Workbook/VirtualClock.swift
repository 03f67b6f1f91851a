import Foundation
import RxCore
import RxTesting

/// Virtual time for the chapters: the documents' examples that wait (`delay`, `interval`,
/// `throttle`, the sign-up "network") run on a clock that moves only when its queued work runs,
/// so a chapter's transcript is identical on every run and takes no real time.
///
/// One tick is one millisecond: `interval(.milliseconds(300), …)` ticks at 300, 600, …
public final class VirtualClock {
    /// The clock of the innermost running `onVirtualTime { }`.
    public private(set) static var current: VirtualClock?

    /// The scheduler to hand to time-based operators.
    public let scheduler: TestScheduler

    init() {
        // RxTesting's TestScheduler at a resolution of 1 ms per tick; no simulated processing
        // delay, so work scheduled "now" runs now, as on a real scheduler.
        scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
    }

    /// Subscriptions that live as long as the clock runs: disposed when `onVirtualTime` ends.
    public var disposeBag: DisposeBag {
        if let bag { return bag }
        let made = DisposeBag()
        bag = made
        return made
    }

    private var bag: DisposeBag?

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

    fileprivate func run() {
        scheduler.start()
        bag = nil
    }

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
