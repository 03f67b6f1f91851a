/// The observer `subscribe(onNext:…)` makes: calls its closure from `onCore`.
///
/// Made by `subscribe(onNext:onError:onCompleted:onDisposed:)`, it keeps the four handlers
/// itself (no closure around them) and routes each event to its handler in `onCore`, as
/// RxSwift's closure does; made with an event handler, `onCore` calls that.
public final class AnonymousObserver<Element>: ObserverBase<Element> {
    public typealias EventHandler = (Event<Element>) -> Void

    private let eventHandler: EventHandler?
    private let nextHandler: ((Element) -> Void)?
    private let errorHandler: ((Swift.Error) -> Void)?
    private let completedHandler: (() -> Void)?
    /// What `subscribe(onNext:…)` disposes after a stop event (`onDisposed`, or a no-op).
    private let stopDisposable: Disposable
    private let callStack: [String]

    public convenience init(_ eventHandler: @escaping EventHandler, file: StaticString = #fileID, line: UInt = #line) {
        self.init(eventHandler, callSite: CallSite(file, line))
    }

    init(_ eventHandler: @escaping EventHandler, callSite: CallSite?) {
        self.eventHandler = eventHandler
        self.nextHandler = nil
        self.errorHandler = nil
        self.completedHandler = nil
        self.stopDisposable = NopDisposable.noOp
        self.callStack = []
        super.init(counter: .anonymousObserver, callSite: callSite)
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
        if let onDisposed {
            stopDisposable = Disposables.create(with: onDisposed, file: callSite.file, line: callSite.line)
        } else {
            // Nothing to run on dispose: not a node of its own (001's trace has none here).
            stopDisposable = NopDisposable.noOp
        }
        callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        eventHandler = nil
        nextHandler = onNext
        errorHandler = onError
        completedHandler = onCompleted
        super.init(counter: .anonymousObserver, callSite: callSite)
    }

    /// What `subscribe(onNext:…)` returns: the subscription and the `onDisposed` disposable.
    @usableFromInline
    func subscription(_ subscription: __owned Disposable, callSite: CallSite) -> Disposable {
        BinaryDisposable(consume subscription, stopDisposable, callSite: callSite)
    }

    public override func onNextCore(_ element: Element) {
        if eventHandler != nil {
            wrapNext(element)
        } else {
            nextHandler?(element)
        }
    }

    // Out of line (docs/architecture.md, "Cold paths out of line").
    @inline(never)
    private func wrapNext(_ element: Element) { eventHandler?(.next(element)) }

    public override func onCompletedCore() {
        if eventHandler != nil {
            onCore(.completed)
        } else {
            completedHandler?()
            stopDisposable.dispose()
        }
    }

    public override func onCore(_ event: Event<Element>) {
        if let eventHandler {
            return eventHandler(event)
        }
        switch event {
        case .next(let element):
            nextHandler?(element)
        case .error(let error):
            if let errorHandler {
                errorHandler(error)
            } else {
                Hooks.defaultErrorHandler(callStack, error)
            }
            stopDisposable.dispose()
        case .completed:
            completedHandler?()
            stopDisposable.dispose()
        }
    }
}
