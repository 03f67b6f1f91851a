extension ObservableType {
    /// Sends every event to `observers` (RxCocoa's `bind(to:)`).
    ///
    /// ```swift
    /// names.bind(to: label.rx.text, logger)
    /// ```
    public func bind<Observer: ObserverType>(
        to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element {
        subscribe({ event in observers.forEach { $0.on(event) } }, file: file, line: line)
    }

    /// Sends every event, elements as optionals, to `observers`.
    public func bind<Observer: ObserverType>(
        to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element? {
        subscribe({ event in observers.forEach { $0.on(event.map { $0 }) } }, file: file, line: line)
    }

    /// Accepts every element into `relays`. Relays cannot fail: an error traps in debug builds.
    public func bind(
        to relays: PublishRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Accepts every element, as an optional, into `relays`.
    public func bind(
        to relays: PublishRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Accepts every element into `relays`.
    public func bind(
        to relays: BehaviorRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Accepts every element, as an optional, into `relays`.
    public func bind(
        to relays: BehaviorRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Accepts every element into `relays`.
    public func bind(
        to relays: ReplayRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Accepts every element, as an optional, into `relays`.
    public func bind(
        to relays: ReplayRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Hands the sequence to `binder` (a function of it) and returns what it returns.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Hands the sequence and `curriedArgument` to a curried `binder`.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes `onNext`; an error traps in debug builds (bindings must not fail).
    public func bind(
        onNext: @escaping (Element) -> Void, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        subscribe(
            onNext: onNext, onError: { error in rxFatalErrorInDebug("Binding error: \(error)") }, file: file, line: line
        )
    }

    /// Like `bind(onNext:)`, passing `object` (held weakly).
    public func bind<Object: AnyObject>(
        with object: Object, onNext: @escaping (Object, Element) -> Void, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        subscribe(
            with: object, onNext: onNext, onError: { _, error in rxFatalErrorInDebug("Binding error: \(error)") },
            file: file, line: line)
    }

    private func bindRelays(
        file: StaticString = #fileID, line: UInt = #line, _ accept: @escaping (Element) -> Void
    ) -> Disposable {
        subscribe(
            { event in
                switch event {
                case .next(let element): accept(element)
                case .error(let error): rxFatalErrorInDebug("Binding error to relay: \(error)")
                case .completed: break
                }
            }, file: file, line: line)
    }
}
