/// An observable that makes a fresh `Sink` for each subscriber (step6 of 001).
///
/// `subscribe` goes through the `CurrentThreadScheduler` trampoline, creates a `SinkDisposer`,
/// asks the subclass to `run` (which builds the sink and subscribes upstream), then hands the
/// sink and the upstream subscription to the disposer.
open class Producer<Element>: Observable<Element> {
    /// Where the operator was written, for traces.
    public let callSite: CallSite?

    public init(counter: __shared ResourceCounter? = nil, callSite: CallSite? = nil) {
        self.callSite = callSite
        super.init(kind: .producer, counter: counter, callSite: callSite)
    }

    open override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        if Tracing.isOn { return tracedSubscribe(observer) }
        // `CurrentThreadScheduler.isScheduleRequired`, with one read of the thread's trampoline.
        let trampoline = CurrentThreadScheduler.currentTrampoline
        if trampoline.isRunning {
            return subscribeNow(observer)
        } else {
            // `schedule`, minus the escaping closure: the trampoline runs this first, at once.
            return CurrentThreadScheduler.start(trampoline) { subscribeNow(observer) }
        }
    }

    @inline(__always)
    private func subscribeNow<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        // The returned disposable needs to release all references once it was disposed.
        let disposer = SinkDisposer(callSite: callSite)
        let (sink, subscription) = run(observer, cancel: disposer)
        // Handed over, not copied (an existential copy goes through value witnesses).
        disposer.setSinkAndSubscription(sink: consume sink, subscription: consume subscription)
        return disposer
    }

    /// `subscribe` while tracing: the same flow, with the steps `subscribe` and `schedule`.
    ///
    /// The nodes of a subscription (its disposers and sinks, upstream too) carry the call site
    /// of the `subscribe` that started it: the enclosing run's, else the observer's, else this
    /// operator's own.
    @inline(never)
    private func tracedSubscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
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
        if !CurrentThreadScheduler.isScheduleRequired {
            return tracedSubscribeNow(observer, site: site)
        }
        if traceID != 0 { traceStep(.schedule, from: traceID, to: 0, "CurrentThreadScheduler") }
        return CurrentThreadScheduler.instance.schedule(()) { _ in
            self.tracedSubscribeNow(observer, site: site)
        }
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

    /// Builds the sink for `observer` and subscribes it upstream (step5 of 001).
    open func run<Observer: ObserverType>(
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        fatalError("Producer.run must be overridden by \(type(of: self))")
    }
}

/// While a producer runs, which producer it is and the call site of the subscription: sinks
/// born inside `run` take that call site and get their `run` edge from the producer. While a
/// traced sink forwards an event, a frame naming the sink (`via`), so that nodes born while the
/// event is handled (the inner subscriptions of `flatMap` & co.) take the sink's call site.
/// Touched only when tracing is on.
enum RunContext {
    struct Frame {
        var producer: UInt64
        var callSite: CallSite?
        var via: UInt64
        /// A delivery frame (counted in `TraceLocal.deliveries`).
        var delivery = false
    }

    // The frames live in this thread's `TraceLocal`, with the rest of its trace state.

    /// A producer's `run` starts.
    static func push(producer: UInt64, callSite: CallSite?) {
        push(TraceLocal.current, Frame(producer: producer, callSite: callSite, via: 0))
    }

    /// A traced delivery starts (a sink's `forwardOn`, a subject delivering to `via`).
    static func push(producer: UInt64, callSite: CallSite?, via: UInt64) {
        pushDelivery(TraceLocal.current, via: via)
    }

    /// `push(producer: 0, callSite: nil, via:)` given this thread's state.
    @inline(__always)
    static func pushDelivery(_ local: TraceLocal, via: UInt64) {
        local.deliveries += 1
        push(local, Frame(producer: 0, callSite: nil, via: via, delivery: true))
    }

    @inline(__always)
    static func push(_ local: TraceLocal, _ frame: Frame) {
        if local.frameDepth == local.frameCapacity { grow(local) }
        (local.frames + local.frameDepth).initialize(to: frame)
        local.frameDepth += 1
    }

    @inline(never)
    private static func grow(_ local: TraceLocal) {
        let frames = UnsafeMutablePointer<Frame>.allocate(capacity: local.frameCapacity * 2)
        frames.moveInitialize(from: local.frames, count: local.frameDepth)
        local.frames.deallocate()
        local.frames = frames
        local.frameCapacity *= 2
    }

    static func pop() { pop(TraceLocal.current) }

    @inline(__always)
    static func pop(_ local: TraceLocal) {
        guard local.frameDepth > 0 else { return }
        local.frameDepth -= 1
        if local.frames[local.frameDepth].delivery { local.deliveries -= 1 }
    }

    static var current: Frame? {
        guard let local = TraceLocal.existing, local.frameDepth > 0 else { return nil }
        return local.frames[local.frameDepth - 1]
    }

    /// The call site of the subscription being made or served on this thread, if any.
    static func site(_ tracer: any RxTracer) -> CallSite? {
        guard let frame = current else { return nil }
        if let site = frame.callSite { return site }
        return frame.via != 0 ? tracer.callSite(of: frame.via) : nil
    }
}
