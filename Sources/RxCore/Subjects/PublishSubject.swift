import Synchronization

/// Broadcasts each event to the observers subscribed at that moment; late subscribers get only
/// the terminal event.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType,
    SubjectUnsubscribing
{
    public typealias SubjectObserverType = PublishSubject<Element>

    // Guarded by `lock`. Plain stored properties rather than a `Mutex<State>`
    // (docs/architecture.md, "Generic metadata"). The fields `onNext` reads come before
    // `stoppedEvent`, whose size depends on `Element`: their offsets are then constants, where
    // after it each is read from the class's metadata (docs/performance.md, "The subject path").
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var observers = ObserverList()
    @exclusivity(unchecked) private var stopped = false
    @exclusivity(unchecked) private var disposed = false
    /// Bumped (release) when an observer is added and read (acquire) before delivering, both
    /// inside `lock`. The Mutex already orders them; this makes the order visible to
    /// ThreadSanitizer, which cannot see `Synchronization.Mutex` on Linux and would otherwise
    /// report an observer's initialisation as racing with its first delivery.
    private let published = Atomic<Int>(0)
    /// Set with `stopped` and cleared by `dispose()`; touched only on those rare paths.
    @exclusivity(unchecked) private var stoppedEvent: Event<Element>?

    public init(file: StaticString = #fileID, line: UInt = #line) {
        super.init(kind: .subject, counter: ResourceCounter.rxPublishSubject, callSite: CallSite(file, line))
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool {
        var result = false
        lock.withLock { _ in result = !observers.isEmpty }
        return result
    }

    public var isDisposed: Bool {
        var result = false
        lock.withLock { _ in result = disposed }
        return result
    }

    /// Sends `element` to every current observer.
    public func onNext(_ element: Element) {
        if traceID != 0 { traceReceivedNext(element) }
        let handlers: [ObserverList.Handler] = lock.withLock { _ in
            _ = published.load(ordering: .acquiring)
            return !disposed && !stopped ? observers.handlers : []
        }
        ObserverList.dispatch(element, to: handlers)
    }

    /// Sends `event` to every current observer; after a stop event, nothing more is sent.
    public func on(_ event: Event<Element>) {
        if case .next(let element) = event { return onNext(element) }
        traceReceived(event)
        var handlers: [ObserverList.Handler] = []
        lock.withLock { _ in
            _ = published.load(ordering: .acquiring)
            if disposed || stopped { return }
            handlers = observers.handlers
            stoppedEvent = event
            stopped = true
            observers.removeAll()
        }
        ObserverList.dispatch(event: event, to: handlers)
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        traceSubscribe(observer)
        // The common case touches no `Event` (docs/architecture.md, "Generic metadata").
        let key: Int? = lock.withLock { _ in
            if stopped || disposed { return nil }
            defer { published.wrappingAdd(1, ordering: .releasing) }
            return observers.insert(observer, traced: tracedHandler(observer))
        }
        if let key { return SubscriptionDisposable.make(owner: self, key: key) }
        return subscribeAfterStop(observer)
    }

    /// A subscriber that came after the stop event gets it; after `dispose()`, `RxError.disposed`.
    @inline(never)
    private func subscribeAfterStop<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let stoppedEvent = lock.withLock { _ in self.stoppedEvent }
        if let stoppedEvent {
            observer.on(stoppedEvent)
        } else {
            observer.on(.error(RxError.disposed(object: self)))
        }
        return Disposables.create()
    }

    func unsubscribe(_ key: Int) {
        lock.withLock { _ in observers.remove(key) }
    }

    public func asObserver() -> PublishSubject<Element> { self }

    /// Unsubscribes everyone; later subscribers get `RxError.disposed`.
    public func dispose() {
        lock.withLock { _ in
            disposed = true
            observers.removeAll()
            stoppedEvent = nil
        }
        traceDisposed(traceID)
    }
}

extension ResourceCounter {
    fileprivate static let rxPublishSubject = named("PublishSubject")
}
