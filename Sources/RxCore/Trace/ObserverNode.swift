/// An observer that is not one of the core's nodes (a user's own `ObserverType` class or struct,
/// a `Binder`, an `AnyObserver` around a closure) becomes a node while tracing, named by its type
/// (`MyObserver`), when a subscription takes it, so the trace shows where events end up: the
/// `forward` edge into it, the `forwardOn` calls and the events it received, and the `subscribe`
/// it came in by. The core cannot see such an object's `deinit`: the node stands for the observer
/// as the subscription holds it, and is deinitialized when the hop that delivers to it goes (the
/// sink, or the subject's entry for it).
///
/// `Producer.subscribe` makes the node before `run` (its `subscribe` step names it) and offers it
/// to the hop made during `run` for an observer of the same type (`offer`, `claim`); a hop with
/// nothing to claim makes one of its own.
enum ObserverNode {
    /// Whether `observer` is none of the core's nodes and stands for none: it needs a node of
    /// its own. (A core object born before tracing is not given one.)
    static func isNeeded(for observer: Any) -> Bool {
        let facts = TraceTypeFacts.of(observer)
        if facts.contains(.identifiable) { return false }
        if facts.contains(.standIn), let standIn = observer as? TraceStandIn { return standIn.traceTargetID == 0 }
        return true
    }

    /// A node for `observer`, named by its type.
    static func make(_ tracer: any RxTracer, for observer: Any, callSite: CallSite?) -> UInt64 {
        tracer.node(kind: .observer, type: shortTypeName(type(of: observer)), callSite: callSite)
    }

    /// What a subscription offered before this one (restored by `withdraw`).
    typealias Offer = (node: UInt64, type: UInt)

    /// Offers `node`, made for `observer`, to the hops born until `withdraw` (0: none, and an
    /// enclosing subscription's offer is not on while this one runs).
    static func offer(_ node: UInt64, for observer: Any) -> Offer {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            let previous = (local.offeredObserver, local.offeredObserverType)
            local.offeredObserver = node
            local.offeredObserverType = node != 0 ? typeKey(observer) : 0
            return previous
        }
    }

    /// The node offered for an observer of `observer`'s type, taken (nil: none).
    static func claim(_ observer: Any) -> UInt64? {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            guard local.offeredObserver != 0, local.offeredObserverType == typeKey(observer) else { return nil }
            defer { local.offeredObserver = 0 }
            return local.offeredObserver
        }
    }

    /// Ends `offer`: a node no hop took is let go at once (nothing in the trace holds it), and
    /// the enclosing offer is on again.
    static func withdraw(_ node: UInt64, restoring previous: Offer) {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            if node != 0, local.offeredObserver == node, let tracer = Tracing.active { tracer.deinitialized(node) }
            (local.offeredObserver, local.offeredObserverType) = previous
        }
    }

    private static func typeKey(_ observer: Any) -> UInt {
        UInt(bitPattern: ObjectIdentifier(type(of: observer)))
    }
}
