extension Producer {
    /// `subscribe` while tracing: the same flow, with the steps `subscribe` and `schedule`.
    ///
    /// The nodes of a subscription (its disposers and sinks, upstream too) carry the call site
    /// of the `subscribe` that started it: the enclosing run's, else the observer's, else this
    /// operator's own.
    @inline(never)
    final func tracedSubscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        var observerID = traceNodeID(of: observer)
        var site: CallSite? = nil
        // An observer that is none of the core's gets a node here, for the `subscribe` to name;
        // the hop that takes it during `run` claims it (`ObserverNode`).
        var observerNode: UInt64 = 0
        if let tracer = Tracing.active {
            site = RunContext.site(tracer) ?? (observerID != 0 ? tracer.callSite(of: observerID) : nil)
            site = site ?? callSite
            if observerID == 0, ObserverNode.isNeeded(for: observer) {
                observerNode = ObserverNode.make(tracer, for: observer, callSite: site)
                observerID = observerNode
            }
        }
        site = site ?? callSite
        if traceID != 0 {
            traceStep(.subscribe, from: observerID, to: traceID, .subscribe, observerID)
        }
        // The subscription's context (TraceContext.swift), bound while it subscribes.
        let subscription = TraceContext.subscribing(observer, observer: observerID, observable: traceID)
        if let subscription {
            return tracedSubscribe(observer, site: site, observerNode: observerNode, in: subscription)
        }
        if !CurrentThreadScheduler.isScheduleRequired {
            return tracedSubscribeNow(observer, site: site, observerNode: observerNode)
        }
        if traceID != 0 { Tracing.active?.step(.schedule, from: traceID, to: 0, constant: .currentThreadScheduler) }
        return CurrentThreadScheduler.instance.schedule(()) { _ in
            self.tracedSubscribeNow(observer, site: site, observerNode: observerNode)
        }
    }

    /// The rest of `tracedSubscribe` for a subscription that carries a context: bound while it
    /// subscribes, now or when the trampoline runs it.
    @inline(never)
    private func tracedSubscribe<Observer: ObserverType>(
        _ observer: Observer, site: CallSite?, observerNode: UInt64, in subscription: TraceContext.Subscription
    ) -> Disposable where Observer.Element == Element {
        if !CurrentThreadScheduler.isScheduleRequired {
            return TraceContext.subscribe(subscription) {
                tracedSubscribeNow(observer, site: site, observerNode: observerNode)
            }
        }
        if traceID != 0 { Tracing.active?.step(.schedule, from: traceID, to: 0, constant: .currentThreadScheduler) }
        let scheduled = CurrentThreadScheduler.instance.schedule(()) { _ in
            TraceContext.bound(subscription.context) {
                self.tracedSubscribeNow(observer, site: site, observerNode: observerNode)
            }
        }
        TraceContext.returned(subscription, scheduled)
        return scheduled
    }

    /// `subscribeNow` while tracing: the steps `init` (of the disposer), `run` and
    /// `setSinkAndSubscription`, and the run context that gives the sink its `run` edge.
    @inline(never)
    private func tracedSubscribeNow<Observer: ObserverType>(
        _ observer: Observer, site: CallSite?, observerNode: UInt64
    ) -> Disposable where Observer.Element == Element {
        let disposer = SinkDisposer.make(callSite: site)
        let traced = traceID != 0
        if traced {
            let observerID = observerNode != 0 ? observerNode : traceNodeID(of: observer)
            Tracing.active?.step(.`init`, from: traceID, to: disposer.traceID, constant: .sinkDisposer)
            traceStep(.run, from: traceID, to: traceID, .run, observerID, disposer.traceID)
        }
        let offer = ObserverNode.offer(observerNode, for: observer)
        RunContext.push(producer: traceID, callSite: site)
        let sinkAndSubscription = run(observer, cancel: disposer)
        RunContext.pop()
        ObserverNode.withdraw(observerNode, restoring: offer)
        if traced {
            let sinkID = traceNodeID(of: sinkAndSubscription.sink)
            let subscriptionID = traceNodeID(of: sinkAndSubscription.subscription)
            traceStep(
                .setSinkAndSubscription, from: traceID, to: disposer.traceID, .sinkAndSubscription, sinkID,
                subscriptionID)
        }
        disposer.setSinkAndSubscription(sink: sinkAndSubscription.sink, subscription: sinkAndSubscription.subscription)
        return disposer
    }

    /// `subscribe` of a producer that delivers at once with no sink (`just`, `empty`, `never`,
    /// `error`), while tracing: the step `subscribe`, then each of `events` as an `on` call from
    /// this producer into the observer, with its event on the observer's node (one of its own
    /// for an observer that is none of the core's, let go when this returns).
    @inline(never)
    final func tracedSubscribeDelivering<Observer: ObserverType>(
        _ observer: Observer, _ events: [Event<Element>]
    ) -> Disposable where Observer.Element == Element {
        let hop = TraceHop(node: traceID, observer: observer, sender: .sink)
        traceStep(.subscribe, from: hop.target, to: traceID, .subscribe, hop.target)
        // A subscription that begins here: its events are delivered now, in the caller's context.
        _ = TraceContext.subscribing(observer, observer: hop.target, observable: traceID)
        for event in events {
            // An observer that records what it receives (`ObserverBase`) records this too.
            guard hop.recordsEvent, hop.target != 0 else {
                observer.on(event)
                continue
            }
            let local = TraceLocal.current
            if let tracer = Tracing.cachedTracer(local) {
                let value = tracer.recordsValues ? event.traceValue : nil
                tracer.step(.on, from: traceID, to: hop.target, detail: TraceEventKind.describe(event.traceKind, value))
                tracer.event(node: hop.target, kind: event.traceKind, value: value)
            }
            hop.deliver(local, event, to: observer)
        }
        return Disposables.create()
    }
}
