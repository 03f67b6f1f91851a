import Synchronization

/// Emits only the last element, and only when the source completes (then `completed`); an
/// error is passed on with no element.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, SubjectUnsubscribing {
    public typealias SubjectObserverType = AsyncSubject<Element>

    private struct State {
        var observers = ObserverList()
        var lastElement: Element?
        var stoppedEvent: Event<Element>?
    }

    private let state = Mutex(State())

    public init(file: StaticString = #fileID, line: UInt = #line) {
        super.init(kind: .subject, counter: ResourceCounter.rxAsyncSubject, callSite: CallSite(file, line))
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { state.withLock { !$0.observers.isEmpty } }

    public func on(_ event: Event<Element>) {
        traceReceived(event)
        let (handlers, events): ([ObserverList.Handler], [Event<Element>]) = state.withLock { state in
            if state.stoppedEvent != nil { return ([], []) }
            switch event {
            case .next(let element):
                state.lastElement = element
                return ([], [])
            case .error:
                state.stoppedEvent = event
                let handlers = state.observers.handlers
                state.observers.removeAll()
                return (handlers, [event])
            case .completed:
                state.stoppedEvent = event
                let handlers = state.observers.handlers
                state.observers.removeAll()
                if let last = state.lastElement { return (handlers, [.next(last), .completed]) }
                return (handlers, [.completed])
            }
        }
        // As RxSwift's AsyncSubject: the last element to every observer, then the completion to every one.
        for event in events { ObserverList.dispatch(event: event, to: handlers) }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        traceSubscribe(observer)
        let outcome: AsyncOutcome<Element> = state.withLock { state in
            if let stopped = state.stoppedEvent { return .stopped(stopped, state.lastElement) }
            return .added(state.observers.insert(observer, traced: tracedHandler(observer)))
        }
        switch outcome {
        case .added(let key):
            return SubscriptionDisposable.make(owner: self, key: key)
        case .stopped(.completed, let last):
            if let last { observer.on(.next(last)) }
            observer.on(.completed)
        case .stopped(let event, _):
            observer.on(event)
        }
        return Disposables.create()
    }

    func unsubscribe(_ key: Int) {
        state.withLock { $0.observers.remove(key) }
    }

    public func asObserver() -> AsyncSubject<Element> { self }
}

enum AsyncOutcome<Element> { case added(Int), stopped(Event<Element>, Element?) }

extension ResourceCounter {
    fileprivate static let rxAsyncSubject = named("AsyncSubject")
}
