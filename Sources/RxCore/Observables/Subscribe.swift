extension ObservableType {
    /// Subscribes a closure that receives every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void, file: StaticString = #fileID, line: UInt = #line) -> Disposable {
        let observer = AnonymousObserver<Element>(on, callSite: CallSite(file, line))
        return asObservable().subscribe(observer)
    }

    /// Subscribes closures for each kind of event (step7 of 001). An error with no `onError`
    /// goes to `Hooks.defaultErrorHandler`.
    ///
    /// ```swift
    /// observable.subscribe(onNext: { text in print(text) }).disposed(by: disposeBag)
    /// ```
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        let disposable: Disposable
        if let onDisposed {
            disposable = Disposables.create(with: onDisposed, file: file, line: line)
        } else {
            // Nothing to run on dispose: not a node of its own (001's trace has none here).
            disposable = NopDisposable.noOp
        }

        let callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []

        let observer = AnonymousObserver<Element>({ event in
            switch event {
            case .next(let value):
                onNext?(value)
            case .error(let error):
                if let onError {
                    onError(error)
                } else {
                    Hooks.defaultErrorHandler(callStack, error)
                }
                disposable.dispose()
            case .completed:
                onCompleted?()
                disposable.dispose()
            }
        }, next: onNext, callSite: CallSite(file, line))
        return BinaryDisposable(asObservable().subscribe(observer), disposable, callSite: CallSite(file, line))
    }

    /// Like `subscribe(onNext:…)`, passing `object` (held weakly) to each closure; events after
    /// `object` is gone are dropped.
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
