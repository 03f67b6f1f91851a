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
/// Not generic: each observer is kept in a small object (`Handler`) whose method takes a pointer
/// to what it receives (an `Element`, or an `Event<Element>`), so inserting, removing and walking
/// the list in generic code costs no metadata lookup (docs/architecture.md, "Generic metadata").
/// The subject's list (and a snapshot being delivered to) holds it, not the disposable
/// `subscribe` returns, so the observer goes when the subject lets go of it, as in RxSwift.
struct ObserverList {
    typealias Handler = SubjectObserverEntry
    private var order = BagOrder()
    /// The observers, in delivery order.
    private(set) var handlers: [Handler] = []
    /// Makes the entries of the first observer type subscribed (`SubjectEntryMaker`).
    private var keptMaker: SubjectEntryMaker?
    private var keptMakerType: ObjectIdentifier?

    var isEmpty: Bool { order.isEmpty }

    /// Adds `observer`; `traced`, when given, replaces its `on` (the tracing wrapper) and
    /// elements are routed through it too.
    mutating func insert<Element, Observer: ObserverType>(
        _ observer: Observer, traced: ((Event<Element>) -> Void)? = nil
    ) -> Int where Observer.Element == Element {
        let (key, index) = order.insert()
        if let traced {
            handlers.append(Self.tracedEntry(traced))
        } else {
            let maker = unsafeDowncast(self.maker(for: Observer.self), to: SubjectEntryMakerOf<Observer>.self)
            handlers.append(maker.make(observer))
        }
        // A new subscriber in the free first slot: moved from the end to the front by swaps.
        var position = handlers.count - 1
        while position > index {
            handlers.swapAt(position, position - 1)
            position -= 1
        }
        return key
    }

    /// The maker of entries for observers of type `Observer`: the one kept, or a new one (kept
    /// when none is).
    private mutating func maker<Observer: ObserverType>(for _: Observer.Type) -> SubjectEntryMaker {
        if let maker = keptMaker, keptMakerType == ObjectIdentifier(Observer.self) { return maker }
        let maker = Self.newMaker(Observer.self)
        if keptMaker == nil { (keptMaker, keptMakerType) = (maker, ObjectIdentifier(Observer.self)) }
        return maker
    }

    // Out of line: naming a generic class looks its metadata up.
    @inline(never)
    private static func newMaker<Observer: ObserverType>(_: Observer.Type) -> SubjectEntryMaker {
        SubjectEntryMakerOf<Observer>()
    }

    @inline(never)
    private static func tracedEntry<Element>(_ traced: @escaping (Event<Element>) -> Void) -> Handler {
        TracedSubjectObserverEntry(traced)
    }

    mutating func remove(_ key: Int) {
        if let index = order.remove(key) { handlers.remove(at: index) }
    }

    /// Sends `element` to each of `handlers` (their `onNext`), all of which are entries of a
    /// subject of `Element`s (`SubjectElementEntry<Element>`).
    ///
    /// Unspecialised code, as a subject's `onNext` is: the element goes on as it came (by address),
    /// with no copy and no lookup of its type, and no entry is retained while called, since
    /// `handlers`, a snapshot the caller keeps, holds every one of them until the loop ends.
    @inline(__always)
    static func dispatch<Element>(_ element: Element, to handlers: [Handler]) {
        handlers.withUnsafeBufferPointer { buffer in
            // Read as `Unmanaged` (a plain word): read as class references, each entry would be
            // retained and released around its call.
            buffer.withMemoryRebound(to: Unmanaged<Handler>.self) { entries in
                for entry in entries {
                    entry._withUnsafeGuaranteedRef { handler in
                        unsafeDowncast(handler, to: SubjectElementEntry<Element>.self).onNext(element)
                    }
                }
            }
        }
    }

    /// Sends `event` to each of `handlers` (their `on`).
    static func dispatch<Element>(event: Event<Element>, to handlers: [Handler]) {
        withUnsafePointer(to: event) { pointer in
            let raw = UnsafeRawPointer(pointer)
            for handler in handlers { handler.deliver(event: raw) }
        }
    }

    /// Sends `event` to one handler (its `on`).
    static func send<Element>(_ event: Event<Element>, to handler: Handler) {
        withUnsafePointer(to: event) { pointer in handler.deliver(event: UnsafeRawPointer(pointer)) }
    }

    mutating func removeAll() {
        order.removeAll()
        handlers.removeAll()
    }
}

/// One observer in a subject's list: delivers to it through a method. RxSwift keeps a closure
/// in the subject's `Bag`; an object holding only the observer is 24 bytes where the closure's
/// context was 48 (docs/performance.md, "Bytes per subscription").
class SubjectObserverEntry {
    /// Calls the observer's `on` with the `Event<Element>` at `event`.
    func deliver(event: UnsafeRawPointer) {}
}

/// The entries of a subject of `Element`s: `onNext` takes the element itself, so the subject's
/// (unspecialised) `onNext` hands it on by address without copying it through a raw pointer,
/// which needed its type's metadata and a copy and a destroy per observer
/// (docs/performance.md, "The subject path").
class SubjectElementEntry<Element>: SubjectObserverEntry {
    /// Calls the observer's `onNext`.
    func onNext(_ element: Element) {}
}

final class SubjectObserverEntryOf<Observer: ObserverType>: SubjectElementEntry<Observer.Element> {
    private let observer: Observer

    required init(_ observer: Observer) { self.observer = observer }

    // The element path touches no `Event` (docs/architecture.md, "Generic metadata").
    override func onNext(_ element: Observer.Element) {
        observer.onNext(element)
    }

    override func deliver(event: UnsafeRawPointer) {
        observer.on(event.assumingMemoryBound(to: Event<Observer.Element>.self).pointee)
    }
}

/// The entry of an observer subscribed while tracing: the tracing wrapper (`tracedHandler`)
/// gets every event, elements too.
final class TracedSubjectObserverEntry<Element>: SubjectElementEntry<Element> {
    private let traced: (Event<Element>) -> Void

    init(_ traced: @escaping (Event<Element>) -> Void) { self.traced = traced }

    override func onNext(_ element: Element) {
        traced(.next(element))
    }

    override func deliver(event: UnsafeRawPointer) {
        traced(event.assumingMemoryBound(to: Event<Element>.self).pointee)
    }
}

/// Makes a subject's entries for observers of one type. A subject's `subscribe` runs
/// unspecialised, where naming `SubjectObserverEntryOf<Observer>` looks its metadata up in the
/// runtime's cache (about 300 instructions); a subject keeps the maker of its first observer
/// type, which keeps the entry's type at hand, as `SinkRunner` keeps a sink's
/// (docs/architecture.md, "Generic metadata").
///
/// The list keeps it as this base class and calls the `SubjectEntryMakerOf<Observer>` it is
/// (`unsafeDowncast`, no check or lookup in a release build), whose `make` takes the observer
/// itself: passing it through a raw pointer went through the unspecialised `withUnsafePointer`.
class SubjectEntryMaker {}

final class SubjectEntryMakerOf<Observer: ObserverType>: SubjectEntryMaker {
    private let entryType = SubjectObserverEntryOf<Observer>.self

    /// An entry for `observer`.
    func make(_ observer: Observer) -> SubjectObserverEntry {
        entryType.init(observer)
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
