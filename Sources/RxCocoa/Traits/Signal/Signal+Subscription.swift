// `emit`: subscribing to a `Signal`, named for what it is for (events flowing into the UI).

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Sends every event to `observers`.
    ///
    /// ```swift
    /// viewModel.showAlert.emit(to: alertPresenter).disposed(by: disposeBag)
    /// ```
    public func emit<Observer: ObserverType>(
        to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element {
        asObservable().subscribe({ event in observers.forEach { $0.on(event) } }, file: file, line: line)
    }

    /// Sends every event, elements as optionals, to `observers`.
    public func emit<Observer: ObserverType>(
        to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element? {
        asObservable().subscribe({ event in observers.forEach { $0.on(event.map { $0 }) } }, file: file, line: line)
    }

    /// Accepts every element into `relays`.
    public func emit(
        to relays: BehaviorRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element, as an optional, into `relays`.
    public func emit(
        to relays: BehaviorRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element into `relays`.
    public func emit(
        to relays: PublishRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element, as an optional, into `relays`.
    public func emit(
        to relays: PublishRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element into `relays`.
    public func emit(
        to relays: ReplayRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element, as an optional, into `relays`.
    public func emit(
        to relays: ReplayRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Like `emit(onNext:onCompleted:onDisposed:)`, passing `object` (held weakly) to each
    /// closure; once `object` is gone, no closure is called.
    public func emit<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        asObservable().subscribe(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, file: file, line: line)
    }

    /// Subscribes closures (a `Signal` cannot fail, so there is no `onError`).
    public func emit(
        onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        asObservable().subscribe(
            onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, file: file, line: line)
    }

    /// Subscribes and ignores the events (keeps the `Signal`'s work running).
    public func emit(file: StaticString = #fileID, line: UInt = #line) -> Disposable {
        emit(onNext: nil, onCompleted: nil, onDisposed: nil, file: file, line: line)
    }
}
