import Synchronization

/// What `Producer.subscribe` returns: disposes the sink and the upstream subscription, whichever
/// of "set" and "dispose" happens first (disposal can arrive before `run` has returned).
public final class SinkDisposer: Cancelable, TraceIdentifiable {
    private struct Flags {
        static let sinkAndSubscriptionSet = 1
        static let disposed = 2
    }

    private let state = Atomic<Int>(0)
    // Written before the state's release, read after its acquire: ordered by `state`.
    @exclusivity(unchecked) private var sink: Disposable?
    @exclusivity(unchecked) private var subscription: Disposable?
    /// Trace node id (0 when not traced).
    public let traceID: UInt64

    init(callSite: CallSite?) {
        traceID = rxBirth(.sinkDisposer, .disposable, callSite)
    }

    deinit { rxDeath(.sinkDisposer, traceID) }

    public var isDisposed: Bool {
        state.load(ordering: .acquiring) & Flags.disposed != 0
    }

    func setSinkAndSubscription(sink: Disposable, subscription: Disposable) {
        self.sink = sink
        self.subscription = subscription
        if traceID != 0 {
            traceEdge(traceID, traceNodeID(of: sink), .owns)
            traceEdge(traceID, traceNodeID(of: subscription), .owns)
        }

        let previous = state.bitwiseOr(Flags.sinkAndSubscriptionSet, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Flags.sinkAndSubscriptionSet == 0, "Sink and subscription were already set")
        if previous & Flags.disposed != 0 {
            sink.dispose()
            subscription.dispose()
            self.sink = nil
            self.subscription = nil
        }
    }

    public func dispose() {
        let previous = state.bitwiseOr(Flags.disposed, ordering: .acquiringAndReleasing).oldValue
        if previous & Flags.disposed != 0 { return }
        traceDisposed(traceID)
        if previous & Flags.sinkAndSubscriptionSet != 0 {
            // Moved out rather than copied (an existential copy goes through value witnesses);
            // the fields are nil from here on.
            guard let sink = self.sink.take(), let subscription = self.subscription.take() else {
                preconditionFailure("SinkDisposer: sink and subscription not set")
            }
            traceDisposeStep(traceID, sink)
            sink.dispose()
            traceDisposeStep(traceID, subscription)
            subscription.dispose()
        }
    }
}
