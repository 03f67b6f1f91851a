import Dispatch
import Foundation

/// `interval` in seconds, for `Date` arithmetic (`.never` is `.infinity`).
func rxSchedulerSeconds(_ interval: RxTimeInterval) -> TimeInterval {
    switch interval {
    case .seconds(let value): return TimeInterval(value)
    case .milliseconds(let value): return TimeInterval(value) / 1_000
    case .microseconds(let value): return TimeInterval(value) / 1_000_000
    case .nanoseconds(let value): return TimeInterval(value) / 1_000_000_000
    case .never: return .infinity
    @unknown default: return .infinity
    }
}

/// The scheduling the dispatch-queue schedulers share: `async` for now, `asyncAfter` for later,
/// a `DispatchSourceTimer` for periodic work. Each scheduled action is a cancelable item.
struct DispatchQueueConfiguration {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        queue.async {
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state))
        }
        return cancel
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if case .never = dueTime { return Disposables.create() }
        let cancel = SingleAssignmentDisposable()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: DispatchTime.now() + dueTime, leeway: leeway)
        // The timer's handler holds the timer strongly until it fires or is cancelled.
        timer.setEventHandler {
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state))
        }
        timer.resume()
        return Disposables.create {
            cancel.dispose()
            timer.cancel()
        }
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: DispatchTime.now() + startAfter, repeating: period, leeway: leeway)
        let cancel = BooleanDisposable()
        let box = StateBox(state)
        // Handlers run one at a time on `queue`, so `box` needs no lock of its own.
        timer.setEventHandler {
            if cancel.isDisposed { return }
            box.value = action(box.value)
        }
        timer.resume()
        return Disposables.create {
            cancel.dispose()
            timer.cancel()
        }
    }
}
