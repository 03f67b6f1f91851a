import Foundation

/// Holds a current value: each new subscriber gets it first, then every later event.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable,
    SubjectUnsubscribing
{
    public typealias SubjectObserverType = BehaviorSubject<Element>

    // Recursive: a subscriber's first value is sent while subscribing, and its handler may
    // send to this subject again, as RxSwift allows.
    private let lock = NSRecursiveLock()
    private var observers = ObserverList()
    // Before the fields whose size depends on `Element`, so that their offsets are constants
    // (as in `PublishSubject`).
    private var stopped = false
    private var disposed = false
    private var element: Element
    private var stoppedEvent: Event<Element>?

    /// A subject whose current value is `value`.
    public init(value: Element, file: StaticString = #fileID, line: UInt = #line) {
        self.element = value
        super.init(kind: .subject, counter: ResourceCounter.rxBehaviorSubject, callSite: CallSite(file, line))
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool {
        lock.lock(); defer { lock.unlock() }
        return !observers.isEmpty
    }

    public var isDisposed: Bool {
        lock.lock(); defer { lock.unlock() }
        return disposed
    }

    /// The current value; throws the error it failed with, or `RxError.disposed`.
    public func value() throws -> Element {
        lock.lock(); defer { lock.unlock() }
        if disposed { throw RxError.disposed(object: self) }
        if let error = stoppedEvent?.error { throw error }
        return element
    }

    public func onNext(_ element: Element) {
        if traceID != 0 { traceReceivedNext(element) }
        lock.lock()
        if disposed || stopped {
            lock.unlock()
            return
        }
        let handlers = observers.handlers
        self.element = element
        lock.unlock()
        ObserverList.dispatch(element, to: handlers)
    }

    public func on(_ event: Event<Element>) {
        if case .next(let element) = event { return onNext(element) }
        traceReceived(event)
        lock.lock()
        if disposed || stoppedEvent != nil {
            lock.unlock()
            return
        }
        let handlers = observers.handlers
        stoppedEvent = event
        stopped = true
        observers.removeAll()
        lock.unlock()
        ObserverList.dispatch(event: event, to: handlers)
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        traceSubscribe(observer)
        lock.lock(); defer { lock.unlock() }
        if disposed {
            observer.on(.error(RxError.disposed(object: self)))
            return Disposables.create()
        }
        if let stoppedEvent {
            observer.on(stoppedEvent)
            return Disposables.create()
        }
        let key = observers.insert(observer, traced: tracedHandler(observer))
        observer.on(.next(element))
        return SubscriptionDisposable.make(owner: self, key: key)
    }

    func unsubscribe(_ key: Int) {
        lock.lock(); defer { lock.unlock() }
        observers.remove(key)
    }

    public func asObserver() -> BehaviorSubject<Element> { self }

    public func dispose() {
        lock.lock()
        disposed = true
        observers.removeAll()
        stoppedEvent = nil
        stopped = false
        lock.unlock()
        traceDisposed(traceID)
    }
}

extension ResourceCounter {
    fileprivate static let rxBehaviorSubject = named("BehaviorSubject")
}
