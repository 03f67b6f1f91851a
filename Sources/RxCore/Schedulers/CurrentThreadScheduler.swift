import Foundation

/// Runs work on the current thread, queueing work scheduled while other work runs there:
/// the "trampoline" of 000. The first `schedule` on a thread runs its action at once and then
/// drains whatever that action queued; nested `schedule` calls only enqueue.
public final class CurrentThreadScheduler: ImmediateSchedulerType, @unchecked Sendable {
    /// The singleton.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// True when no trampoline is running on this thread, so a `schedule` call must start one
    /// (000: `CurrentThreadScheduler.isScheduleRequired`).
    public static var isScheduleRequired: Bool {
        !(ThreadLocal<Trampoline>.existing(.trampoline)?.isRunning ?? false)
    }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let trampoline = Self.trampoline
        if trampoline.isScheduleRequired {
            return trampoline.schedule { action(state) }
        }
        let item = ScheduledItem { action(state) }
        trampoline.enqueue(item)
        return item
    }

    /// Queues `item` on this thread's trampoline, or runs it at once when none is running.
    static func enqueue(_ item: any TrampolineItem) {
        let trampoline = self.trampoline
        if trampoline.isScheduleRequired {
            _ = trampoline.schedule {
                item.invoke()
                return NopDisposable.noOp
            }
        } else {
            trampoline.enqueue(item)
        }
    }

    /// This thread's trampoline (made on first use).
    @inline(__always)
    static var trampoline: Trampoline {
        ThreadLocal<Trampoline>.existing(.trampoline) ?? threadTrampoline.value
    }

    /// `trampoline`, unretained: the thread's slot holds it until the thread ends, so code
    /// running on this thread can use it through `_withUnsafeGuaranteedRef` with no retain and
    /// release (`Producer.subscribe`, at every subscription).
    @inline(__always)
    static var unmanagedTrampoline: Unmanaged<Trampoline> {
        ThreadLocal<Trampoline>.unmanagedExisting(.trampoline) ?? threadTrampoline.unmanagedValue
    }

    private static let threadTrampoline = ThreadLocal<Trampoline>(slot: .trampoline) { Trampoline() }

    /// A thread's queue of work, and whether it is running it.
    final class Trampoline {
        // Only ever touched by its own thread.
        @exclusivity(unchecked) private(set) var isRunning = false
        @exclusivity(unchecked) private var queue: [any TrampolineItem] = []
        @exclusivity(unchecked) private var head = 0

        /// `isScheduleRequired`, for this trampoline.
        var isScheduleRequired: Bool { !isRunning }

        /// Whether other work waits behind whatever runs now.
        var hasQueuedWork: Bool { head < queue.count }

        /// Runs `action` at once as the first work of this trampoline, which is not running, then
        /// everything queued while it runs: `schedule` when `isScheduleRequired`. The action runs
        /// before this returns, so it does not escape and nothing is allocated for it.
        func schedule(_ action: () -> Disposable) -> Disposable {
            precondition(!isRunning, "a trampoline already runs on this thread")
            isRunning = true
            defer {
                isRunning = false
                // Most runs queue nothing: no uniqueness check and no call for an empty queue.
                if !queue.isEmpty { queue.removeAll(keepingCapacity: true) }
                head = 0
            }
            let disposable = action()
            while let item = dequeue() {
                if Tracing.isOn { traceDequeued(item) }
                if item.isDisposed { continue }
                item.invoke()
            }
            return disposable
        }

        func enqueue(_ item: any TrampolineItem) {
            queue.append(item)
            if Tracing.isOn { traceEnqueued(item) }
        }

        /// How much work waits, for the trace.
        var waiting: Int { queue.count - head }

        private func dequeue() -> (any TrampolineItem)? {
            guard head < queue.count else { return nil }
            let item = queue[head]
            head += 1
            // A long run drops what it has done, so the queue does not grow without bound.
            if head >= 1024 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return item
        }
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
