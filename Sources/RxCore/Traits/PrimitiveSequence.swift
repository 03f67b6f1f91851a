/// An observable with a stronger promise, checked when it is built: RxSwift 6's traits.
///
/// - `Single<Element>`: exactly one element, or an error.
/// - `Maybe<Element>`: one element, nothing (completed), or an error.
/// - `Completable`: completed or an error, never an element.
///
/// ```swift
/// let fetch = Single<String>.create { single in
///     single(.success("data"))
///     return Disposables.create()
/// }
/// fetch.subscribe(onSuccess: { print($0) }, onFailure: { print($0) })
/// ```
public struct PrimitiveSequence<Trait, Element> {
    let source: Observable<Element>

    @usableFromInline
    init(raw: Observable<Element>) {
        self.source = raw
    }
}

/// Anything that is a `PrimitiveSequence`, so extensions can constrain on the trait.
public protocol PrimitiveSequenceType {
    associatedtype Trait
    associatedtype Element
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The underlying observable.
    public func asObservable() -> Observable<Element> { source }
}

extension PrimitiveSequence {
    /// A `Single`, `Maybe` or `Completable` that fails with `error`.
    public static func error(
        _ error: Swift.Error, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.error(error, file: file, line: line))
    }

    /// A `Single`, `Maybe` or `Completable` that never says anything.
    public static func never(file: StaticString = #fileID, line: UInt = #line) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.never(file: file, line: line))
    }

    /// A primitive sequence made fresh for each subscriber by `observableFactory`.
    public static func deferred(
        _ observableFactory: @escaping () throws -> PrimitiveSequence<Trait, Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.deferred({ try observableFactory().asObservable() }, file: file, line: line))
    }

    /// Shifts the success (or completion) `dueTime` later on `scheduler`.
    public func delay(
        _ dueTime: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler, file: file, line: line))
    }

    /// Subscribes `dueTime` later on `scheduler`.
    public func delaySubscription(
        _ dueTime: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler, file: file, line: line))
    }

    /// Delivers on `scheduler`.
    public func observe(
        on scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.observe(on: scheduler, file: file, line: line))
    }

    /// Subscribes on `scheduler`.
    public func subscribe(
        on scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.subscribe(on: scheduler, file: file, line: line))
    }

    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(
        _ scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        observe(on: scheduler, file: file, line: line)
    }

    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(
        _ scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        subscribe(on: scheduler, file: file, line: line)
    }

    /// On error, continues with the primitive sequence `handler` returns.
    public func `catch`(
        _ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.catch({ try handler($0).asObservable() }, file: file, line: line))
    }

    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(
        _ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        `catch`(handler, file: file, line: line)
    }

    /// Resubscribes after every error.
    public func retry(file: StaticString = #fileID, line: UInt = #line) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(file: file, line: line))
    }

    /// Subscribes at most `maxAttemptCount` times in all.
    public func retry(
        _ maxAttemptCount: Int, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount, file: file, line: line))
    }

    /// Resubscribes when the trigger built from the errors emits.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler, file: file, line: line))
    }

    /// `retry(when:)` for any error type.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable,
        file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler, file: file, line: line))
    }

    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler, file: file, line: line)
    }

    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable,
        file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler, file: file, line: line)
    }

    /// Fails with `RxError.timeout` when nothing arrives within `dueTime`.
    public func timeout(
        _ dueTime: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler, file: file, line: line))
    }

    /// Switches to `other` when nothing arrives within `dueTime`.
    public func timeout(
        _ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: SchedulerType,
        file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: source.timeout(dueTime, other: other.source, scheduler: scheduler, file: file, line: line))
    }

    /// Prints the subscription's events (see `ObservableType.debug`).
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// A primitive sequence that owns a resource for the length of the subscription.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>,
        file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.using(
                resourceFactory, observableFactory: { try primitiveSequenceFactory($0).asObservable() }, file: file,
                line: line))
    }
}

extension PrimitiveSequenceType where Element: RxAbstractInteger {
    /// A `Single` or `Maybe` of 0 after `dueTime` on `scheduler`.
    public static func timer(
        _ dueTime: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.timer(dueTime, scheduler: scheduler, file: file, line: line))
    }
}

// MARK: - Conversions from Observable

extension ObservableType {
    /// A `Single` of this sequence: its only element, or `RxError.noElements` /
    /// `RxError.moreThanOneElement`.
    public func asSingle(file: StaticString = #fileID, line: UInt = #line) -> Single<Element> {
        PrimitiveSequence(raw: AsPrimitive(source: asObservable(), allowsEmpty: false, callSite: CallSite(file, line)))
    }

    /// A `Maybe` of this sequence: its element if it has one, or `RxError.moreThanOneElement`.
    public func asMaybe(file: StaticString = #fileID, line: UInt = #line) -> Maybe<Element> {
        PrimitiveSequence(raw: AsPrimitive(source: asObservable(), allowsEmpty: true, callSite: CallSite(file, line)))
    }

}

extension ObservableType where Element == Never {
    /// A `Completable` of this sequence. Only an `Observable<Never>` (what `ignoreElements()`
    /// gives) converts, as in RxSwift 6, so `.ignoreElements().asCompletable()` states that the
    /// elements are dropped.
    public func asCompletable(file: StaticString = #fileID, line: UInt = #line) -> Completable {
        PrimitiveSequence(raw: AsCompletable(source: asObservable(), callSite: CallSite(file, line)))
    }
}

/// Holds back the element until completion, so it can check there was exactly one (or at most
/// one, for `Maybe`).
final class AsPrimitiveSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let allowsEmpty: Bool
    private var element: Element?

    init(allowsEmpty: Bool, observer: Observer, cancel: SinkDisposer) {
        self.allowsEmpty = allowsEmpty
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.rxAsPrimitiveSink)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            if element != nil {
                forwardOn(.error(RxError.moreThanOneElement))
                dispose()
                return
            }
            element = value
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            if let element {
                forwardOn(.next(element))
                forwardOn(.completed)
            } else if allowsEmpty {
                forwardOn(.completed)
            } else {
                forwardOn(.error(RxError.noElements))
            }
            dispose()
        }
    }
}

final class AsPrimitive<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let allowsEmpty: Bool

    init(source: Observable<Element>, allowsEmpty: Bool, callSite: CallSite?) {
        self.source = source
        self.allowsEmpty = allowsEmpty
        super.init(counter: ResourceCounter.named(allowsEmpty ? "AsMaybe" : "AsSingle"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = AsPrimitiveSink(allowsEmpty: allowsEmpty, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

final class AsCompletableSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Never {
    typealias Element = SourceElement

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.rxAsCompletableSink)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next:
            break
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

final class AsCompletable<SourceElement>: Producer<Never> {
    private let source: Observable<SourceElement>

    init(source: Observable<SourceElement>, callSite: CallSite?) {
        self.source = source
        super.init(counter: ResourceCounter.rxAsCompletable, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Never {
        let sink = AsCompletableSink<SourceElement, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let rxAsPrimitiveSink = named("AsPrimitiveSink")
    fileprivate static let rxAsCompletableSink = named("AsCompletableSink")
    fileprivate static let rxAsCompletable = named("AsCompletable")
}
