import Dispatch
import Foundation
import Synchronization

/// A time span for schedulers, as in RxSwift 6.
public typealias RxTimeInterval = DispatchTimeInterval

/// An absolute time for schedulers.
public typealias RxTime = Date

/// Runs work now (or as soon as it can), in its own context.
public protocol ImmediateSchedulerType {
    /// Schedules `action` with `state`; the returned disposable cancels it if it has not run.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// Runs work now, later, or periodically.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's notion of the current time.
    var now: RxTime { get }

    /// Schedules `action` to run after `dueTime`.
    func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable

    /// Runs `action` after `startAfter`, then every `period`, threading state through.
    func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable
}

extension SchedulerType {
    /// Periodic scheduling built from relative scheduling, as RxSwift emulates it
    /// (`SchedulePeriodicRecursive`): each tick first schedules the next one, then runs
    /// `action`, so work that `action` schedules for the next tick's time runs after that tick.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        let periodic = PeriodicSchedule(state, period: period, action: action, scheduler: self)
        periodic.schedule(after: startAfter)
        return periodic
    }
}

/// The ticks of `schedulePeriodic` on a scheduler without a periodic timer of its own. A tick
/// that comes while `action` still runs (on a concurrent scheduler) is counted, and `action`
/// runs again right after instead of alongside.
final class PeriodicSchedule<State>: Disposable {
    private let scheduler: SchedulerType
    private let period: RxTimeInterval
    private let action: (State) -> State
    /// Touched only by the one running `action` (`pending` orders the runs).
    private var state: State
    /// Ticks not yet run, the running one included.
    private let pending = Atomic<Int>(0)
    private let nextTick = SerialDisposable()
    private let catchUp = SerialDisposable()

    init(_ state: State, period: RxTimeInterval, action: @escaping (State) -> State, scheduler: SchedulerType) {
        self.state = state
        self.period = period
        self.action = action
        self.scheduler = scheduler
    }

    func schedule(after delay: RxTimeInterval) {
        nextTick.disposable = scheduler.scheduleRelative((), dueTime: delay) { [self] _ in
            schedule(after: period)
            if pending.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 { run() }
            return Disposables.create()
        }
    }

    private func run() {
        state = action(state)
        if pending.wrappingSubtract(1, ordering: .acquiringAndReleasing).oldValue > 1 {
            catchUp.disposable = scheduler.schedule(()) { [self] _ in
                run()
                return Disposables.create()
            }
        }
    }

    func dispose() {
        nextTick.dispose()
        catchUp.dispose()
    }
}

/// A mutable box for state threaded through periodic and recursive work.
final class StateBox<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

extension ImmediateSchedulerType {
    /// Schedules `action` that may schedule itself again through `recurse`.
    public func scheduleRecursive<State>(
        _ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
    ) -> Disposable {
        let recursive = RecursiveImmediateScheduler(action: action, scheduler: self)
        recursive.schedule(state)
        return Disposables.create(with: recursive.dispose)
    }
}

extension SchedulerType {
    /// Schedules `action` after `dueTime`; it may schedule itself again through `recurse`.
    public func scheduleRecursive<State>(
        _ state: State, dueTime: RxTimeInterval,
        action: @escaping (_ state: State, _ recurse: (State, RxTimeInterval) -> Void) -> Void
    ) -> Disposable {
        let composite = CompositeDisposable()
        let lock = NSRecursiveLock()
        func go(_ state: State, _ delay: RxTimeInterval) {
            var key: CompositeDisposable.DisposeKey?
            let once = SingleAssignmentDisposable()
            key = composite.insert(once)
            guard key != nil else { return }
            once.setDisposable(
                scheduleRelative(state, dueTime: delay) { state in
                    lock.lock()
                    if let key { composite.remove(for: key) }
                    lock.unlock()
                    action(state) { go($0, $1) }
                    return Disposables.create()
                })
        }
        go(state, dueTime)
        return composite
    }
}

/// Drives `scheduleRecursive` on an immediate scheduler; tracks pending work so that
/// disposing cancels whatever is still queued.
final class RecursiveImmediateScheduler<State> {
    private let action: (State, (State) -> Void) -> Void
    private let scheduler: ImmediateSchedulerType
    private let pending = CompositeDisposable()

    init(action: @escaping (State, (State) -> Void) -> Void, scheduler: ImmediateSchedulerType) {
        self.action = action
        self.scheduler = scheduler
    }

    func schedule(_ state: State) {
        let slot = Slot()
        let disposable = scheduler.schedule(state) { [weak self] state in
            guard let self else { return Disposables.create() }
            if let key = slot.finish() { self.pending.remove(for: key) }
            if self.pending.isDisposed { return Disposables.create() }
            self.action(state) { self.schedule($0) }
            return Disposables.create()
        }
        if let key = pending.insert(disposable), !slot.park(key) {
            pending.remove(for: key)
        }
    }

    /// Meeting point of "the work ran" and "the work was parked under this key", in either order.
    private final class Slot {
        private let lock = NSLock()
        private var ran = false
        private var key: CompositeDisposable.DisposeKey?

        /// The work ran; returns the key to remove when it had been parked already.
        func finish() -> CompositeDisposable.DisposeKey? {
            lock.lock(); defer { lock.unlock() }
            ran = true
            return key
        }

        /// Parks the key; false when the work ran already (so the key must be removed now).
        func park(_ key: CompositeDisposable.DisposeKey) -> Bool {
            lock.lock(); defer { lock.unlock() }
            if ran { return false }
            self.key = key
            return true
        }
    }

    func dispose() { pending.dispose() }
}
