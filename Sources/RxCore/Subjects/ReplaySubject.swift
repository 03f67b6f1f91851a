import Foundation

/// Replays up to `bufferSize` past elements (or all of them) to each new subscriber, then the
/// terminal event if there was one; then behaves like a `PublishSubject`.
public class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, SubjectUnsubscribing {
    public typealias SubjectObserverType = ReplaySubject<Element>

    private let lock = NSRecursiveLock()
    private var observers = ObserverList()
    private var buffer: [Element] = []
    private var head = 0
    private let bufferSize: Int?
    // Before `stoppedEvent`, whose size depends on `Element`: a constant offset (as in `PublishSubject`).
    private var disposed = false
    private var stoppedEvent: Event<Element>?

    init(bufferSize: Int?, callSite: CallSite) {
        self.bufferSize = bufferSize
        super.init(kind: .subject, counter: ResourceCounter.rxReplaySubject, callSite: callSite)
    }

    /// Replays the last `bufferSize` elements.
    public static func create(
        bufferSize: Int, file: StaticString = #fileID, line: UInt = #line
    ) -> ReplaySubject<Element> {
        precondition(bufferSize >= 0, "ReplaySubject: bufferSize can't be negative")
        return ReplaySubject(bufferSize: bufferSize, callSite: CallSite(file, line))
    }

    /// Replays every element.
    public static func createUnbounded(file: StaticString = #fileID, line: UInt = #line) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: nil, callSite: CallSite(file, line))
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

    private var replayed: ArraySlice<Element> { buffer[head...] }

    public func on(_ event: Event<Element>) {
        traceReceived(event)
        lock.lock()
        if disposed || stoppedEvent != nil {
            lock.unlock()
            return
        }
        let handlers = observers.handlers
        switch event {
        case .next(let value):
            if let bufferSize {
                if bufferSize > 0 {
                    buffer.append(value)
                    if buffer.count - head > bufferSize { head += 1 }
                    if head > 64 && head * 2 > buffer.count {
                        buffer.removeFirst(head)
                        head = 0
                    }
                }
            } else {
                buffer.append(value)
            }
        case .error, .completed:
            stoppedEvent = event
            observers.removeAll()
        }
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
        for element in replayed { observer.on(.next(element)) }
        if let stoppedEvent {
            observer.on(stoppedEvent)
            return Disposables.create()
        }
        let key = observers.insert(observer, traced: tracedHandler(observer))
        return SubscriptionDisposable.make(owner: self, key: key)
    }

    func unsubscribe(_ key: Int) {
        lock.lock(); defer { lock.unlock() }
        observers.remove(key)
    }

    public func asObserver() -> ReplaySubject<Element> { self }

    public func dispose() {
        lock.lock()
        disposed = true
        observers.removeAll()
        buffer.removeAll()
        head = 0
        stoppedEvent = nil
        lock.unlock()
        traceDisposed(traceID)
    }
}

extension ResourceCounter {
    fileprivate static let rxReplaySubject = named("ReplaySubject")
}
