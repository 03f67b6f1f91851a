import Synchronization

/// The scheduler `Driver` and `Signal` deliver on: a `MainScheduler`, or a mock while
/// `mock(scheduler:action:)` runs. Operators read it when they are built, so a test builds its
/// shared sequences inside `mock`:
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// SharingScheduler.mock(scheduler: scheduler) {
///     let res = scheduler.start { Driver.of(1, 2) }   // [.next(201, 1), .next(202, 2), .completed(203)]
/// }
/// ```
public enum SharingScheduler {
    private static let factory = Mutex<UncheckedSchedulerFactory?>(nil)

    /// The current scheduler maker. Unmocked, it makes a new `MainScheduler` each time, as
    /// RxCocoa does: each has its own count of queued work, so on the main thread a Driver that
    /// drives another (a relay's) still delivers at once instead of queueing behind itself.
    public static var make: () -> SchedulerType {
        factory.withLock { $0 }?.make ?? { MainScheduler() }
    }

    /// Runs `action` with `scheduler` as the sharing scheduler (for tests on virtual time).
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with `makeScheduler` making the sharing scheduler.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows {
        let original = factory.withLock { current in
            defer { current = UncheckedSchedulerFactory(make: makeScheduler) }
            return current
        }
        defer { factory.withLock { $0 = original } }
        try action()
    }
}

private struct UncheckedSchedulerFactory: @unchecked Sendable {
    let make: () -> SchedulerType
}
