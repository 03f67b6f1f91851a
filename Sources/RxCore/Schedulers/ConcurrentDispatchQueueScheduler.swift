import Dispatch
import Foundation

/// Runs work on a concurrent `DispatchQueue`: scheduled items may run at the same time.
///
/// Operators stay correct on it (`observe(on:)` serialises what it forwards), which is what
/// the stress tests check.
///
/// ```swift
/// let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
/// Observable.of(1, 2, 3).subscribe(on: scheduler)
/// ```
public class ConcurrentDispatchQueueScheduler: SchedulerType {
    /// The queue work runs on.
    public let queue: DispatchQueue
    let configuration: DispatchQueueConfiguration

    public var now: RxTime { Date() }

    /// A scheduler on `queue`.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.queue = queue
        self.configuration = DispatchQueueConfiguration(queue: queue, leeway: leeway)
    }

    /// A scheduler on the global concurrent queue of quality of service `qos`.
    public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway)
    }

    public final func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
    {
        configuration.schedule(state, action: action)
    }

    public final func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
