import Dispatch
import Foundation
import Synchronization

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

    func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        if case .never = dueTime { return Disposables.create() }
        let cancel = SingleAssignmentDisposable()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: DispatchTime.now() + dueTime, leeway: leeway)
        // Nobody else keeps a dispatch source alive: the handler holds the timer (through
        // `cancelTimer`) until it fires or is cancelled, which breaks the cycle.
        let cancelTimer = DispatchTimerReference(timer)
        timer.setEventHandler {
            defer { cancelTimer.cancel() }
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state))
        }
        timer.resume()
        return Disposables.create {
            cancel.dispose()
            cancelTimer.cancel()
        }
    }

    func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: DispatchTime.now() + startAfter, repeating: period, leeway: leeway)
        let cancelTimer = DispatchTimerReference(timer)
        let box = StateBox(state)
        // Handlers run one at a time on `queue`, so `box` needs no lock of its own. The handler
        // keeps the timer alive until the returned disposable cancels it.
        timer.setEventHandler {
            if cancelTimer.isCancelled { return }
            box.value = action(box.value)
        }
        timer.resume()
        return Disposables.create { cancelTimer.cancel() }
    }
}

/// Owns a dispatch timer until `cancel()`: cancels it and lets it go.
final class DispatchTimerReference: @unchecked Sendable {
    private let timer: Mutex<DispatchSourceTimer?>

    init(_ timer: DispatchSourceTimer) {
        self.timer = Mutex(timer)
    }

    var isCancelled: Bool { timer.withLock { $0 == nil } }

    func cancel() {
        let current: DispatchSourceTimer? = timer.withLock { timer in
            defer { timer = nil }
            return timer
        }
        current?.cancel()
    }
}
