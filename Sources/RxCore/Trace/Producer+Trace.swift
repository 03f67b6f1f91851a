extension Producer {
    /// `subscribe` while tracing: the same flow, with the steps `subscribe` and `schedule`.
    ///
    /// The nodes of a subscription (its disposers and sinks, upstream too) carry the call site
    /// of the `subscribe` that started it: the enclosing run's, else the observer's, else this
    /// operator's own.
    @inline(never)
    final func tracedSubscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let observerID = traceNodeID(of: observer)
        var site: CallSite? = nil
        if let tracer = Tracing.active {
            site = RunContext.site(tracer) ?? (observerID != 0 ? tracer.callSite(of: observerID) : nil)
        }
        site = site ?? callSite
        if traceID != 0 {
            traceStep(.subscribe, from: observerID, to: traceID, "subscribe(\(Tracing.displayID(observerID)))")
        }
        // The subscription's context (TraceContext.swift), bound while it subscribes.
        let subscription = TraceContext.subscribing(observer, observer: observerID, observable: traceID)
        if let subscription { return tracedSubscribe(observer, site: site, in: subscription) }
        if !CurrentThreadScheduler.isScheduleRequired {
            return tracedSubscribeNow(observer, site: site)
        }
        if traceID != 0 { traceStep(.schedule, from: traceID, to: 0, "CurrentThreadScheduler") }
        return CurrentThreadScheduler.instance.schedule(()) { _ in
            self.tracedSubscribeNow(observer, site: site)
        }
    }

    /// The rest of `tracedSubscribe` for a subscription that carries a context: bound while it
    /// subscribes, now or when the trampoline runs it.
    @inline(never)
    private func tracedSubscribe<Observer: ObserverType>(
        _ observer: Observer, site: CallSite?, in subscription: TraceContext.Subscription
    ) -> Disposable where Observer.Element == Element {
        if !CurrentThreadScheduler.isScheduleRequired {
            return TraceContext.subscribe(subscription) { tracedSubscribeNow(observer, site: site) }
        }
        if traceID != 0 { traceStep(.schedule, from: traceID, to: 0, "CurrentThreadScheduler") }
        let scheduled = CurrentThreadScheduler.instance.schedule(()) { _ in
            TraceContext.bound(subscription.context) { self.tracedSubscribeNow(observer, site: site) }
        }
        TraceContext.returned(subscription, scheduled)
        return scheduled
    }

    /// `subscribeNow` while tracing: the steps `init` (of the disposer), `run` and
    /// `setSinkAndSubscription`, and the run context that gives the sink its `run` edge.
    @inline(never)
    private func tracedSubscribeNow<Observer: ObserverType>(_ observer: Observer, site: CallSite?) -> Disposable
    where Observer.Element == Element {
        let disposer = SinkDisposer(callSite: site)
        let traced = traceID != 0
        if traced {
            let observerID = traceNodeID(of: observer)
            traceStep(.`init`, from: traceID, to: disposer.traceID, "SinkDisposer")
            traceStep(
                .run, from: traceID, to: traceID,
                "run(observer: \(Tracing.displayID(observerID)), cancel: \(Tracing.displayID(disposer.traceID)))")
        }
        RunContext.push(producer: traceID, callSite: site)
        let sinkAndSubscription = run(observer, cancel: disposer)
        RunContext.pop()
        if traced {
            let sinkID = traceNodeID(of: sinkAndSubscription.sink)
            let subscriptionID = traceNodeID(of: sinkAndSubscription.subscription)
            traceStep(
                .setSinkAndSubscription, from: traceID, to: disposer.traceID,
                "sink: \(Tracing.displayID(sinkID)), subscription: \(Tracing.displayID(subscriptionID))")
        }
        disposer.setSinkAndSubscription(sink: sinkAndSubscription.sink, subscription: sinkAndSubscription.subscription)
        return disposer
    }
}
