extension ObservableType {
    /// Subscribes a closure that receives every event.
    public func subscribe(
        _ on: @escaping (Event<Element>) -> Void, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        let observer = AnonymousObserver<Element>(on, callSite: CallSite(file, line))
        return asObservable().subscribe(observer)
    }

    /// Subscribes closures for each kind of event (step7 of 001). An error with no `onError`
    /// goes to `Hooks.defaultErrorHandler`.
    ///
    /// ```swift
    /// observable.subscribe(onNext: { text in print(text) }).disposed(by: disposeBag)
    /// ```
    @inlinable
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        // Inlinable, so the caller's module names `AnonymousObserver<Element>` for a concrete
        // `Element` (docs/architecture.md, "Generic metadata").
        let callSite = CallSite(file, line)
        let observer = AnonymousObserver<Element>(
            onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed, callSite: callSite
        )
        return observer.subscription(asObservable().subscribe(observer), callSite: callSite)
    }

    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] in
                guard let object else { return }
                onNext?(object, $0)
            },
            onError: { [weak object] in
                guard let object else { return }
                onError?(object, $0)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            },
            file: file, line: line
        )
    }
}
