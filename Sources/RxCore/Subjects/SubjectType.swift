import Foundation
import Synchronization

/// Something that is both an observable and (through `asObserver()`) an observer.
public protocol SubjectType: ObservableType {
    associatedtype Observer: ObserverType
    /// The observer side.
    func asObserver() -> Observer
}

/// The subscribers of a subject, in the order RxSwift's subjects deliver to them (`BagOrder`),
/// with cheap snapshots for dispatch.
///
/// Not generic: each observer is kept as one closure that takes a pointer to what it receives
/// (an `Element`, or an `Event<Element>`), so inserting, removing and walking the list in
/// generic code costs no metadata lookup and a subscription makes one closure
/// (docs/architecture.md, "Generic metadata").
struct ObserverList {
    /// What a `Handler`'s pointer points to.
    enum Delivery {
        /// An `Element`: the observer's `onNext`.
        case element
        /// An `Event<Element>`: the observer's `on`.
        case event
    }

    /// Calls the observer's `onNext` or `on` with what the pointer points to.
    typealias Handler = (UnsafeRawPointer, Delivery) -> Void
    private var order = BagOrder()
    /// The observers, in delivery order.
    private(set) var handlers: [Handler] = []

    var isEmpty: Bool { order.isEmpty }

    /// Adds `observer`; `traced`, when given, replaces its `on` (the tracing wrapper) and
    /// elements are routed through it too.
    mutating func insert<Element, Observer: ObserverType>(
        _ observer: Observer, traced: ((Event<Element>) -> Void)? = nil
    ) -> Int where Observer.Element == Element {
        let (key, index) = order.insert()
        if let traced {
            handlers.append { pointer, delivery in
                Self.deliver(pointer, delivery, to: traced)
            }
        } else {
            // The element path touches no `Event` (docs/architecture.md, "Generic metadata").
            handlers.append { pointer, delivery in
                if delivery == .element {
                    observer.onNext(pointer.assumingMemoryBound(to: Element.self).pointee)
                } else {
                    Self.deliverEvent(pointer, to: observer)
                }
            }
        }
        // A new subscriber in the free first slot: moved from the end to the front by swaps,
        // which keep the closures as the array stores them (taken out and put back, each would
        // be wrapped in a reabstraction thunk).
        var position = handlers.count - 1
        while position > index {
            handlers.swapAt(position, position - 1)
            position -= 1
        }
        return key
    }

    @inline(never)
    private static func deliverEvent<Observer: ObserverType>(_ pointer: UnsafeRawPointer, to observer: Observer) {
        observer.on(pointer.assumingMemoryBound(to: Event<Observer.Element>.self).pointee)
    }

    @inline(never)
    private static func deliver<Element>(
        _ pointer: UnsafeRawPointer, _ delivery: Delivery, to traced: (Event<Element>) -> Void
    ) {
        switch delivery {
        case .element: traced(.next(pointer.assumingMemoryBound(to: Element.self).pointee))
        case .event: traced(pointer.assumingMemoryBound(to: Event<Element>.self).pointee)
        }
    }

    mutating func remove(_ key: Int) {
        if let index = order.remove(key) { handlers.remove(at: index) }
    }

    /// Sends `element` to each of `handlers` (their `onNext`).
    @inline(__always)
    static func dispatch<Element>(_ element: Element, to handlers: [Handler]) {
        withUnsafePointer(to: element) { pointer in
            let raw = UnsafeRawPointer(pointer)
            // Called from the buffer: the array holds each closure, so none is retained.
            handlers.withUnsafeBufferPointer { buffer in
                for index in buffer.indices { buffer[index](raw, .element) }
            }
        }
    }

    /// Sends `event` to each of `handlers` (their `on`).
    static func dispatch<Element>(event: Event<Element>, to handlers: [Handler]) {
        withUnsafePointer(to: event) { pointer in
            let raw = UnsafeRawPointer(pointer)
            for handler in handlers { handler(raw, .event) }
        }
    }

    /// Sends `event` to one handler (its `on`).
    static func send<Element>(_ event: Event<Element>, to handler: Handler) {
        withUnsafePointer(to: event) { pointer in handler(UnsafeRawPointer(pointer), .event) }
    }

    mutating func removeAll() {
        order.removeAll()
        handlers.removeAll()
    }
}

/// What a subject's subscription returns: removes the observer from the subject.
///
/// One state word holds the disposed bit and, above it, the trace node id (0 when not traced),
/// and `deinit` names its counter: 48 bytes, a 64-byte block (docs/performance.md).
final class SubscriptionDisposable: Disposable, TraceIdentifiable {
    private let state: Atomic<UInt64>
    private weak var owner: SubjectUnsubscribing?
    private let key: Int

    init(owner: SubjectUnsubscribing, key: Int) {
        self.owner = owner
        self.key = key
        state = Atomic(rxBirth(ResourceCounter.subscriptionDisposable, .disposable, nil) << 1)
    }

    deinit { rxDeath(ResourceCounter.subscriptionDisposable, traceID) }

    /// Trace node id (0 when not traced).
    var traceID: UInt64 {
        @inline(__always) get { state.load(ordering: .relaxed) >> 1 }
    }

    func dispose() {
        let previous = state.bitwiseOr(1, ordering: .acquiringAndReleasing).oldValue
        guard previous & 1 == 0 else { return }
        traceDisposed(previous >> 1)
        owner?.unsubscribe(key)
    }
}

protocol SubjectUnsubscribing: TraceSelfRecording {
    func unsubscribe(_ key: Int)
}
