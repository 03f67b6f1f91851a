import Dispatch
import Foundation
import Synchronization

/// Runs work on `DispatchQueue.main`: the scheduler of UI work, of `Driver`, `Signal` and
/// `Binder`.
///
/// `schedule` called on the main queue with nothing of its own queued runs the action at once
/// (so `observe(on: MainScheduler.instance)` on the main thread adds no hop);
/// `MainScheduler.asyncInstance` always goes through the queue.
///
/// ## Draining the main queue on Linux
///
/// An app's main run loop drains `DispatchQueue.main` by itself. A Linux command-line program
/// has no run loop running, so work scheduled here waits until the main thread does one of:
///
/// ```swift
/// dispatchMain()                                    // drain forever; exit(0) from a callback to stop
/// RunLoop.main.run(until: Date().addingTimeInterval(1))   // drain for one second, then return
/// MainScheduler.drain(timeout: 2) { done }          // drain until `done` is true (tests, CLIs)
/// ```
///
/// In an `async` `main` (or a Swift Testing test, which runs off the main thread) the main
/// queue is drained by the concurrency runtime while the main task is suspended: `await` and
/// the scheduled work runs. See `docs/schedulers.md`.
public final class MainScheduler: SerialDispatchQueueScheduler {
    private let mainQueue: DispatchQueue
    /// Actions scheduled and not finished yet: immediate execution only when this is zero.
    private let numberEnqueued = Atomic<Int>(0)

    /// Prefer `MainScheduler.instance`.
    public init() {
        mainQueue = DispatchQueue.main
        super.init(serialQueue: mainQueue)
    }

    /// The shared instance: runs at once when already on the main thread with nothing queued.
    public static let instance = MainScheduler()

    /// Always dispatches to the main queue, even from the main thread.
    public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: DispatchQueue.main)

    /// Marks `DispatchQueue.main`, so "am I on the main queue" is a queue question, not a
    /// thread one: on Linux the main queue is not always drained by the main thread (under
    /// `swift test` another thread drains it).
    private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// True on the main thread or inside work running on `DispatchQueue.main`.
    public static var isOnMainQueue: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    /// Traps with `errorMessage` unless called on the main queue (or the main thread).
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        precondition(isOnMainQueue, errorMessage ?? "Running on background thread.")
    }

    /// RxSwift spelling of `ensureRunningOnMainThread`.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        ensureRunningOnMainThread(
            errorMessage: errorMessage
                ?? "Executing on background thread. Please use `MainScheduler.instance.schedule` to schedule work "
                + "on main thread."
        )
    }

    override func scheduleInternal<StateType>(
        _ state: StateType, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let previous = numberEnqueued.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        if previous == 0 && Self.isOnMainQueue {
            let disposable = action(state)
            numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            return disposable
        }
        let cancel = SingleAssignmentDisposable()
        mainQueue.async {
            if !cancel.isDisposed { cancel.setDisposable(action(state)) }
            self.numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
        return cancel
    }

    /// Runs the main run loop (which drains `DispatchQueue.main`) until `condition` holds or
    /// `timeout` seconds pass; returns whether `condition` held. Call it on the main thread:
    /// it is the pump for command-line programs and synchronous tests.
    ///
    /// ```swift
    /// var received: [Int] = []
    /// _ = source.observe(on: MainScheduler.instance).subscribe(onNext: { received.append($0) })
    /// MainScheduler.drain(timeout: 2) { received.count == 3 }
    /// ```
    @discardableResult
    public static func drain(timeout: TimeInterval, until condition: () -> Bool) -> Bool {
        precondition(Thread.isMainThread, "MainScheduler.drain must be called on the main thread")
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() >= deadline { return false }
            _ = RunLoop.main.run(mode: .default, before: min(deadline, Date().addingTimeInterval(0.01)))
        }
        return true
    }
}
