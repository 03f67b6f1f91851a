import Synchronization

// A producer's `run` is generic over its observer and reached through the class's vtable, so
// it runs unspecialised: `MapSink<Int, Int, SomeObserver>` is a generic class whose metadata the
// runtime looks up in a hash table at every subscription, and passing the sink upstream looks
// up its `ObserverType` witness table the same way (together ~550 instructions per operator,
// a sixth of a `subject.map.filter.map` subscribe + dispose).
//
// A producer that subscribes again and again with the same kind of observer (the common case)
// can keep a `SinkRunner<TheSink>` instead: a small object whose class carries the sink's type
// and conformances as its generic argument, so building the sink and subscribing it reads them
// from the runner rather than looking them up. The second subscription makes the runner (a
// chain subscribed once, as many are, never pays for one); later ones with that observer type
// use it; any other observer type takes the producer's plain path.

/// A sink that a `SinkRunner` can build: the `run` of its producer, as a type.
protocol RunnableSink: ObserverType, Disposable, AnyObject {
    associatedtype Parent: AnyObject
    associatedtype Downstream: ObserverType

    // `observer` borrowed: owned, the runner would copy it first, looking `Downstream`'s type up
    // through the conformance at every run; the sink's `init` copies it with its type at hand.
    init(parent: __shared Parent, observer: __shared Downstream, cancel: __owned SinkDisposer)

    /// The observable the sink subscribes to, unretained (the parent holds it while it runs:
    /// a retain and release of a subject, whose count lives in a side table once a weak
    /// reference to it exists, are the slow kind).
    static func source(of parent: Parent) -> Unmanaged<Observable<Element>>
}

/// Builds and subscribes sinks for observers of type `Observer`.
class AnySinkRunner<Observer: ObserverType> {
    func run(
        _ parent: AnyObject, _ observer: Observer, _ cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) {
        fatalError("AnySinkRunner.run must be overridden")
    }
}

final class SinkRunner<S: RunnableSink>: AnySinkRunner<S.Downstream> {
    override func run(
        _ parent: AnyObject, _ observer: S.Downstream, _ cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) {
        let parent = unsafeDowncast(parent, to: S.Parent.self)
        let sink = S(parent: parent, observer: observer, cancel: cancel)
        let subscription = S.source(of: parent)._withUnsafeGuaranteedRef { $0.subscribe(sink) }
        return (sink: sink, subscription: subscription)
    }
}

/// A producer's runner, for the first observer type it was subscribed with (a stored `let` of
/// the producer: one word, set once).
struct SinkRunnerCache: ~Copyable {
    private final class Entry {
        let observerType: ObjectIdentifier
        let runner: AnyObject

        init(observerType: ObjectIdentifier, runner: AnyObject) {
            self.observerType = observerType
            self.runner = runner
        }
    }

    // An `Entry` retained by this cache, as its address; `none` before the first run, `ranOnce`
    // after it. Not an `AtomicLazyReference<Entry>`: that generic struct's methods run
    // unspecialised here and look up its metadata at every call.
    private let entry = Atomic<Int>(0)
    private static var none: Int { 0 }
    private static var ranOnce: Int { 1 }

    init() {}

    deinit {
        let bits = entry.load(ordering: .acquiring)
        if bits > Self.ranOnce { Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
    }

    /// Builds and subscribes the sink for `observer` through the kept runner, when it is one
    /// for observers of this type; nil otherwise.
    @inline(__always)
    func run<Observer: ObserverType>(
        _ parent: AnyObject, _ observer: Observer, _ cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable)? {
        let bits = entry.load(ordering: .acquiring)
        guard bits > Self.ranOnce else { return nil }
        // Borrowed, not retained: the cache holds the entry, and the entry its runner.
        return Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef { entry in
            guard entry.observerType == ObjectIdentifier(Observer.self) else { return nil }
            // The runner borrowed too: the entry holds it (a plain call would retain it).
            let runner = Unmanaged.passUnretained(unsafeDowncast(entry.runner, to: AnySinkRunner<Observer>.self))
            return runner._withUnsafeGuaranteedRef { $0.run(parent, observer, cancel) }
        }
    }

    /// Notes a run with sinks of type `S`; at the second, keeps a runner of them (unless
    /// one is kept already).
    @inline(__always)
    func keep<S: RunnableSink>(_ sinkType: S.Type) {
        let bits = entry.load(ordering: .relaxed)
        if bits == Self.none {
            _ = entry.compareExchange(expected: Self.none, desired: Self.ranOnce, ordering: .relaxed)
        } else if bits == Self.ranOnce {
            keepRunner(sinkType)
        }
    }

    @inline(never)
    private func keepRunner<S: RunnableSink>(_ sinkType: S.Type) {
        let fresh = Unmanaged.passRetained(
            Entry(observerType: ObjectIdentifier(S.Downstream.self), runner: SinkRunner<S>()))
        let bits = Int(bitPattern: fresh.toOpaque())
        if !entry.compareExchange(expected: Self.ranOnce, desired: bits, ordering: .acquiringAndReleasing).exchanged {
            fresh.release() // another thread kept one first
        }
    }
}
