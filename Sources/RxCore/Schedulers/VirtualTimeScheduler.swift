import Foundation

/// Converts between a virtual time scheduler's own units and real time.
public protocol VirtualTimeConverterType {
    /// The scheduler's clock type (`Int` ticks for `TestScheduler`).
    associatedtype VirtualTimeUnit
    /// The scheduler's span type.
    associatedtype VirtualTimeIntervalUnit

    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// Seconds as a virtual span (RxSwift's signature: a `TimeInterval`, not an `RxTimeInterval`).
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The order of two virtual times.
public enum VirtualTimeComparison {
    case lessThan, equal, greaterThan
}

/// A scheduler whose clock moves only when its queued work runs: time is simulated, so tests
/// of `interval`, `debounce` or `delay` take no real time and give the same result every run.
///
/// Not thread-safe: drive it from one thread.
///
/// While tracing, `start()` and `advanceTo(_:)` publish the clock (`TraceClock`), so the events
/// they cause are recorded at virtual time.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType {
    public typealias VirtualTime = Converter.VirtualTimeUnit
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private var running = false
    private var currentClock: VirtualTime
    private var queue: [VirtualSchedulerItem<VirtualTime>] = []
    private var nextID = 0
    private let converter: Converter

    /// The current virtual time.
    public var clock: VirtualTime { currentClock }

    /// The current time in real-time units.
    public var now: RxTime { converter.convertFromVirtualTime(clock) }

    public init(initialClock: VirtualTime, converter: Converter) {
        self.currentClock = initialClock
        self.converter = converter
    }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` `dueTime` from now, at the time `adjustScheduledTime` makes of it: the
    /// one form of scheduling that is adjusted (RxSwift's too), so `TestScheduler` runs work asked
    /// for "now" by an operator one tick later, while absolute times run exactly then.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let time = converter.offsetVirtualTime(
            clock, offset: converter.convertToVirtualTimeInterval(rxSchedulerSeconds(dueTime)))
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(time), action: action)
    }

    /// Schedules `action` `dueTime` virtual units from now, not adjusted (a cold test observable's
    /// offsets: offset 0 runs at the subscription's own tick).
    public func scheduleRelativeVirtual<StateType>(
        _ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        scheduleAbsoluteVirtual(state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
    }

    /// Schedules `action` at virtual time `time` exactly, the current clock included (a time in
    /// the past runs next, at the current clock). Work at the same time runs in scheduling order.
    open func scheduleAbsoluteVirtual<StateType>(
        _ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let item = VirtualSchedulerItem(action: { action(state) }, time: time, id: nextID)
        nextID += 1
        let index = insertionIndex(for: item)
        queue.insert(item, at: index)
        return item
    }

    /// Where work asked for by `scheduleRelative` (and `schedule`) at `time` is queued: at `time`
    /// itself here; `TestScheduler` moves work due now or earlier one tick later.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

    private func insertionIndex(for item: VirtualSchedulerItem<VirtualTime>) -> Int {
        // Binary search for the first item that runs after `item` (later time, or same time
        // and scheduled later: ids grow, so "after all equal times").
        var low = 0, high = queue.count
        while low < high {
            let mid = (low + high) / 2
            if converter.compareVirtualTime(queue[mid].time, item.time) == .greaterThan {
                high = mid
            } else {
                low = mid + 1
            }
        }
        return low
    }

    /// Runs every queued item in time order, moving the clock, until none is left or `stop()`.
    open func start() {
        guard !running else { return }
        running = true
        let traced = Tracing.isOn
        let saved = traced ? TraceClock.enter(TraceClock.number(clock)) : 0
        defer { if traced { TraceClock.leave(restoring: saved) } }
        repeat {
            guard let next = dequeueNext() else { break }
            if converter.compareVirtualTime(next.time, clock) == .greaterThan {
                currentClock = next.time
            }
            if traced { TraceClock.set(TraceClock.number(clock)) }
            next.invoke()
        } while running
        running = false
    }

    /// Stops `start()` after the item that is running.
    public func stop() { running = false }

    /// Runs the items due up to `virtualTime`, then sets the clock to it.
    public func advanceTo(_ virtualTime: VirtualTime) {
        guard !running else { return }
        running = true
        let traced = Tracing.isOn
        let saved = traced ? TraceClock.enter(TraceClock.number(clock)) : 0
        defer { if traced { TraceClock.leave(restoring: saved) } }
        repeat {
            guard let next = peekNext(), converter.compareVirtualTime(next.time, virtualTime) != .greaterThan else {
                break
            }
            _ = dequeueNext()
            if converter.compareVirtualTime(next.time, clock) == .greaterThan {
                currentClock = next.time
            }
            if traced { TraceClock.set(TraceClock.number(clock)) }
            next.invoke()
        } while running
        if converter.compareVirtualTime(clock, virtualTime) == .lessThan {
            currentClock = virtualTime
        }
        running = false
    }

    /// Moves the clock forward without running anything.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let sleepTo = converter.offsetVirtualTime(clock, offset: virtualInterval)
        precondition(converter.compareVirtualTime(sleepTo, clock) != .lessThan, "Can't sleep to the past")
        currentClock = sleepTo
    }

    private func peekNext() -> VirtualSchedulerItem<VirtualTime>? {
        while let first = queue.first {
            if first.isDisposed { queue.removeFirst(); continue }
            return first
        }
        return nil
    }

    private func dequeueNext() -> VirtualSchedulerItem<VirtualTime>? {
        guard let next = peekNext() else { return nil }
        queue.removeFirst()
        return next
    }
}

/// A unit of work queued on a virtual time scheduler.
final class VirtualSchedulerItem<Time>: Cancelable {
    private let action: () -> Disposable
    let time: Time
    let id: Int
    private let disposable = SingleAssignmentDisposable()

    init(action: @escaping () -> Disposable, time: Time, id: Int) {
        self.action = action
        self.time = time
        self.id = id
    }

    func invoke() { disposable.setDisposable(action()) }

    var isDisposed: Bool { disposable.isDisposed }

    func dispose() { disposable.dispose() }
}
