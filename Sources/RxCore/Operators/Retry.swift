import Synchronization

extension ObservableType {
    /// Resubscribes to the source after every error, forever; completes when the source does.
    ///
    /// ```swift
    /// request.retry()   // until it succeeds
    /// ```
    public func retry(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        Retry(source: asObservable(), maxAttemptCount: nil, callSite: CallSite(file, line))
    }

    /// Subscribes to the source at most `maxAttemptCount` times in all: the error of the last
    /// attempt is passed on. `retry(3)` is one try and two retries; `retry(0)` just completes.
    public func retry(_ maxAttemptCount: Int, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        Retry(source: asObservable(), maxAttemptCount: maxAttemptCount, callSite: CallSite(file, line))
    }

    /// Resubscribes when the sequence `notificationHandler` builds from the errors emits an
    /// element after a failure; passes on its error or completion as this sequence's own, once
    /// an attempt has failed (as in RxSwift: a trigger that completes while the source runs
    /// lets the source finish).
    ///
    /// ```swift
    /// request.retry(when: { errors in
    ///     errors.enumerated().flatMap { attempt, error in
    ///         attempt < 3 ? Observable<Int>.timer(.seconds(1), scheduler: scheduler) : .error(error)
    ///     }
    /// })
    /// ```
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        RetryWhen(
            source: asObservable(), notificationHandler: { notificationHandler($0).asObservable().map { _ in () } },
            callSite: CallSite(file, line))
    }

    /// `retry(when:)` for any error type.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        RetryWhen<Element, Swift.Error>(
            source: asObservable(), notificationHandler: { notificationHandler($0).asObservable().map { _ in () } },
            callSite: CallSite(file, line))
    }

    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        retry(when: notificationHandler, file: file, line: line)
    }

    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        retry(when: notificationHandler, file: file, line: line)
    }
}

/// The sink of `retry` and `retry(_:)`: subscribes again after an error while attempts are left.
final class RetrySink<Observer: ObserverType>: ResubscribingSink<Observer> {
    private let source: Observable<Element>
    private let attemptsLeft: Mutex<Int?>

    init(source: Observable<Element>, maxAttemptCount: Int?, observer: Observer, cancel: SinkDisposer) {
        self.source = source
        self.attemptsLeft = Mutex(maxAttemptCount)
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("RetrySink"))
    }

    /// Takes one attempt; false when none are left.
    private func takeAttempt() -> Bool {
        attemptsLeft.withLock { left in
            guard let count = left else { return true }
            if count <= 0 { return false }
            left = count - 1
            return true
        }
    }

    func run() -> Disposable {
        if takeAttempt() {
            subscribe(to: source)
        } else {
            forwardCompletedAndDispose()
        }
        return subscription
    }

    override func failed(_ error: Swift.Error) {
        if takeAttempt() {
            endAttempt()
            subscribe(to: source)
        } else {
            // As RxSwift's `CatchSequence`: the last error waits for a `subscribe` in progress to
            // return, and is passed on before the failed attempt is disposed.
            fail(with: error)
        }
    }
}

final class Retry<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let maxAttemptCount: Int?

    init(source: Observable<Element>, maxAttemptCount: Int?, callSite: CallSite?) {
        self.source = source
        self.maxAttemptCount = maxAttemptCount
        super.init(counter: ResourceCounter.named("Retry"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = RetrySink(source: source, maxAttemptCount: maxAttemptCount, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - retry(when:)

/// Listens, for a failed attempt, to what the trigger sequence says: an element resubscribes, a
/// stop event ends the whole sequence.
final class RetryWhenTriggerObserver<Observer: ObserverType, Error: Swift.Error>: ObserverBase<Void> {
    private weak var parent: RetryWhenSink<Observer, Error>?

    init(parent: RetryWhenSink<Observer, Error>) {
        self.parent = parent
        super.init(counter: ResourceCounter.named("RetryWhenTriggerObserver"))
        traceEdge(traceID, traceNodeID(of: parent), .forward) // trace: the inner observer feeds its sink
    }

    override func onCore(_ event: Event<Void>) {
        guard let parent else { return }
        switch event {
        case .next:
            parent.resubscribe()
        case .error(let error):
            parent.forwardOn(.error(error))
            parent.dispose()
        case .completed:
            parent.forwardOn(.completed)
            parent.dispose()
        }
    }
}

/// As RxSwift's: the trigger sequence runs from the start into `notifier`, but only a failed
/// attempt listens to it, from its error until the next attempt. So a trigger that completes
/// while the source is still running ends nothing; the next error (if any) meets the completion.
final class RetryWhenSink<Observer: ObserverType, Error: Swift.Error>: ResubscribingSink<Observer> {
    private let source: Observable<Element>
    private let errors = PublishSubject<Error>()
    private let notifier = PublishSubject<Void>()
    private let triggerSubscription = SingleAssignmentDisposable()
    /// The failed attempt's subscription to `notifier`.
    private let listener = SerialDisposable()

    init(source: Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.source = source
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("RetryWhenSink"))
    }

    func run(_ notificationHandler: (Observable<Error>) -> Observable<Void>) -> Disposable {
        triggerSubscription.setDisposable(notificationHandler(errors.asObservable()).subscribe(notifier))
        subscribe(to: source)
        return Disposables.create(subscription, listener, triggerSubscription)
    }

    /// The trigger sequence emitted after a failure: the next attempt. The failed attempt
    /// listens until that one starts (`attemptWillStart`), as in RxSwift, whose next attempt is
    /// queued while a `subscribe` is in progress: a trigger that emits and then completes at
    /// once after a synchronous failure is heard whole, and the completion ends the sequence.
    func resubscribe() {
        subscribe(to: source)
    }

    override func attemptWillStart() {
        listener.disposable = Disposables.create()
    }

    /// Listens to the trigger sequence, then hands it the error; an error of another type is
    /// passed on.
    override func failed(_ error: Swift.Error) {
        endAttempt()
        guard let typed = error as? Error else { return forwardErrorAndDispose(error) }
        listener.disposable = notifier.subscribe(RetryWhenTriggerObserver(parent: self))
        errors.onNext(typed)
    }
}

final class RetryWhen<Element, Error: Swift.Error>: Producer<Element> {
    typealias NotificationHandler = (Observable<Error>) -> Observable<Void>

    private let source: Observable<Element>
    private let notificationHandler: NotificationHandler

    init(source: Observable<Element>, notificationHandler: @escaping NotificationHandler, callSite: CallSite?) {
        self.source = source
        self.notificationHandler = notificationHandler
        super.init(counter: ResourceCounter.named("RetryWhen"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = RetryWhenSink<Observer, Error>(source: source, observer: observer, cancel: cancel)
        let subscription = sink.run(notificationHandler)
        return (sink: sink, subscription: subscription)
    }
}
