import Dispatch
import Foundation

/// Runs work one item at a time, in order, on a serial `DispatchQueue`.
///
/// `observe(on:)` with a serial scheduler keeps events in order without an extra queue.
/// Passing a concurrent queue to `init(queue:…)` is allowed: the scheduler targets a private
/// serial queue at it, so work is still serial.
///
/// ```swift
/// let background = SerialDispatchQueueScheduler(qos: .background)
/// source.observe(on: background)
/// ```
public class SerialDispatchQueueScheduler: SchedulerType {
    /// The serial queue everything runs on.
    public let queue: DispatchQueue
    let configuration: DispatchQueueConfiguration

    public var now: RxTime { Date() }

    init(serialQueue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.queue = serialQueue
        self.configuration = DispatchQueueConfiguration(queue: serialQueue, leeway: leeway)
    }

    /// A scheduler on a new serial queue named `internalSerialQueueName`, set up by
    /// `serialQueueConfiguration`.
    public convenience init(
        internalSerialQueueName: String, serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil,
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        let queue = DispatchQueue(label: internalSerialQueueName, attributes: [])
        serialQueueConfiguration?(queue)
        self.init(serialQueue: queue, leeway: leeway)
    }

    /// A scheduler on a new serial queue that targets `queue` (which may be concurrent).
    public convenience init(
        queue: DispatchQueue, internalSerialQueueName: String, leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        self.init(
            serialQueue: DispatchQueue(label: internalSerialQueueName, attributes: [], target: queue), leeway: leeway)
    }

    /// A scheduler on a new serial queue of quality of service `qos`.
    public convenience init(
        qos: DispatchQoS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial",
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        self.init(
            queue: DispatchQueue.global(qos: qos.qosClass), internalSerialQueueName: internalSerialQueueName,
            leeway: leeway)
    }

    public final func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
    {
        scheduleInternal(state, action: action)
    }

    func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
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
