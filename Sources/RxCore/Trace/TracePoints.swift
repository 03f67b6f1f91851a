// The trace hooks the core calls at its trace points: each costs one branch while no tracer
// is installed (docs/architecture.md, "Where tracing hooks in").

/// A node without a call site of its own, born inside a subscription (`run`, or an event a
/// traced sink is forwarding), takes the subscription's call site.
@inline(never)
func tracedBirth(
    _ tracer: any RxTracer, _ counter: ResourceCounter, _ kind: TraceNodeKind, _ callSite: CallSite?
) -> UInt64 {
    var site = callSite
    if site == nil, kind != .producer, kind != .observable, kind != .subject {
        site = RunContext.site(tracer)
    }
    return tracer.node(kind: kind, type: counter.name, callSite: site)
}

/// Records `call` from `caller` to `callee` when tracing. The node arguments are evaluated only
/// then: finding a node id is a dynamic cast, which must cost nothing when tracing is off.
@inline(__always)
func traceStep(
    _ call: TraceCall, from caller: @autoclosure () -> UInt64, to callee: @autoclosure () -> UInt64,
    _ detail: @autoclosure () -> String? = nil
) {
    if let tracer = Tracing.active { tracer.step(call, from: caller(), to: callee(), detail: detail()) }
}

/// Records `dispose` from `owner` to `member` when tracing and `member` is a node. `member` is
/// evaluated only then: wrapping a disposable in `Any` copies it.
@inline(__always)
func traceDisposeStep(_ owner: UInt64, _ member: @autoclosure () -> Any) {
    if owner != 0, let tracer = Tracing.active {
        let id = traceNodeID(of: member())
        if id != 0 { tracer.step(.dispose, from: owner, to: id, constant: .none) }
    }
}

@inline(__always)
func traceEdge(_ from: UInt64, _ to: @autoclosure () -> UInt64, _ relation: TraceRelation) {
    if from != 0, let tracer = Tracing.active {
        let to = to()
        if to != 0 { tracer.edge(from: from, to: to, relation: relation) }
    }
}

@inline(__always)
func traceDisposed(_ id: UInt64) {
    if id != 0, let tracer = Tracing.active { tracer.disposed(id) }
}
