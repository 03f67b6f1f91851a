import Dispatch
import Foundation

/// Runs work on the main thread: at once when already on the main queue, otherwise through
/// `DispatchQueue.main`, whatever else is queued there (RxSwift's scheduler for
/// `subscribe(on:)` of work that must start on the main thread). For delivering events, prefer
/// `MainScheduler`, which keeps their order.
///
/// ```swift
/// locationUpdates.subscribe(on: ConcurrentMainScheduler.instance)
/// ```
public final class ConcurrentMainScheduler: SchedulerType {
    private let main = MainScheduler.asyncInstance

    private init() {}

    /// The shared instance.
    public static let instance = ConcurrentMainScheduler()

    public var now: RxTime { Date() }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if MainScheduler.isOnMainQueue { return action(state) }
        return main.schedule(state, action: action)
    }

    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        main.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        main.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
