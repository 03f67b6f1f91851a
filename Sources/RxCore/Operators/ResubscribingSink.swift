import Synchronization

/// The sink of an operator that subscribes again when a sequence fails (`retry`,
/// `retry(when:)`, `catch`, `catch(sequence:)`): elements and completion pass straight on, an error goes to
/// `failed(_:)`, which subscribes again or passes it on.
class ResubscribingSink<Observer: ObserverType>: PassThroughSink<Observer> {
    /// The current attempt's subscription (part of what `run` returns).
    let subscription = SerialDisposable()
    private let gate = ResubscriptionGate()
    private let nextStep = Mutex<Step?>(nil)

    /// What the gate does next: subscribe a new attempt, or pass the last error on.
    private enum Step {
        case subscribe(Observable<Element>)
        case fail(Swift.Error)
    }

    override func on(_ event: Event<Element>) {
        if case .error(let error) = event { return failed(error) }
        super.on(event)
    }

    /// The current attempt failed with `error`. Subclasses subscribe again or pass it on.
    func failed(_ error: Swift.Error) {
        forwardErrorAndDispose(error)
    }

    /// Called by the gate just before a new attempt replaces the current one.
    func attemptWillStart() {}

    /// Subscribes this sink to `source` as a new attempt, unless it was disposed.
    final func subscribe(to source: Observable<Element>) {
        // Asked while an attempt is being subscribed (it failed at once), the gate runs the work
        // again when that returns: the work takes the source asked for last, which for
        // `catch(sequence:)` is not the one before.
        schedule(.subscribe(source))
    }

    /// Passes `error` on and disposes everything, through the gate as RxSwift's
    /// `TailRecursiveSink` does: an attempt that fails while it is being subscribed sees its
    /// error passed on only once its `subscribe` has returned, and the failed attempt is disposed
    /// after the error is passed on, with the rest.
    final func fail(with error: Swift.Error) {
        schedule(.fail(error))
    }

    private func schedule(_ step: Step) {
        nextStep.withLock { $0 = step }
        gate.run {
            guard let step = nextStep.withLock({ $0.take() }), !isDisposed else { return }
            switch step {
            case .subscribe(let source):
                attemptWillStart()
                // Assigned before subscribing: an attempt that fails inside `subscribe` ends this one.
                let attempt = SingleAssignmentDisposable()
                subscription.disposable = attempt
                attempt.setDisposable(source.subscribe(self))
            case .fail(let error):
                forwardErrorAndDispose(error)
            }
        }
    }

    /// Ends the failed attempt's subscription now, not when the next attempt replaces it.
    final func endAttempt() {
        subscription.disposable = Disposables.create()
    }
}

/// Runs resubscriptions one after another on the thread that asked first: a resubscription
/// asked for while one is in progress (a source that fails while being subscribed) is done
/// when that one returns, so retrying a synchronous failure loops instead of recursing.
final class ResubscriptionGate {
    private let pending = Atomic<Int>(0)

    func run(_ work: () -> Void) {
        if pending.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 { return }
        repeat {
            work()
        } while pending.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }
}
