import Foundation

/// Something that is both an observable and (through `asObserver()`) an observer.
public protocol SubjectType: ObservableType {
    associatedtype Observer: ObserverType
    /// The observer side.
    func asObserver() -> Observer
}

/// The subscribers of a subject, in subscription order, with cheap snapshots for dispatch.
struct ObserverList<Element> {
    typealias Handler = (Event<Element>) -> Void
    private(set) var keys: [Int] = []
    private(set) var handlers: [Handler] = []
    private var nextKey = 0

    var isEmpty: Bool { keys.isEmpty }

    mutating func insert(_ handler: @escaping Handler) -> Int {
        let key = nextKey
        nextKey += 1
        keys.append(key)
        handlers.append(handler)
        return key
    }

    mutating func remove(_ key: Int) {
        // Keys are appended in increasing order, so the list stays sorted.
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        guard low < keys.count, keys[low] == key else { return }
        keys.remove(at: low)
        handlers.remove(at: low)
    }

    mutating func removeAll() {
        keys.removeAll()
        handlers.removeAll()
    }
}

/// What a subject's subscription returns: removes the observer from the subject.
final class SubscriptionDisposable: DisposeBase, Disposable {
    private weak var owner: SubjectUnsubscribing?
    private let key: Int
    private var isDisposed = false
    private let lock = NSLock()

    init(owner: SubjectUnsubscribing, key: Int) {
        self.owner = owner
        self.key = key
        super.init(counter: .subscriptionDisposable)
    }

    func dispose() {
        lock.lock()
        let first = !isDisposed
        isDisposed = true
        let owner = self.owner
        self.owner = nil
        lock.unlock()
        guard first else { return }
        traceDisposed(traceID)
        owner?.unsubscribe(key)
    }
}

protocol SubjectUnsubscribing: TraceSelfRecording {
    func unsubscribe(_ key: Int)
}

/// Trace bookkeeping shared by subjects: the `subscribes` edge and the events they receive.
extension Observable {
    @inline(__always)
    func traceSubscribe<Observer>(_ observer: Observer) {
        if traceID != 0 {
            let observerID = traceNodeID(of: observer)
            traceStep(.subscribe, from: observerID, to: traceID, "subscribe(\(Tracing.displayID(observerID)))")
            traceEdge(observerID, traceID, .subscribes)
        }
    }

    /// The handler a subject keeps for `observer`: `observer.on` itself, or, while tracing, one
    /// that also records the delivery (`forwardOn` from the subject, the event on the observer)
    /// so sinks subscribed to a subject show what they received.
    @inline(__always)
    func tracedHandler<Observer: ObserverType>(_ observer: Observer) -> (Event<Observer.Element>) -> Void {
        guard traceID != 0, Tracing.isOn else { return observer.on }
        return makeTracedHandler(observer)
    }

    @inline(never)
    private func makeTracedHandler<Observer: ObserverType>(_ observer: Observer) -> (Event<Observer.Element>) -> Void {
        let subjectID = traceID
        let observerID = traceNodeID(of: observer)
        let recordsOwn = traceRecordsOwnEvents(observer)
        return { event in
            guard let tracer = Tracing.active else { return observer.on(event) }
            tracer.forwarded(from: subjectID, to: observerID, kind: event.traceKind, value: event.traceValue, recordEvent: !recordsOwn)
            RunContext.push(producer: 0, callSite: nil, via: observerID)
            observer.on(event)
            RunContext.pop()
        }
    }

    @inline(__always)
    func traceReceived(_ event: Event<Element>) {
        if traceID != 0, let tracer = Tracing.active {
            tracer.received(.on, node: traceID, kind: event.traceKind, value: event.traceValue, recordEvent: true)
        }
    }
}
