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
/// Not generic: each subscriber is a two-word `SubjectObserverSlot`, the observer (itself when it
/// is a class) and a deliverer, a non-generic base class whose methods take a pointer to the
/// observer's word and what it receives, so inserting, removing and walking the list in generic
/// code costs no metadata lookup (docs/architecture.md, "Generic metadata"). The subject's list
/// (and a snapshot being delivered to) holds the observer, not the disposable `subscribe`
/// returns, so the observer goes when the subject lets go of it, as in RxSwift.
struct ObserverList {
    typealias Handler = SubjectObserverSlot
    private var order = BagOrder()
    /// The observers, in delivery order.
    private(set) var handlers: [Handler] = []
    /// The deliverer of the first observer type subscribed (`SubjectDelivererOf`).
    private var keptDeliverer: SubjectDeliverer?
    private var keptDelivererType: ObjectIdentifier?

    var isEmpty: Bool { order.isEmpty }

    /// Adds `observer`; `traced`, when given, replaces its `on` (the tracing wrapper) and
    /// elements are routed through it too.
    mutating func insert<Element, Observer: ObserverType>(
        _ observer: Observer, traced: ((Event<Element>) -> Void)? = nil
    ) -> Int where Observer.Element == Element {
        let (key, index) = order.insert()
        if let traced {
            handlers.append(Self.tracedSlot(traced))
        } else {
            let deliverer = unsafeDowncast(self.deliverer(for: Observer.self), to: SubjectDelivererOf<Observer>.self)
            handlers.append(deliverer.slot(for: observer))
        }
        // A new subscriber in the free first slot: moved from the end to the front by swaps.
        var position = handlers.count - 1
        while position > index {
            handlers.swapAt(position, position - 1)
            position -= 1
        }
        return key
    }

    /// The deliverer for observers of type `Observer`: the one kept, or a new one (kept when
    /// none is; otherwise only the slots using it hold it).
    private mutating func deliverer<Observer: ObserverType>(for _: Observer.Type) -> SubjectDeliverer {
        if let deliverer = keptDeliverer, keptDelivererType == ObjectIdentifier(Observer.self) { return deliverer }
        let deliverer = Self.newDeliverer(Observer.self)
        if keptDeliverer == nil { (keptDeliverer, keptDelivererType) = (deliverer, ObjectIdentifier(Observer.self)) }
        return deliverer
    }

    /// Whether `Observer` is a class is asked here, once per deliverer, never per element.
    /// Out of line: naming a generic class looks its metadata up.
    @inline(never)
    private static func newDeliverer<Observer: ObserverType>(_: Observer.Type) -> SubjectDeliverer {
        if Observer.self is AnyObject.Type, MemoryLayout<Observer>.size == MemoryLayout<AnyObject>.size {
            return ClassObserverDeliverer<Observer>()
        }
        return BoxingDeliverer<Observer>()
    }

    @inline(never)
    private static func tracedSlot<Element>(_ traced: @escaping (Event<Element>) -> Void) -> Handler {
        let entry = TracedSubjectObserverEntry(traced)
        return Handler(observer: entry, deliverer: entry)
    }

    mutating func remove(_ key: Int) {
        if let index = order.remove(key) { handlers.removeAtOrLast(index) }
    }

    /// Sends `element` to each of `handlers` (their deliverer's `onNext`), all of which are
    /// slots of a subject of `Element`s (their deliverers are `SubjectElementDeliverer<Element>`s).
    ///
    /// Unspecialised code, as a subject's `onNext` is: the element goes on as it came (by address),
    /// with no copy and no lookup of its type, and neither the observer nor its deliverer is
    /// retained while called, since `handlers`, a snapshot the caller keeps, holds every one of
    /// them until the loop ends.
    @inline(__always)
    static func dispatch<Element>(_ element: Element, to handlers: [Handler]) {
        forEachSlot(of: handlers) { deliverer, observer in
            unsafeDowncast(deliverer, to: SubjectElementDeliverer<Element>.self).onNext(element, to: observer)
        }
    }

    /// Sends `event` to each of `handlers` (their deliverer's `deliver`).
    static func dispatch<Element>(event: Event<Element>, to handlers: [Handler]) {
        withUnsafePointer(to: event) { pointer in
            let event = UnsafeRawPointer(pointer)
            forEachSlot(of: handlers) { deliverer, observer in deliverer.deliver(event: event, to: observer) }
        }
    }

    /// Calls `body` with each slot's deliverer and the address of its `observer` word.
    @inline(__always)
    private static func forEachSlot(
        of handlers: [Handler], _ body: (SubjectDeliverer, UnsafeRawPointer) -> Void
    ) {
        handlers.withUnsafeBufferPointer { buffer in
            // Read as `Unmanaged` (plain words): read as class references, each deliverer would be
            // retained and released around its call. The observer is handed on as the address of
            // its word in the snapshot, a borrow.
            buffer.withMemoryRebound(to: UnmanagedSlot.self) { slots in
                guard let base = slots.baseAddress else { return }
                for index in 0..<slots.count {
                    let slot = base + index
                    slot.pointee.deliverer._withUnsafeGuaranteedRef { body($0, UnsafeRawPointer(slot)) }
                }
            }
        }
    }

    mutating func removeAll() {
        order.removeAll()
        handlers.removeAll()
    }
}

/// One subscriber in a subject's list: two words, where RxSwift keeps a closure in the subject's
/// `Bag` (docs/performance.md, "Bytes per subscription").
///
/// `observer` is the observer itself when its type is a class (every sink, `AnonymousObserver`),
/// so a subscription adds no object to the subject, and `deliverer` is the deliverer of that type
/// (the one the list keeps for its first observer type, shared by their slots, or the slot's
/// own). Any other observer (a struct such as `AnyObserver`, or the tracing wrapper's closure) is
/// held by an entry (`SubjectObserverEntryOf`, `TracedSubjectObserverEntry`) that is both words.
/// `observer` comes first: a deliverer is handed the slot's address as the observer's.
struct SubjectObserverSlot {
    let observer: AnyObject
    let deliverer: SubjectDeliverer
}

/// `SubjectObserverSlot` as the dispatch loop reads it: the same two words, not retained.
private struct UnmanagedSlot {
    let observer: Unmanaged<AnyObject>
    let deliverer: Unmanaged<SubjectDeliverer>
}

/// Calls the observers of one type, each given as the address of its slot's `observer` word.
class SubjectDeliverer {
    /// Calls the observer at `observer` with the `Event<Element>` at `event`.
    func deliver(event: UnsafeRawPointer, to observer: UnsafeRawPointer) {}
}

/// The deliverers of a subject of `Element`s: `onNext` takes the element itself, so the subject's
/// (unspecialised) `onNext` hands it on by address without copying it through a raw pointer,
/// which needed its type's metadata and a copy and a destroy per observer
/// (docs/performance.md, "The subject path").
class SubjectElementDeliverer<Element>: SubjectDeliverer {
    /// Calls the `onNext` of the observer at `observer`.
    func onNext(_ element: Element, to observer: UnsafeRawPointer) {}
}

/// The deliverer of observers of type `Observer`; the list keeps the one of its first observer
/// type, as `SinkRunner` keeps a sink's type: naming the generic class in a subject's
/// unspecialised `subscribe` would look its metadata up at each subscription (about 300
/// instructions). The list calls the subclass it is (`unsafeDowncast`, no check in a release build).
class SubjectDelivererOf<Observer: ObserverType>: SubjectElementDeliverer<Observer.Element> {
    /// The slot that keeps `observer`, borrowed: the class deliverer's slot retains it once, where
    /// an owned argument cost the unspecialised `insert` a copy through its value witnesses and
    /// the slot a destroy of it.
    func slot(for observer: __shared Observer) -> SubjectObserverSlot {
        preconditionFailure("SubjectDelivererOf is abstract")
    }
}

/// Observers of a class type: the slot keeps the observer itself, and `observer` points at it.
final class ClassObserverDeliverer<Observer: ObserverType>: SubjectDelivererOf<Observer> {
    override func slot(for observer: __shared Observer) -> SubjectObserverSlot {
        // `Observer` is a class (`ObserverList.newDeliverer` checked): the same word.
        SubjectObserverSlot(observer: unsafeBitCast(observer, to: AnyObject.self), deliverer: self)
    }

    // The element path touches no `Event` (docs/architecture.md, "Generic metadata").
    override func onNext(_ element: Observer.Element, to observer: UnsafeRawPointer) {
        var word = observer.load(as: UnsafeRawPointer.self)
        _withUnprotectedUnsafeMutablePointer(to: &word) { word in
            Self.onNext(element, to: &Self.observer(in: word).pointee)
        }
    }

    override func deliver(event: UnsafeRawPointer, to observer: UnsafeRawPointer) {
        let event = UnsafeMutablePointer(mutating: event.assumingMemoryBound(to: Event<Observer.Element>.self))
        var word = observer.load(as: UnsafeRawPointer.self)
        _withUnprotectedUnsafeMutablePointer(to: &word) { word in
            Self.on(&event.pointee, to: &Self.observer(in: word).pointee)
        }
    }

    /// The observer, in `word`: a copy of the reference in the snapshot's slot, not retained
    /// (the snapshot holds the observer while it is called). Called `inout` from there: read
    /// through `pointee` in unspecialised code, the observer would be copied to the stack first
    /// through its type's value witnesses (a retain and a release an element). The word is this
    /// thread's own, so two threads sending to one subject at once do not both access the
    /// snapshot's word `inout` (which ThreadSanitizer reports as a race); `_withUnprotected…`
    /// spares it a stack protector check.
    private static func observer(in word: UnsafeMutablePointer<UnsafeRawPointer>) -> UnsafeMutablePointer<Observer> {
        UnsafeMutableRawPointer(word).assumingMemoryBound(to: Observer.self)
    }

    @inline(__always)
    private static func onNext(_ element: Observer.Element, to observer: inout Observer) {
        observer.onNext(element)
    }

    @inline(__always)
    private static func on(_ event: inout Event<Observer.Element>, to observer: inout Observer) {
        observer.on(event)
    }
}

/// Observers of any other type (a struct such as `AnyObserver`): each is kept in an entry
/// (`SubjectObserverEntryOf<Observer>`), which is its slot's observer and deliverer both.
final class BoxingDeliverer<Observer: ObserverType>: SubjectDelivererOf<Observer> {
    private let entryType = SubjectObserverEntryOf<Observer>.self

    override func slot(for observer: __shared Observer) -> SubjectObserverSlot {
        let entry = entryType.init(observer)
        return SubjectObserverSlot(observer: entry, deliverer: entry)
    }
}

/// An observer that is not a class, in an object of its own: 16 bytes of header and the
/// observer. It delivers to what it holds and ignores the address it is given (its own).
final class SubjectObserverEntryOf<Observer: ObserverType>: SubjectElementDeliverer<Observer.Element> {
    private let observer: Observer

    required init(_ observer: __owned Observer) { self.observer = observer }

    override func onNext(_ element: Observer.Element, to _: UnsafeRawPointer) {
        observer.onNext(element)
    }

    override func deliver(event: UnsafeRawPointer, to _: UnsafeRawPointer) {
        observer.on(event.assumingMemoryBound(to: Event<Observer.Element>.self).pointee)
    }
}

/// The entry of an observer subscribed while tracing, its slot's observer and deliverer both:
/// the tracing wrapper (`tracedHandler`) gets every event, elements too.
final class TracedSubjectObserverEntry<Element>: SubjectElementDeliverer<Element> {
    private let traced: (Event<Element>) -> Void

    init(_ traced: @escaping (Event<Element>) -> Void) { self.traced = traced }

    override func onNext(_ element: Element, to _: UnsafeRawPointer) {
        traced(.next(element))
    }

    override func deliver(event: UnsafeRawPointer, to _: UnsafeRawPointer) {
        traced(event.assumingMemoryBound(to: Event<Element>.self).pointee)
    }
}

/// What a subject's subscription returns: removes the observer from the subject.
///
/// A weak reference to the subject and the subscriber's key: 40 bytes, a 48-byte block
/// (docs/performance.md, "The subject path"). It keeps no disposed flag, as RxSwift's keeps none:
/// keys are never reused, so a second `dispose()` finds its key gone and removes nothing. Made
/// while tracing (`make`), it is a `TracedSubscriptionDisposable`, which adds the node id and
/// records the disposal once.
class SubscriptionDisposable: Disposable, TraceIdentifiable {
    private weak var owner: SubjectUnsubscribing?
    /// The key, stored (release) after `owner` and loaded (acquire) before it: plain moves on
    /// x86 and ARM64, and the order ThreadSanitizer needs when the disposable reaches another
    /// thread through a lock it cannot see (`Synchronization.Mutex` on Linux, as `flatMap`'s list).
    private let key: Atomic<Int>

    /// The disposable of the subscriber `key` of `owner`.
    static func make(owner: SubjectUnsubscribing, key: Int) -> SubscriptionDisposable {
        let id = rxBirth(HotCount.subscriptionDisposable, .disposable, nil)
        if id == 0 { return SubscriptionDisposable(owner: owner, key: key) }
        return TracedSubscriptionDisposable(owner: owner, key: key, traceID: id)
    }

    fileprivate init(owner: SubjectUnsubscribing, key: Int) {
        self.owner = owner
        self.key = Atomic(0)
        self.key.store(key, ordering: .releasing)
    }

    // `traceID` is the subclass's while it is torn down too: its one stored word is still there.
    deinit { rxDeath(HotCount.subscriptionDisposable, traceID) }

    /// Trace node id (0 when not traced).
    var traceID: UInt64 { 0 }

    func dispose() {
        let key = key.load(ordering: .acquiring)
        owner?.unsubscribe(key)
    }
}

/// A subject's subscription made while tracing: one state word holds the disposed bit and, above
/// it, the node id, so that the disposal is recorded once.
final class TracedSubscriptionDisposable: SubscriptionDisposable {
    private let state: Atomic<UInt64>

    fileprivate init(owner: SubjectUnsubscribing, key: Int, traceID: UInt64) {
        state = Atomic(traceID << 1)
        super.init(owner: owner, key: key)
    }

    override var traceID: UInt64 { state.load(ordering: .relaxed) >> 1 }

    override func dispose() {
        let previous = state.bitwiseOr(1, ordering: .acquiringAndReleasing).oldValue
        guard previous & 1 == 0 else { return }
        traceDisposed(previous >> 1)
        super.dispose()
    }
}

protocol SubjectUnsubscribing: TraceSelfRecording {
    func unsubscribe(_ key: Int)
}
