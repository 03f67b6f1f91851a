/// The trait of `Maybe`: one element, nothing, or an error.
public enum MaybeTrait {}

/// One element, nothing (completed), or an error (RxSwift 6).
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// What a `Maybe` says.
@frozen public enum MaybeEvent<Element> {
    /// The one element; the `Maybe` is done.
    case success(Element)
    /// It failed.
    case error(Swift.Error)
    /// It finished with no element.
    case completed
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// A `Maybe` whose subscribe is `subscribe`; only the first event it sends counts.
    public static func create(
        subscribe: @escaping (@escaping MaybeObserver) -> Disposable, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Element> {
        let source = Observable<Element>.create(
            { observer in
                subscribe { event in
                    switch event {
                    case .success(let element):
                        observer.on(.next(element))
                        observer.on(.completed)
                    case .error(let error):
                        observer.on(.error(error))
                    case .completed:
                        observer.on(.completed)
                    }
                }
            }, file: file, line: line)
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes one closure for the outcome.
    public func subscribe(
        _ observer: @escaping (MaybeEvent<Element>) -> Void, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        var stopped = false
        return primitiveSequence.asObservable().subscribe(
            { event in
                if stopped { return }
                stopped = true
                switch event {
                case .next(let element): observer(.success(element))
                case .error(let error): observer(.error(error))
                case .completed: observer(.completed)
                }
            }, file: file, line: line)
    }

    /// Subscribes closures for the element, the error and the empty completion.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil, onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        let callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        let disposable: Disposable =
            onDisposed.map { Disposables.create(with: $0, file: file, line: line) }
            ?? Disposables.create(file: file, line: line)
        let subscription = subscribe(
            { event in
                switch event {
                case .success(let element): onSuccess?(element)
                case .error(let error):
                    if let onError { onError(error) } else { Hooks.defaultErrorHandler(callStack, error) }
                case .completed: onCompleted?()
                }
                disposable.dispose()
            }, file: file, line: line)
        return Disposables.create(subscription, disposable)
    }

    /// `subscribe(onSuccess:onError:onCompleted:onDisposed:)` with `object` handed to each
    /// closure, held weakly: once it is gone, the closures are not called.
    public func subscribe<Object: AnyObject>(
        with object: Object, onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in object.map { onSuccess?($0, element) } },
            onError: { [weak object] error in object.map { onError?($0, error) } },
            onCompleted: { [weak object] in object.map { onCompleted?($0) } },
            onDisposed: { [weak object] in object.map { onDisposed?($0) } }, file: file, line: line)
    }

    /// A `Maybe` of `element`.
    public static func just(_ element: Element, file: StaticString = #fileID, line: UInt = #line) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.just(element, file: file, line: line))
    }

    /// A `Maybe` of `element`, sent on `scheduler`.
    public static func just(
        _ element: Element, scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.just(element, scheduler: scheduler, file: file, line: line))
    }

    /// A `Maybe` that completes with no element.
    public static func empty(file: StaticString = #fileID, line: UInt = #line) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.empty(file: file, line: line))
    }

    /// Transforms the element.
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.map(transform, file: file, line: line))
    }

    /// Transforms the element; empty when `transform` gives `nil`.
    public func compactMap<Result>(
        _ transform: @escaping (Element) throws -> Result?, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.compactMap(transform, file: file, line: line))
    }

    /// Continues with the `Maybe` the element maps to; empty stays empty.
    public func flatMap<Result>(
        _ selector: @escaping (Element) throws -> Maybe<Result>, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.flatMap(selector, file: file, line: line))
    }

    /// Keeps the element only when `predicate` holds.
    public func filter(
        _ predicate: @escaping (Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.filter(predicate, file: file, line: line))
    }

    /// On error, succeeds with `element`.
    public func catchAndReturn(_ element: Element, file: StaticString = #fileID, line: UInt = #line) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element, file: file, line: line))
    }

    /// `Single` of the element, or of `default` when empty.
    public func ifEmpty(default: Element, file: StaticString = #fileID, line: UInt = #line) -> Single<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.ifEmpty(default: `default`, file: file, line: line))
    }

    /// This `Maybe`, or `other` when it is empty.
    public func ifEmpty(
        switchTo other: Maybe<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.ifEmpty(switchTo: other.asObservable(), file: file, line: line))
    }

    /// This `Maybe`'s element, or `other`'s when it is empty: a `Single`.
    public func ifEmpty(
        switchTo other: Single<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Single<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.ifEmpty(switchTo: other.asObservable(), file: file, line: line))
    }

    /// Calls the closures as events pass (see `ObservableType.do`).
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Maybe<Element> {
        PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted, onSubscribe: onSubscribe,
                onSubscribed: onSubscribed, onDispose: onDispose, file: file, line: line))
    }

    /// This `Maybe` as a `Completable`: the element is dropped.
    public func asCompletable(file: StaticString = #fileID, line: UInt = #line) -> Completable {
        PrimitiveSequence(raw: AsCompletable(source: primitiveSequence.source, callSite: CallSite(file, line)))
    }
}
