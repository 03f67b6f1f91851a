import Synchronization

/// What `Producer.subscribe` returns: disposes the sink and the upstream subscription, whichever
/// of "set" and "dispose" happens first (disposal can arrive before `run` has returned).
public final class SinkDisposer: Cancelable, TraceIdentifiable {
    private struct Flags {
        static let sinkAndSubscriptionSet = 1
        static let disposed = 2
        /// The trace node id sits above the two flags (0 when not traced): one word for both
        /// keeps the object at 56 bytes, a 64-byte block (docs/performance.md).
        static let idShift = 2
    }

    private let state: Atomic<Int>
    // Written before the state's release, read after its acquire: ordered by `state`. Both are
    // class existentials (16 bytes each; nil is a null pointer, with no value witnesses): the
    // sink is a class, and the subscription, whatever `subscribe` returned, is held as the
    // object it is (nil for the no-op, a box for a struct; docs/architecture.md, "Class-bound
    // disposables").
    @exclusivity(unchecked) private var sink: DisposableObject?
    @exclusivity(unchecked) private var subscription: DisposableObject?

    init(callSite: CallSite?) {
        let id = rxBirth(ResourceCounter.sinkDisposer, .disposable, callSite)
        state = Atomic(Int(truncatingIfNeeded: id) << Flags.idShift)
    }

    deinit { rxDeath(ResourceCounter.sinkDisposer, traceID) }

    /// Trace node id (0 when not traced).
    public var traceID: UInt64 {
        @inline(__always) get { UInt64(UInt(bitPattern: state.load(ordering: .relaxed)) >> Flags.idShift) }
    }

    public var isDisposed: Bool {
        state.load(ordering: .acquiring) & Flags.disposed != 0
    }

    @inline(__always)
    func setSinkAndSubscription(sink: __owned DisposableObject, subscription: __owned Disposable) {
        if traceID != 0 { traceOwnership(sink, subscription) }
        self.sink = consume sink
        self.subscription = disposableObject(consume subscription)

        let previous = state.bitwiseOr(Flags.sinkAndSubscriptionSet, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Flags.sinkAndSubscriptionSet == 0, "Sink and subscription were already set")
        if previous & Flags.disposed != 0 {
            self.sink?.dispose()
            self.subscription?.dispose()
            self.sink = nil
            self.subscription = nil
        }
    }

    public func dispose() {
        let previous = state.bitwiseOr(Flags.disposed, ordering: .acquiringAndReleasing).oldValue
        if previous & Flags.disposed != 0 { return }
        traceDisposed(traceID)
        if previous & Flags.sinkAndSubscriptionSet != 0 {
            // Moved out rather than copied; the fields hold nil from here on.
            // Set, so `sink` is there.
            let sink = self.sink.take().unsafelyUnwrapped
            let subscription = self.subscription.take()
            if traceID != 0 { return tracedDispose(sink, subscription) }
            sink.dispose()
            subscription?.dispose()
        }
    }
}

/// Moves the disposable out of `slot`, leaving a no-op in its place.
@inline(__always)
func takeDisposable(_ slot: inout Disposable) -> Disposable {
    var taken: Disposable = NopDisposable()
    swap(&taken, &slot)
    return taken
}
