import Synchronization

/// What `Producer.subscribe` returns: disposes the sink and the upstream subscription, whichever
/// of "set" and "dispose" happens first (disposal can arrive before `run` has returned).
///
/// 40 bytes, a 48-byte block (docs/performance.md, "Bytes per subscription"): the sink is kept as
/// a retained pointer in the state word, above the flags (objects are 16-byte aligned). A
/// disposer made while tracing is a `TracedSinkDisposer`, which adds the node id.
public class SinkDisposer: Cancelable, TraceIdentifiable {
    struct Flags {
        static let sinkAndSubscriptionSet: UInt = 1
        static let disposed: UInt = 2
        /// The object is a `TracedSinkDisposer`.
        static let traced: UInt = 4
        /// The bits below the sink's pointer.
        static let all: UInt = 15
    }

    /// The flags, and above them, once set and until disposed, the sink (retained).
    private let state: Atomic<UInt>
    // Written before the state's release, read after its acquire: ordered by `state`. Whatever
    // `subscribe` returned, held as the object it is: nil for the no-op, a box for a struct
    // (docs/architecture.md, "Class-bound disposables").
    @exclusivity(unchecked) private var subscription: DisposableObject?

    /// A new disposer, counted (and given a node while tracing).
    @inline(__always)
    static func make(callSite: CallSite?) -> SinkDisposer {
        let id = rxBirth(HotCount.sinkDisposer, .disposable, callSite)
        if id == 0 { return SinkDisposer(flags: 0) }
        return TracedSinkDisposer.make(id)
    }

    init(flags: UInt) { state = Atomic(flags) }

    deinit {
        // Set and never disposed (a sink that does not hold its disposer): the sink is still ours.
        let sink = state.load(ordering: .relaxed) & ~Flags.all
        if sink != 0 { Unmanaged<SinkBase>.fromOpaque(UnsafeRawPointer(bitPattern: sink)!).release() }
        rxDeath(HotCount.sinkDisposer, traceID)
    }

    /// Trace node id (0 when not traced).
    public final var traceID: UInt64 {
        @inline(__always) get {
            if state.load(ordering: .relaxed) & Flags.traced == 0 { return 0 }
            return unsafeDowncast(self, to: TracedSinkDisposer.self).id
        }
    }

    public final var isDisposed: Bool {
        state.load(ordering: .acquiring) & Flags.disposed != 0
    }

    @inline(__always)
    final func setSinkAndSubscription(sink: __owned DisposableObject, subscription: __owned Disposable) {
        if state.load(ordering: .relaxed) & Flags.traced != 0 { traceOwnership(sink, subscription) }
        self.subscription = disposableObject(consume subscription)
        let sinkBits = UInt(bitPattern: Unmanaged.passRetained(sinkBase(consume sink)).toOpaque())

        let previous = state.bitwiseOr(sinkBits | Flags.sinkAndSubscriptionSet, ordering: .acquiringAndReleasing)
            .oldValue
        precondition(previous & Flags.sinkAndSubscriptionSet == 0, "Sink and subscription were already set")
        if previous & Flags.disposed != 0 {
            let (sink, subscription) = takeParts(previous | sinkBits)
            sink.dispose()
            subscription?.dispose()
        }
    }

    public final func dispose() {
        let previous = state.bitwiseOr(Flags.disposed, ordering: .acquiringAndReleasing).oldValue
        // Half the calls find it disposed (the sink's `dispose` calls back here): they return
        // before any register is saved for the rest, which is out of line.
        if previous & Flags.disposed != 0 { return }
        disposeParts(previous)
    }

    @inline(never)
    private final func disposeParts(_ previous: UInt) {
        if previous & Flags.traced != 0 { return tracedDispose(previous) }
        if previous & Flags.sinkAndSubscriptionSet != 0 {
            let (sink, subscription) = takeParts(previous)
            sink.dispose()
            // Borrowed from the local that owns it (`subscription?.dispose()` would copy it).
            if let subscription { subscription.dispose() }
        }
    }

    /// Moves the sink and the subscription out, once set and disposed (`previous`: the state with
    /// the sink in it). Only the one call that saw both bits gets here, so a plain store
    /// clears the word: any other change to it now can only set bits that are already set.
    @inline(__always)
    final func takeParts(_ previous: UInt) -> (sink: SinkBase, subscription: DisposableObject?) {
        state.store(previous & Flags.all | Flags.sinkAndSubscriptionSet | Flags.disposed, ordering: .relaxed)
        let sink = UnsafeRawPointer(bitPattern: previous & ~Flags.all).unsafelyUnwrapped
        return (Unmanaged<SinkBase>.fromOpaque(sink).takeRetainedValue(), subscription.take())
    }
}

/// `sink` as a `SinkBase`: itself when it is one, recognised by its `Disposable` witness table
/// (every sink has `SinkBase`'s; a pointer compare where a cast would look the conformance up,
/// about 1,270 instructions), else in a box (a user's `run` that returns another class).
@inline(__always)
private func sinkBase(_ sink: __owned DisposableObject) -> SinkBase {
    let (object, table) = unsafeBitCast(sink, to: (UnsafeRawPointer, UnsafeRawPointer).self)
    // The table a `SinkBase` reference gets as a `DisposableObject`: a constant (a metatype
    // would call `SinkBase`'s metadata accessor first).
    let sinkTable = Unmanaged<SinkBase>.fromOpaque(object)._withUnsafeGuaranteedRef {
        unsafeBitCast($0 as DisposableObject, to: (UnsafeRawPointer, UnsafeRawPointer).self).1
    }
    if table != sinkTable { return ForeignSink.make(sink) }
    return unsafeDowncast(sink as AnyObject, to: SinkBase.self)
}

/// A sink that is not a `SinkBase`, held so that a `SinkDisposer` keeps one kind of object. Not
/// counted in `Resources` (RxSwift makes no such object); the trace sees the sink inside.
final class ForeignSink: SinkBase, TraceStandIn {
    private let sink: DisposableObject

    private init(_ sink: __owned DisposableObject) {
        self.sink = sink
        super.init()
    }

    @inline(never)
    static func make(_ sink: __owned DisposableObject) -> SinkBase { ForeignSink(sink) }

    override func dispose() { sink.dispose() }

    var traceTargetID: UInt64 { traceNodeID(of: sink) }
    var traceTargetRecordsOwnEvents: Bool { false }
}

/// Moves the disposable out of `slot`, leaving a no-op in its place.
@inline(__always)
func takeDisposable(_ slot: inout Disposable) -> Disposable {
    var taken: Disposable = NopDisposable()
    swap(&taken, &slot)
    return taken
}
