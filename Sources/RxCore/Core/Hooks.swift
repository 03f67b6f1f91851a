import Foundation
import Synchronization

/// Global hooks, as in RxSwift 6.
public enum Hooks {
    public typealias DefaultErrorHandler = (_ subscriptionCallStack: [String], _ error: Swift.Error) -> Void
    public typealias CustomCaptureSubscriptionCallstack = () -> [String]

    private struct State {
        var defaultErrorHandler: DefaultErrorHandler = { callStack, error in
            var message = "Unhandled error happened: \(error)"
            if !callStack.isEmpty {
                message += "\n subscription called from:\n" + callStack.joined(separator: "\n")
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
        var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack = {
            Thread.callStackSymbols
        }
    }

    private static let state = Mutex(State())
    // Read at every `subscribe(onNext:…)`: an atomic load rather than a lock.
    private static let recordsCallStack = Atomic<Bool>(false)

    /// Whether `subscribe(onNext:…)` records the subscription's call stack, for the error handler.
    public static var recordCallStackOnError: Bool {
        get { recordsCallStack.load(ordering: .relaxed) }
        set { recordsCallStack.store(newValue, ordering: .relaxed) }
    }

    /// Called with errors that reach a `subscribe(onNext:…)` without an `onError`.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { state.withLock { $0.defaultErrorHandler } }
        set { state.withLock { $0.defaultErrorHandler = newValue } }
    }

    /// How the subscription call stack is captured when `recordCallStackOnError` is set.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { state.withLock { $0.customCaptureSubscriptionCallstack } }
        set { state.withLock { $0.customCaptureSubscriptionCallstack = newValue } }
    }

    /// The tracer, when one is installed (`Tracing.tracer`).
    public static var tracer: (any RxTracer)? {
        get { Tracing.tracer }
        set { Tracing.tracer = newValue }
    }
}
