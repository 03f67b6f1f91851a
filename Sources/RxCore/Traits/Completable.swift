/// The trait of `Completable`: completion or an error, never an element.
public enum CompletableTrait {}

/// Completion or an error: work done for its effect (RxSwift 6).
public typealias Completable = PrimitiveSequence<CompletableTrait, Swift.Never>

/// What a `Completable` says.
@frozen public enum CompletableEvent {
    /// It failed.
    case error(Swift.Error)
    /// It finished.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// A `Completable` whose subscribe is `subscribe`; only the first event it sends counts.
    ///
    /// ```swift
    /// Completable.create { completable in
    ///     save { error in completable(error.map { .error($0) } ?? .completed) }
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(
        subscribe: @escaping (@escaping CompletableObserver) -> Disposable, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Completable {
        let source = Observable<Never>.create(
            { observer in
                subscribe { event in
                    switch event {
                    case .error(let error): observer.on(.error(error))
                    case .completed: observer.on(.completed)
                    }
                }
            }, file: file, line: line)
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes one closure for the outcome.
    public func subscribe(
        _ observer: @escaping (CompletableEvent) -> Void, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        var stopped = false
        return primitiveSequence.asObservable().subscribe(
            { event in
                if stopped { return }
                stopped = true
                switch event {
                case .next: rxFatalErrorInDebug("Completable can't emit an element")
                case .error(let error): observer(.error(error))
                case .completed: observer(.completed)
                }
            }, file: file, line: line)
    }

    /// Subscribes closures for completion and error.
    public func subscribe(
        onCompleted: (() -> Void)? = nil, onError: ((Swift.Error) -> Void)? = nil, onDisposed: (() -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        let callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        let disposable: Disposable =
            onDisposed.map { Disposables.create(with: $0, file: file, line: line) }
            ?? Disposables.create(file: file, line: line)
        let subscription = subscribe(
            { event in
                switch event {
                case .error(let error):
                    if let onError { onError(error) } else { Hooks.defaultErrorHandler(callStack, error) }
                case .completed: onCompleted?()
                }
                disposable.dispose()
            }, file: file, line: line)
        return Disposables.create(subscription, disposable)
    }

    /// `subscribe(onCompleted:onError:onDisposed:)` with `object` handed to each closure, held
    /// weakly: once it is gone, the closures are not called.
    public func subscribe<Object: AnyObject>(
        with object: Object, onCompleted: ((Object) -> Void)? = nil, onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        subscribe(
            onCompleted: { [weak object] in object.map { onCompleted?($0) } },
            onError: { [weak object] error in object.map { onError?($0, error) } },
            onDisposed: { [weak object] in object.map { onDisposed?($0) } }, file: file, line: line)
    }

    /// A `Completable` that completes at once.
    public static func empty(file: StaticString = #fileID, line: UInt = #line) -> Completable {
        PrimitiveSequence(raw: Observable.empty(file: file, line: line))
    }

    /// Calls the closures as events pass (see `ObservableType.do`).
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Completable {
        PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onError: onError, afterError: afterError, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, file: file, line: line))
    }

    /// When this completes, continues with `second`.
    ///
    /// ```swift
    /// save.andThen(Single.just("saved"))
    /// ```
    public func andThen<Element>(
        _ second: Single<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Single<Element> {
        PrimitiveSequence(raw: andThenSource(second.asObservable(), CallSite(file, line)))
    }

    /// When this completes, continues with `second`.
    public func andThen<Element>(
        _ second: Maybe<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Element> {
        PrimitiveSequence(raw: andThenSource(second.asObservable(), CallSite(file, line)))
    }

    /// When this completes, continues with `second`.
    public func andThen(_ second: Completable, file: StaticString = #fileID, line: UInt = #line) -> Completable {
        PrimitiveSequence(raw: andThenSource(second.asObservable(), CallSite(file, line)))
    }

    /// When this completes, continues with `second`.
    public func andThen<Element>(
        _ second: Observable<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        andThenSource(second, CallSite(file, line))
    }

    /// This, then `second`.
    public func concat(_ second: Completable, file: StaticString = #fileID, line: UInt = #line) -> Completable {
        Completable.concat([primitiveSequence, second], file: file, line: line)
    }

    /// The completables one after another: completes when the last does, fails at the first
    /// error.
    public static func concat<Sequence: Swift.Sequence>(
        _ sequence: Sequence, file: StaticString = #fileID, line: UInt = #line
    ) -> Completable where Sequence.Element == Completable {
        PrimitiveSequence(raw: Observable.concat(sequence.lazy.map { $0.asObservable() }, file: file, line: line))
    }

    /// The completables one after another.
    public static func concat<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> Completable where Collection.Element == Completable {
        PrimitiveSequence(raw: Observable.concat(collection.map { $0.asObservable() }, file: file, line: line))
    }

    /// The completables one after another.
    public static func concat(
        _ sources: Completable..., file: StaticString = #fileID, line: UInt = #line
    ) -> Completable {
        concat(sources, file: file, line: line)
    }

    /// The completables all at once: completes when every one has, fails at the first error.
    /// (For `Completable`, `zip` is `merge`: there are no elements to pair.)
    public static func zip<Collection: Swift.Collection>(
        _ sources: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> Completable where Collection.Element == Completable {
        PrimitiveSequence(raw: Observable.merge(sources.map { $0.asObservable() }, file: file, line: line))
    }

    /// The completables all at once.
    public static func zip(_ sources: [Completable], file: StaticString = #fileID, line: UInt = #line) -> Completable {
        PrimitiveSequence(raw: Observable.merge(sources.map { $0.asObservable() }, file: file, line: line))
    }

    /// The completables all at once.
    public static func zip(_ sources: Completable..., file: StaticString = #fileID, line: UInt = #line) -> Completable {
        zip(sources, file: file, line: line)
    }

    private func andThenSource<Element>(_ second: Observable<Element>, _ callSite: CallSite) -> Observable<Element> {
        AndThen(completable: primitiveSequence.source, second: second, callSite: callSite)
    }
}

// MARK: - andThen

/// Subscribes the completable, then, when it completes, what follows. One `SerialDisposable`
/// holds the current subscription: the next one replaces the completable's, which is disposed
/// only after the next source was subscribed (as in RxSwift's `Completable+AndThen.swift`).
final class AndThenSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Never

    private let second: Observable<Observer.Element>
    private let subscription = SerialDisposable()

    init(second: Observable<Observer.Element>, observer: Observer, cancel: SinkDisposer) {
        self.second = second
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.andThenSink)
    }

    func run(completable: Observable<Never>) -> Disposable {
        let first = SingleAssignmentDisposable()
        subscription.disposable = first
        first.setDisposable(completable.subscribe(self))
        return subscription
    }

    func on(_ event: Event<Never>) {
        switch event {
        case .next:
            break
        case .error(let error):
            forwardErrorAndDispose(error)
        case .completed:
            subscription.disposable = second.subscribe(forwarder())
        }
    }
}

final class AndThen<Element>: Producer<Element> {
    private let completable: Observable<Never>
    private let second: Observable<Element>

    init(completable: Observable<Never>, second: Observable<Element>, callSite: CallSite?) {
        self.completable = completable
        self.second = second
        super.init(counter: ResourceCounter.andThen, callSite: callSite)
        traceSource(completable)
        traceSource(second)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = AndThenSink(second: second, observer: observer, cancel: cancel)
        let subscription = sink.run(completable: completable)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let andThen = named("AndThen")
    fileprivate static let andThenSink = named("AndThenSink")
}
