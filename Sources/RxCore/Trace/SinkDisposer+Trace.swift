/// A `SinkDisposer` made while tracing: the node id, which the state word has no room for beside
/// the sink's pointer (its traced bit says the object is one of these).
final class TracedSinkDisposer: SinkDisposer {
    let id: UInt64

    private init(id: UInt64) {
        self.id = id
        super.init(flags: Flags.traced)
    }

    @inline(never)
    static func make(_ id: UInt64) -> SinkDisposer { TracedSinkDisposer(id: id) }
}

extension SinkDisposer {
    /// The `owns` edges from a traced disposer to the sink and the subscription it was given.
    func traceOwnership(_ sink: Disposable, _ subscription: Disposable) {
        traceEdge(traceID, traceNodeID(of: sink), .owns)
        traceEdge(traceID, traceNodeID(of: subscription), .owns)
    }

    /// A traced disposer's `dispose` after its disposed bit was set (`previous`: the state before):
    /// the disposal, then a `dispose` step before each part.
    @inline(never)
    func tracedDispose(_ previous: UInt) {
        traceDisposed(traceID)
        guard previous & Flags.sinkAndSubscriptionSet != 0 else { return }
        let (sink, subscription) = takeParts(previous)
        traceDisposeStep(traceID, sink)
        sink.dispose()
        guard let subscription else { return }
        traceDisposeStep(traceID, subscription)
        subscription.dispose()
    }
}
