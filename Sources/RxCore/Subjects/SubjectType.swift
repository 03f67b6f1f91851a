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
    /// Takes a pointer to the element. The array of these has a non-generic element type, so
    /// walking it in generic code needs no metadata lookup (see docs/performance.md).
    typealias NextHandler = (UnsafeRawPointer) -> Void
    private(set) var keys: [Int] = []
    private(set) var handlers: [Handler] = []
    /// The observers' `onNext`, so elements reach them without an `Event` wrapper.
    private(set) var nextHandlers: [NextHandler] = []
    private var nextKey = 0

    var isEmpty: Bool { keys.isEmpty }

    mutating func insert<Observer: ObserverType>(_ observer: Observer) -> Int where Observer.Element == Element {
        let key = nextKey
        nextKey += 1
        keys.append(key)
        handlers.append(observer.on)
        nextHandlers.append { pointer in
            observer.onNext(pointer.assumingMemoryBound(to: Element.self).pointee)
        }
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
        nextHandlers.remove(at: low)
    }

    /// Sends `element` to each of `handlers`.
    @inline(__always)
    static func dispatch(_ element: Element, to handlers: [NextHandler]) {
        withUnsafePointer(to: element) { pointer in
            let raw = UnsafeRawPointer(pointer)
            for handler in handlers { handler(raw) }
        }
    }

    mutating func removeAll() {
        keys.removeAll()
        handlers.removeAll()
        nextHandlers.removeAll()
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

protocol SubjectUnsubscribing: AnyObject {
    func unsubscribe(_ key: Int)
}

/// Trace bookkeeping shared by subjects: the `subscribes` edge and the events they receive.
extension Observable {
    @inline(__always)
    func traceSubscribe<Observer>(_ observer: Observer) {
        if traceID != 0 {
            let observerID = traceNodeID(of: observer)
            traceStep(.subscribe, from: observerID, to: traceID)
            traceEdge(observerID, traceID, .subscribes)
        }
    }

    /// `traceReceived(.next(element))`, out of line so untraced `onNext` never builds an `Event`.
    @inline(never)
    func traceReceivedNext(_ element: Element) {
        traceReceived(.next(element))
    }

    @inline(__always)
    func traceReceived(_ event: Event<Element>) {
        if traceID != 0, let tracer = Tracing.active {
            tracer.step(.on, from: 0, to: traceID, detail: event.debugDescription)
            tracer.event(node: traceID, kind: event.traceKind, value: event.traceValue)
        }
    }
}
