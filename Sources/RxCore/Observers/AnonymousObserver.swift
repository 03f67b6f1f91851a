/// The observer `subscribe(onNext:…)` makes: calls its closure from `onCore`.
///
/// Made by `subscribe(onNext:onError:onCompleted:onDisposed:)`, it keeps the handlers itself (no
/// closure around them) and routes each event to its handler, as RxSwift's closure does; made
/// with an event handler, `onCore` calls that. It stores only `onNext`: the rest (`onError`,
/// `onCompleted`, `onDisposed`'s disposable, the event handler, the call stack) go in a box
/// (`Handlers`) made only when one of them is given. RxSwift keeps them in one closure; here
/// `subscribe(onNext:)` costs a 48-byte block (docs/performance.md, "Bytes per subscription").
public final class AnonymousObserver<Element>: ObserverBase<Element> {
    public typealias EventHandler = (Event<Element>) -> Void

    private let nextHandler: ((Element) -> Void)?

    /// The rarely used handlers, in the observer's `ObserverExtras` box.
    final class Handlers: ObserverExtras {
        let eventHandler: EventHandler?
        let errorHandler: ((Swift.Error) -> Void)?
        let completedHandler: (() -> Void)?
        /// What `subscribe(onNext:…)` disposes after a stop event (`onDisposed`, or a no-op).
        let stopDisposable: Disposable
        let callStack: [String]

        init(
            event: EventHandler?, error: ((Swift.Error) -> Void)?, completed: (() -> Void)?,
            stop: Disposable, callStack: [String]
        ) {
            eventHandler = event
            errorHandler = error
            completedHandler = completed
            stopDisposable = stop
            self.callStack = callStack
            super.init(counter: ResourceCounter.anonymousObserver)
        }
    }

    public convenience init(_ eventHandler: @escaping EventHandler, file: StaticString = #fileID, line: UInt = #line) {
        self.init(eventHandler, callSite: CallSite(file, line))
    }

    init(_ eventHandler: @escaping EventHandler, callSite: CallSite?) {
        self.nextHandler = nil
        let handlers = Handlers(
            event: eventHandler, error: nil, completed: nil, stop: NopDisposable.noOp, callStack: []
        )
        super.init(box: handlers, callSite: callSite)
    }

    /// The observer of `subscribe(onNext:onError:onCompleted:onDisposed:)`. `onDisposed`
    /// becomes a disposable made before the observer, as RxSwift makes it.
    @usableFromInline
    init(
        onNext: ((Element) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?,
        callSite: CallSite
    ) {
        let callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        nextHandler = onNext
        if onError == nil, onCompleted == nil, onDisposed == nil, callStack.isEmpty {
            super.init(counter: CachedCounter.anonymousObserver.unmanaged, callSite: callSite)
        } else {
            // Nothing to run on dispose: not a node of its own (001's trace has none here).
            let stopDisposable =
                if let onDisposed {
                    Disposables.create(with: onDisposed, file: callSite.file, line: callSite.line)
                } else {
                    NopDisposable.noOp
                }
            let handlers = Handlers(
                event: nil, error: onError, completed: onCompleted, stop: stopDisposable, callStack: callStack
            )
            super.init(box: handlers, callSite: callSite)
        }
    }

    /// The box of handlers, when it was given any (not retained: the observer holds it).
    private var handlers: Handlers? {
        let word = state.load(ordering: .relaxed)
        guard word & observerOwnBoxFlag != 0, let box = ObserverExtras.box(word) else { return nil }
        return unsafeDowncast(box.takeUnretainedValue(), to: Handlers.self)
    }

    /// What `subscribe(onNext:…)` returns: the subscription and the `onDisposed` disposable.
    @usableFromInline
    func subscription(_ subscription: __owned Disposable, callSite: CallSite) -> Disposable {
        if let handlers { return BinaryDisposable(consume subscription, handlers.stopDisposable, callSite: callSite) }
        return BinaryDisposable(consume subscription, callSite: callSite)
    }

    public override func onNextCore(_ element: Element) {
        // `nextHandler?(…)` calls the stored closure without retaining it (`if let` would).
        if nextHandler == nil { return wrapNext(element) }
        nextHandler?(element)
    }

    // Out of line (docs/architecture.md, "Cold paths out of line").
    @inline(never)
    private func wrapNext(_ element: Element) { handlers?.eventHandler?(.next(element)) }

    public override func onCompletedCore() {
        onCore(.completed)
    }

    public override func onCore(_ event: Event<Element>) {
        guard let handlers else {
            if case .next(let element) = event { nextHandler?(element) }
            if case .error(let error) = event { Hooks.defaultErrorHandler([], error) }
            return
        }
        if let eventHandler = handlers.eventHandler {
            return eventHandler(event)
        }
        switch event {
        case .next(let element):
            nextHandler?(element)
        case .error(let error):
            if let errorHandler = handlers.errorHandler {
                errorHandler(error)
            } else {
                Hooks.defaultErrorHandler(handlers.callStack, error)
            }
            handlers.stopDisposable.dispose()
        case .completed:
            handlers.completedHandler?()
            handlers.stopDisposable.dispose()
        }
    }
}
