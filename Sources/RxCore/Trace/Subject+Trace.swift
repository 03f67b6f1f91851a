/// Trace bookkeeping shared by subjects: the `subscribes` edge and the events they receive.
extension Observable {
    @inline(__always)
    func traceSubscribe<Observer>(_ observer: Observer) {
        if traceID != 0 { tracedSubscribe(observer) }
    }

    /// `traceSubscribe` of a subject born while tracing: the context the subscriber's handler
    /// (`tracedHandler`, later in the same `subscribe`) carries, the step and the edge.
    @inline(never)
    private func tracedSubscribe<Observer>(_ observer: Observer) {
        let observerID = traceNodeID(of: observer)
        guard Tracing.isOn else { return }
        if let subscription = TraceContext.subscribing(observer, observer: observerID, observable: traceID) {
            TraceLocal.current.subscriberContext = subscription.context
        }
        // An observer that is none of the core's: its node, made with its hop, records these.
        if observerID == 0, ObserverNode.isNeeded(for: observer) { return }
        traceStep(.subscribe, from: observerID, to: traceID, .subscribe, observerID)
        traceEdge(observerID, traceID, .subscribes)
    }

    /// `traceReceived(.next(element))`, out of line (docs/architecture.md, "Cold paths out of line").
    @inline(never)
    func traceReceivedNext(_ element: Element) {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            guard Tracing.isOn, Tracing.refresh(local) else { return }
            TraceHook.receivedNext(local, .on, node: traceID, element: element, recordEvent: true)
        }
    }

    /// While tracing, the handler a subject keeps for `observer` instead of `observer.on`: it
    /// also records the delivery (`forwardOn` from the subject, the event on the observer) so
    /// sinks subscribed to a subject show what they received. Nil when not tracing.
    @inline(__always)
    func tracedHandler<Observer: ObserverType>(_ observer: Observer) -> ((Event<Observer.Element>) -> Void)? {
        guard traceID != 0, Tracing.isOn else { return nil }
        return makeTracedHandler(observer)
    }

    @inline(never)
    private func makeTracedHandler<Observer: ObserverType>(_ observer: Observer) -> (Event<Observer.Element>) -> Void {
        let local = TraceLocal.current
        var context: AnyObject? = nil
        if local.carriesContext { swap(&context, &local.subscriberContext) }
        let hop = TraceHop(node: traceID, observer: observer, sender: .subject, context: context)
        return { event in
            TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
                guard Tracing.isOn, Tracing.refresh(local) else { return observer.on(event) }
                if case .next = event, hop.leavesForwardOnToObserver(local) {
                    // The observer records this step with its own `on`.
                    hop.deliver(local, event, to: observer)
                    return assert(local.forwardingTo == 0, "an observer left a subject's forwardOn unrecorded")
                }
                if case .next(let element) = event {
                    TraceHook.forwardedNext(
                        local, from: hop.node, to: hop.target, element: element, recordEvent: hop.recordsEvent)
                } else {
                    local.tracer?.forwarded(from: hop.node, to: hop.target, event: event, recordEvent: hop.recordsEvent)
                }
                hop.deliver(local, event, to: observer)
            }
        }
    }

    @inline(__always)
    func traceReceived(_ event: Event<Element>) {
        if traceID != 0, let tracer = Tracing.active {
            tracer.received(.on, node: traceID, event: event, recordEvent: true)
        }
    }
}
