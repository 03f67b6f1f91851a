/// The trait of `Single`: exactly one element, or an error.
public enum SingleTrait {}

/// One element, or an error: a request, a computation (RxSwift 6).
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a `Single` says: its element, or its error.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// A `Single` whose subscribe is `subscribe`; only the first event it sends counts.
    ///
    /// ```swift
    /// Single<Data>.create { single in
    ///     let task = fetch { result in single(result) }
    ///     return Disposables.create { task.cancel() }
    /// }
    /// ```
    public static func create(
        subscribe: @escaping (@escaping SingleObserver) -> Disposable, file: StaticString = #fileID, line: UInt = #line
    ) -> Single<Element> {
        let source = Observable<Element>.create(
            { observer in
                subscribe { event in
                    switch event {
                    case .success(let element):
                        observer.on(.next(element))
                        observer.on(.completed)
                    case .failure(let error):
                        observer.on(.error(error))
                    }
                }
            }, file: file, line: line)
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes one closure for the outcome.
    public func subscribe(
        _ observer: @escaping (SingleEvent<Element>) -> Void, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        var stopped = false
        return primitiveSequence.asObservable().subscribe(
            { event in
                if stopped { return }
                stopped = true
                switch event {
                case .next(let element): observer(.success(element))
                case .error(let error): observer(.failure(error))
                case .completed: rxFatalErrorInDebug("Single can't emit a completion event without an element")
                }
            }, file: file, line: line)
    }

    /// Subscribes closures for the element and the error (RxSwift 6 names the error `onFailure`).
    ///
    /// ```swift
    /// single.subscribe(onSuccess: { print($0) }, onFailure: { print($0) })
    /// ```
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil, onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        let callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        let disposable: Disposable =
            onDisposed.map { Disposables.create(with: $0, file: file, line: line) }
            ?? Disposables.create(file: file, line: line)
        let subscription = subscribe(
            { event in
                switch event {
                case .success(let element): onSuccess?(element)
                case .failure(let error):
                    if let onFailure { onFailure(error) } else { Hooks.defaultErrorHandler(callStack, error) }
                }
                disposable.dispose()
            }, file: file, line: line)
        return Disposables.create(subscription, disposable)
    }

    /// `subscribe(onSuccess:onFailure:onDisposed:)` with `object` handed to each closure, held
    /// weakly: once it is gone, the closures are not called.
    public func subscribe<Object: AnyObject>(
        with object: Object, onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, Swift.Error) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in object.map { onSuccess?($0, element) } },
            onFailure: { [weak object] error in object.map { onFailure?($0, error) } },
            onDisposed: { [weak object] in object.map { onDisposed?($0) } }, file: file, line: line)
    }

    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil, onError: @escaping (Swift.Error) -> Void,
        onDisposed: (() -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed, file: file, line: line)
    }

    /// A `Single` of `element`.
    public static func just(_ element: Element, file: StaticString = #fileID, line: UInt = #line) -> Single<Element> {
        PrimitiveSequence(raw: Observable.just(element, file: file, line: line))
    }

    /// A `Single` of `element`, sent on `scheduler`.
    public static func just(
        _ element: Element, scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Single<Element> {
        PrimitiveSequence(raw: Observable.just(element, scheduler: scheduler, file: file, line: line))
    }

    /// Transforms the element.
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, file: StaticString = #fileID, line: UInt = #line
    ) -> Single<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.map(transform, file: file, line: line))
    }

    /// A `Maybe` of the transformed element, empty when `transform` gives `nil`.
    public func compactMap<Result>(
        _ transform: @escaping (Element) throws -> Result?, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.compactMap(transform, file: file, line: line))
    }

    /// Continues with the `Single` the element maps to. As in RxSwift, this and the other trait
    /// `flatMap` forms are `Observable.flatMap`.
    public func flatMap<Result>(
        _ selector: @escaping (Element) throws -> Single<Result>, file: StaticString = #fileID, line: UInt = #line
    ) -> Single<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.flatMap(selector, file: file, line: line))
    }

    /// Continues with the `Maybe` the element maps to.
    public func flatMapMaybe<Result>(
        _ selector: @escaping (Element) throws -> Maybe<Result>, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.flatMap(selector, file: file, line: line))
    }

    /// Continues with the `Completable` the element maps to.
    public func flatMapCompletable(
        _ selector: @escaping (Element) throws -> Completable, file: StaticString = #fileID, line: UInt = #line
    ) -> Completable {
        PrimitiveSequence(raw: primitiveSequence.source.flatMap(selector, file: file, line: line))
    }

    /// A `Maybe` of the element when `predicate` holds, empty otherwise.
    public func filter(
        _ predicate: @escaping (Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.filter(predicate, file: file, line: line))
    }

    /// On error, succeeds with `element`.
    public func catchAndReturn(_ element: Element, file: StaticString = #fileID, line: UInt = #line) -> Single<Element>
    {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element, file: file, line: line))
    }

    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(
        _ element: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Single<Element> {
        catchAndReturn(element, file: file, line: line)
    }

    /// Calls the closures as the outcome passes (see `ObservableType.do`).
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Single<Element> {
        PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, file: file, line: line))
    }

    /// This `Single` as a `Maybe`.
    public func asMaybe() -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source)
    }

    /// This `Single` as a `Completable`: the element is dropped.
    public func asCompletable(file: StaticString = #fileID, line: UInt = #line) -> Completable {
        PrimitiveSequence(raw: AsCompletable(source: primitiveSequence.source, callSite: CallSite(file, line)))
    }
}

/// Traps in debug builds (a broken trait promise); ignored in release builds, as in RxSwift.
func rxFatalErrorInDebug(_ message: @autoclosure () -> String) {
    #if DEBUG
    fatalError(message())
    #endif
}
