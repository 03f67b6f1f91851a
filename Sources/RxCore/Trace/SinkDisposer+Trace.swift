extension SinkDisposer {
    /// The `owns` edges from a traced disposer to the sink and the subscription it was given.
    func traceOwnership(_ sink: Disposable, _ subscription: Disposable) {
        traceEdge(traceID, traceNodeID(of: sink), .owns)
        traceEdge(traceID, traceNodeID(of: subscription), .owns)
    }

    /// The end of a traced disposer's `dispose`: a `dispose` step before each part.
    @inline(never)
    func tracedDispose(_ sink: DisposableObject, _ subscription: DisposableObject?) {
        traceDisposeStep(traceID, sink)
        sink.dispose()
        guard let subscription else { return }
        traceDisposeStep(traceID, subscription)
        subscription.dispose()
    }
}
