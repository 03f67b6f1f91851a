import Synchronization

/// Broadcasts each event to the observers subscribed at that moment; late subscribers get only
/// the terminal event.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectUnsubscribing {
    public typealias SubjectObserverType = PublishSubject<Element>

    private struct State {
        var observers = ObserverList<Element>()
        var stoppedEvent: Event<Element>?
        var isDisposed = false
    }

    private let state = Mutex(State())

    public init(file: StaticString = #fileID, line: UInt = #line) {
        super.init(kind: .subject, counter: ResourceCounter.named("PublishSubject"), callSite: CallSite(file, line))
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { state.withLock { !$0.observers.isEmpty } }

    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// Sends `event` to every current observer; after a stop event, nothing more is sent.
    public func on(_ event: Event<Element>) {
        traceReceived(event)
        let handlers: [ObserverList<Element>.Handler] = state.withLock { state in
            if state.isDisposed || state.stoppedEvent != nil { return [] }
            let handlers = state.observers.handlers
            if event.isStopEvent {
                state.stoppedEvent = event
                state.observers.removeAll()
            }
            return handlers
        }
        for handler in handlers { handler(event) }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        traceSubscribe(observer)
        let outcome: PublishOutcome<Element> = state.withLock { state in
            if let stopped = state.stoppedEvent { return .stopped(stopped) }
            if state.isDisposed { return .disposed }
            return .added(state.observers.insert(tracedHandler(observer)))
        }
        switch outcome {
        case .added(let key):
            return SubscriptionDisposable(owner: self, key: key)
        case .stopped(let event):
            observer.on(event)
        case .disposed:
            observer.on(.error(RxError.disposed(object: self)))
        }
        return Disposables.create()
    }

    func unsubscribe(_ key: Int) {
        state.withLock { $0.observers.remove(key) }
    }

    public func asObserver() -> PublishSubject<Element> { self }

    /// Unsubscribes everyone; later subscribers get `RxError.disposed`.
    public func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.observers.removeAll()
            state.stoppedEvent = nil
        }
        traceDisposed(traceID)
    }
}

enum PublishOutcome<Element> { case added(Int), stopped(Event<Element>), disposed }
