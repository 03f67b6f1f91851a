/// Something that is an `Infallible`, so extensions can add operators to every infallible
/// sequence.
public protocol InfallibleType: ObservableConvertibleType {}

/// An observable that never fails: elements, then perhaps `completed`, never an error
/// (RxSwift 6). Unlike `Driver`, it shares nothing and has no scheduler of its own: each
/// subscription runs the sequence anew, on whatever thread it produces on.
///
/// ```swift
/// let names: Infallible<String> = userNames.asInfallible(onErrorJustReturn: "anonymous")
/// names.subscribe(onNext: { print($0) }).disposed(by: disposeBag)
/// ```
///
/// Its operators are `Observable`'s, so a trace shows the same nodes (`Map`, `MapSink`, …) with
/// the call sites of the code that wrote them.
public struct Infallible<Element>: InfallibleType {
    private let source: Observable<Element>

    @usableFromInline
    init(_ source: Observable<Element>) {
        self.source = source
    }

    public func asObservable() -> Observable<Element> { source }
}

/// What an `Infallible` says: an element, or that it is done.
public enum InfallibleEvent<Element> {
    /// The next element.
    case next(Element)
    /// The sequence finished.
    case completed
}

extension InfallibleEvent: EventConvertible {
    public var event: Event<Element> {
        switch self {
        case .next(let element): return .next(element)
        case .completed: return .completed
        }
    }
}

// MARK: - Creation

extension Infallible {
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void

    /// An `Infallible` whose subscribe is `subscribe`; nothing after its `completed` counts.
    ///
    /// ```swift
    /// Infallible<Int>.create { observer in
    ///     observer(.next(1))
    ///     observer(.completed)
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(
        subscribe: @escaping (@escaping InfallibleObserver) -> Disposable, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.create(
                { observer in
                    subscribe { event in
                        switch event {
                        case .next(let element): observer.onNext(element)
                        case .completed: observer.onCompleted()
                        }
                    }
                }, file: file, line: line))
    }
}

extension InfallibleType {
    /// One element, then `completed`.
    public static func just(_ element: Element, file: StaticString = #fileID, line: UInt = #line) -> Infallible<Element>
    {
        Infallible(Observable.just(element, file: file, line: line))
    }

    /// One element, then `completed`, both sent on `scheduler`.
    public static func just(
        _ element: Element, scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(Observable.just(element, scheduler: scheduler, file: file, line: line))
    }

    /// Never sends anything.
    public static func never(file: StaticString = #fileID, line: UInt = #line) -> Infallible<Element> {
        Infallible(Observable.never(file: file, line: line))
    }

    /// Completes at once.
    public static func empty(file: StaticString = #fileID, line: UInt = #line) -> Infallible<Element> {
        Infallible(Observable.empty(file: file, line: line))
    }

    /// An `Infallible` made fresh for each subscriber by `observableFactory`.
    public static func deferred(
        _ observableFactory: @escaping () throws -> Infallible<Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(Observable.deferred({ try observableFactory().asObservable() }, file: file, line: line))
    }
}

extension Infallible {
    /// The elements given, then `completed`.
    public static func of(
        _ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(Observable.from(elements, scheduler: scheduler, file: file, line: line))
    }

    /// The array's elements, then `completed`.
    public static func from(
        _ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(Observable.from(array, scheduler: scheduler, file: file, line: line))
    }

    /// The sequence's elements, then `completed`.
    public static func from<Sequence: Swift.Sequence>(
        _ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> where Sequence.Element == Element {
        Infallible(Observable.from(sequence, scheduler: scheduler, file: file, line: line))
    }
}

// MARK: - Subscribing

extension InfallibleType {
    /// Subscribes closures for the elements, the completion and the disposal (there is no
    /// error to handle).
    public func subscribe(
        onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        asObservable().subscribe(
            onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, file: file, line: line)
    }

    /// `subscribe(onNext:onCompleted:onDisposed:)` with `object` handed to each closure, held
    /// weakly: once it is gone, the closures are not called.
    public func subscribe<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        asObservable().subscribe(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, file: file, line: line)
    }

    /// Subscribes one closure for every event.
    public func subscribe(
        _ on: @escaping (InfallibleEvent<Element>) -> Void, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        asObservable().subscribe(
            { event in
                switch event {
                case .next(let element): on(.next(element))
                case .completed: on(.completed)
                case .error(let error): rxFatalErrorInDebug("Infallible must never emit an error event: \(error)")
                }
            }, file: file, line: line)
    }
}

// MARK: - Conversions

extension ObservableConvertibleType {
    /// This sequence, with an error replaced by `element` and `completed`.
    public func asInfallible(
        onErrorJustReturn element: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element, file: file, line: line))
    }

    /// This sequence, continued by `infallible` after an error.
    public func asInfallible(
        onErrorFallbackTo infallible: Infallible<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().catch({ _ in infallible.asObservable() }, file: file, line: line))
    }

    /// This sequence, continued after an error by the `Infallible` that `onErrorRecover` makes
    /// of it.
    public func asInfallible(
        onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().catch({ onErrorRecover($0).asObservable() }, file: file, line: line))
    }
}

extension PublishRelay {
    /// The relay as an `Infallible` (a relay cannot fail).
    public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}

extension BehaviorRelay {
    /// The relay as an `Infallible` (a relay cannot fail).
    public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}
