import Foundation

/// Runs work on the current thread, queueing work scheduled while other work runs there:
/// the "trampoline" of 000. The first `schedule` on a thread runs its action at once and then
/// drains whatever that action queued; nested `schedule` calls only enqueue.
public final class CurrentThreadScheduler: ImmediateSchedulerType, @unchecked Sendable {
    /// The singleton.
    public static let instance = CurrentThreadScheduler()

    final class Trampoline {
        // Only ever touched by its own thread.
        @exclusivity(unchecked) var isRunning = false
        @exclusivity(unchecked) var queue: [any TrampolineItem] = []
        @exclusivity(unchecked) var head = 0

        /// Whether other work waits behind whatever runs now.
        var hasQueuedWork: Bool { head < queue.count }
    }

    /// This thread's trampoline (made on first use).
    @inline(__always)
    static var currentTrampoline: Trampoline {
        ThreadLocal<Trampoline>.existing(.trampoline) ?? trampoline.value
    }

    private static let trampoline = ThreadLocal<Trampoline>(slot: .trampoline) { Trampoline() }

    private init() {}

    /// True when no trampoline is running on this thread, so a `schedule` call must start one
    /// (000: `CurrentThreadScheduler.isScheduleRequired`).
    public static var isScheduleRequired: Bool {
        !(ThreadLocal<Trampoline>.existing(.trampoline)?.isRunning ?? false)
    }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let trampoline = Self.currentTrampoline
        if trampoline.isRunning {
            let item = ScheduledItem { action(state) }
            trampoline.queue.append(item)
            return item
        }
        return Self.runTrampoline(trampoline) { action(state) }
    }

    /// `schedule` for a caller that has just seen `isScheduleRequired`: starts this thread's
    /// trampoline with `action` as its first work, run at once, then drains what it queued.
    /// Because the action runs before this returns it doesn't escape, so nothing is allocated
    /// (the untraced path of `Producer.subscribe`).
    /// Runs `action` as the first work of `trampoline`, which is not running (a `Producer`
    /// that found `isScheduleRequired`): `schedule` minus the escaping closure.
    static func start(_ trampoline: Trampoline, _ action: () -> Disposable) -> Disposable {
        precondition(!trampoline.isRunning, "start: a trampoline already runs on this thread")
        return runTrampoline(trampoline, first: action)
    }

    static func enqueue(_ item: any TrampolineItem) {
        let trampoline = currentTrampoline
        if trampoline.isRunning {
            trampoline.queue.append(item)
        } else {
            _ = runTrampoline(trampoline) {
                item.invoke()
                return NopDisposable.noOp
            }
        }
    }

    private static func runTrampoline(_ trampoline: Trampoline, first action: () -> Disposable) -> Disposable {
        trampoline.isRunning = true
        defer {
            trampoline.isRunning = false
            trampoline.queue.removeAll(keepingCapacity: true)
            trampoline.head = 0
        }
        let disposable = action()
        while trampoline.head < trampoline.queue.count {
            let item = trampoline.queue[trampoline.head]
            trampoline.head += 1
            if trampoline.head >= 1024 && trampoline.head * 2 >= trampoline.queue.count {
                trampoline.queue.removeFirst(trampoline.head)
                trampoline.head = 0
            }
            if item.isDisposed { continue }
            item.invoke()
        }
        return disposable
    }
}

/// Work the trampoline can run.
protocol TrampolineItem: AnyObject {
    var isDisposed: Bool { get }
    func invoke()
}

/// Work queued on a scheduler: runs once unless disposed first; disposing it after it ran
/// disposes what the work returned.
public final class ScheduledItem: Cancelable, TraceIdentifiable, TrampolineItem {
    private let action: () -> Disposable
    private let disposable = SingleAssignmentDisposable()
    /// Trace node id (0 when not traced).
    public let traceID: UInt64

    init(_ action: @escaping () -> Disposable) {
        self.action = action
        traceID = rxBirth(.scheduledItem, .scheduled, nil)
    }

    deinit { rxDeath(.scheduledItem, traceID) }

    func invoke() {
        disposable.setDisposable(action())
    }

    public var isDisposed: Bool { disposable.isDisposed }

    public func dispose() { disposable.dispose() }
}
