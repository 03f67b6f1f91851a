// `drive`: subscribing to a `Driver`, named for what it is for (a UI state flowing into the
// UI). RxCocoa checks on Apple platforms that `drive` runs on the main thread; on Linux it does
// not, and neither does RxAnatomy (Swift Testing runs tests off the main thread).

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Sends every event to `observers`.
    ///
    /// ```swift
    /// viewModel.isValid.drive(button.rx.isEnabled).disposed(by: disposeBag)
    /// ```
    public func drive<Observer: ObserverType>(
        _ observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element {
        asObservable().subscribe({ event in observers.forEach { $0.on(event) } }, file: file, line: line)
    }

    /// Sends every event, elements as optionals, to `observers`.
    public func drive<Observer: ObserverType>(
        _ observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element? {
        asObservable().subscribe({ event in observers.forEach { $0.on(event.map { $0 }) } }, file: file, line: line)
    }

    /// Accepts every element into `relays`.
    public func drive(
        _ relays: BehaviorRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        drive(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element, as an optional, into `relays`.
    public func drive(
        _ relays: BehaviorRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        drive(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element into `relays`.
    public func drive(_ relays: ReplayRelay<Element>..., file: StaticString = #fileID, line: UInt = #line) -> Disposable
    {
        drive(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element, as an optional, into `relays`.
    public func drive(
        _ relays: ReplayRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        drive(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Hands the underlying observable to `transformation` (a binder function) and returns
    /// what it returns.
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        transformation(asObservable())
    }

    /// Hands the underlying observable and `curriedArgument` to a curried binder function.
    public func drive<R1, R2>(_ with: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        with(asObservable())(curriedArgument)
    }

    /// Like `drive(onNext:onCompleted:onDisposed:)`, passing `object` (held weakly) to each
    /// closure; once `object` is gone, no closure is called.
    public func drive<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        asObservable().subscribe(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, file: file, line: line)
    }

    /// Subscribes closures (a `Driver` cannot fail, so there is no `onError`).
    public func drive(
        onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        asObservable().subscribe(
            onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, file: file, line: line)
    }

    /// Subscribes and ignores the events (keeps the `Driver`'s work running).
    public func drive(file: StaticString = #fileID, line: UInt = #line) -> Disposable {
        drive(onNext: nil, onCompleted: nil, onDisposed: nil, file: file, line: line)
    }
}
