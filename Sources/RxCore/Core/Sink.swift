import Synchronization

// The bits of `Sink.flags`. Constants at file level: a static property of a generic class is
// a call into the class's code (it takes the class's metadata), even for a literal.
private let sinkDisposedFlag: UInt8 = 1
private let sinkTracedFlag: UInt8 = 2
private let sinkStoppedFlag: UInt8 = 4

/// The per-subscription worker of a `Producer` (step8 of 001): holds the downstream observer,
/// forwards events to it with `forwardOn` until disposed, and disposes its `cancel` when done.
///
/// A sink that observes upstream implements `ObserverType`'s two entry points one way:
/// `onNext(_:)` does the work for an element, and `on(_:)` hands `.next(element)` to `onNext`
/// and itself handles only the end of the sequence (`.error`, `.completed`). A sink whose work
/// is on whole events (queueing them, printing them) implements `on` alone.
open class Sink<Observer: ObserverType>: Disposable, TraceIdentifiable {
    /// Downstream.
    public let observer: Observer
    /// The `SinkDisposer` of this subscription.
    public let cancel: Cancelable
    /// `sinkDisposedFlag` once disposed, `sinkStoppedFlag` once a sink that stops (`create`'s) got its
    /// stop event, plus `sinkTracedFlag` for a traced sink (set in `init`): one load tells the
    /// element path that it can go straight on.
    private let flags: Atomic<UInt8>
    // Not retained: counters live as long as the process (the registry holds them).
    let resourceCounter: Unmanaged<ResourceCounter>
    /// Trace node id (0 when not traced).
    public let traceID: UInt64
    private let observerTraceID: UInt64
    /// True when the observer records the events it receives itself.
    private let observerRecordsEvents: Bool
    /// The thread inside `forwardOn` (0: none). Used only by traced sinks, to see concurrent
    /// and re-entrant `on` calls into the observer.
    private let forwarding = Atomic<UInt>(0)

    // `__owned`: the caller hands over its copies, so storing them moves rather than copies
    // (an existential or generic copy goes through value witnesses).
    public init(observer: __owned Observer, cancel: __owned Cancelable, counter: __shared ResourceCounter? = nil) {
        let counter = counter ?? ResourceCounter.named("Sink")
        self.resourceCounter = Unmanaged.passUnretained(counter)
        if Tracing.isOn {
            let context = RunContext.current
            let id = rxBirth(counter, .sink, nil)
            let downstream = traceNodeID(of: observer)
            self.traceID = id
            self.observerTraceID = downstream
            self.observerRecordsEvents = traceRecordsOwnEvents(observer)
            if let producer = context?.producer, producer != 0 {
                traceStep(.`init`, from: producer, to: id)
                traceEdge(producer, id, .run)
            }
            traceEdge(id, downstream, .forward)
            self.flags = Atomic(id != 0 ? sinkTracedFlag : 0)
        } else {
            counter.increment()
            self.traceID = 0
            self.observerTraceID = 0
            self.observerRecordsEvents = false
            self.flags = Atomic(0)
        }
        self.observer = consume observer
        self.cancel = consume cancel
    }

    deinit { rxDeath(resourceCounter, traceID) }

    /// Sends `event` downstream unless this sink was disposed (step9 of 001).
    @inline(__always)
    public final func forwardOn(_ event: Event<Observer.Element>) {
        let state = flags.load(ordering: .relaxed)
        if state != 0 {
            if state & sinkDisposedFlag != 0 { return }
            #if !RX_NO_TRACE
            if state & sinkTracedFlag != 0 { return tracedForwardOn(event) }
            #endif
        }
        observer.on(event)
    }

    /// `forwardOn(.next(element))` without building the `Event`: the hot path of every sink.
    @inline(__always)
    public final func forwardNext(_ element: Observer.Element) {
        let state = flags.load(ordering: .relaxed)
        if state != 0 {
            if state & sinkDisposedFlag != 0 { return }
            #if !RX_NO_TRACE
            if state & sinkTracedFlag != 0 { return tracedForwardNext(element) }
            #endif
        }
        observer.onNext(element)
    }

    /// The `onNext` of a sink that stops at its first stop event and records its own events
    /// when traced (`create`'s): drops the element once stopped or disposed, else forwards it;
    /// traced, its `on` and this `forwardOn` are one record.
    @inline(__always)
    final func receiveAndForwardNext(_ element: Observer.Element) {
        if flags.load(ordering: .relaxed) != 0 { return receiveAndForwardNextFlagged(element) }
        observer.onNext(element)
    }

    // Out of line, so the element path sets up nothing for it.
    @inline(never)
    private func receiveAndForwardNextFlagged(_ element: Observer.Element) {
        #if !RX_NO_TRACE
        let state = flags.load(ordering: .relaxed)
        if state & sinkTracedFlag != 0 { tracedReceiveAndForwardNext(element, stopped: state & sinkStoppedFlag != 0) }
        #endif
    }

    /// Marks a sink that stops at its first stop event as stopped; true for the call that did.
    final func stop() -> Bool {
        flags.bitwiseOr(sinkStoppedFlag, ordering: .acquiringAndReleasing).oldValue & sinkStoppedFlag == 0
    }

    /// Whether `stop()` was called.
    final var isStopped: Bool {
        @inline(__always) get { flags.load(ordering: .relaxed) & sinkStoppedFlag != 0 }
    }

    /// `forwardOn(.error(error))` then `dispose()`: the failure path of a transform, kept out
    /// of line so the element path never sets up an `Event`.
    @inline(never)
    public final func forwardErrorAndDispose(_ error: Swift.Error) {
        forwardOn(.error(error))
        dispose()
    }

    /// `forwardOn(.completed)` then `dispose()`, kept out of line so that a caller that ends
    /// only sometimes never sets up an `Event` (whose metadata would be looked up per call).
    @inline(never)
    public final func forwardCompletedAndDispose() {
        forwardOn(.completed)
        dispose()
    }

    /// `tracedForwardOn(.next(element))` without building the `Event` (whose generic metadata
    /// would be looked up at every element).
    @inline(never)
    private func tracedForwardNext(_ element: Observer.Element) {
        // This thread's trace state, looked up once for the tracer and the run context, and
        // not retained (it lives as long as the thread).
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            guard Tracing.isOn, Tracing.refresh(local) else {
                observer.onNext(element)
                return
            }
            TraceHook.forwardedNext(
                local, from: traceID, to: observerTraceID, element: element, recordEvent: !observerRecordsEvents)
            deliverTraced(local, element)
        }
    }

    /// The `on(.next(element))` of a sink that records its own events (`create`'s), then its
    /// `forwardNext(element)`, while traced: one record for both (nothing can happen between
    /// them on this thread), then the delivery.
    @inline(never)
    final func tracedReceiveAndForwardNext(_ element: Observer.Element, stopped: Bool) {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            let wasDisposed = isDisposed
            guard Tracing.isOn, Tracing.refresh(local) else {
                if !wasDisposed && !stopped { observer.onNext(element) }
                return
            }
            if wasDisposed || stopped {
                TraceHook.receivedNext(local, .on, node: traceID, element: element, recordEvent: true)
                return
            }
            TraceHook.receivedAndForwardedNext(
                local, node: traceID, to: observerTraceID, element: element, recordEvent: !observerRecordsEvents)
            deliverTraced(local, element)
        }
    }

    /// `observer.onNext(element)` inside a traced delivery: the `on` checks and the run context.
    @inline(__always)
    private func deliverTraced(_ local: TraceLocal, _ element: Observer.Element) {
        let entered = enterForwarding(local)
        if !entered { overlapped(local, element) }
        RunContext.pushDelivery(local, via: observerTraceID != 0 ? observerTraceID : traceID)
        observer.onNext(element)
        RunContext.pop(local)
        if entered { forwarding.store(0, ordering: .relaxed) }
    }

    /// Marks this thread as inside `forwardOn`; records `reentrantOn` or `concurrentOn` when
    /// another delivery is under way. True when this call entered (and must leave).
    ///
    /// A load and a store rather than a compare-and-exchange (which cost as much as the rest of
    /// a hop's bookkeeping): a delivery that starts while another is under way is always seen;
    /// two that start within the same few instructions on two threads may not be. Deliveries
    /// ordered by a lock or a serial queue never look concurrent (the lock orders the stores).
    @inline(__always)
    private func enterForwarding(_ local: TraceLocal) -> Bool {
        let inside = forwarding.load(ordering: .relaxed)
        if inside == 0 {
            forwarding.store(Self.threadKey(local), ordering: .relaxed)
            return true
        }
        return false
    }

    /// This thread's `TraceLocal` lives as long as the thread: its address names the thread.
    @inline(__always)
    private static func threadKey(_ local: TraceLocal) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(local).toOpaque())
    }

    /// `enterForwarding` found another delivery under way: records the anomaly. Out of line, so
    /// that the element path never sets up an `Event` (whose metadata would be looked up at
    /// every element).
    @inline(never)
    private func overlapped(_ local: TraceLocal, _ element: Observer.Element) {
        overlapped(
            reentrant: forwarding.load(ordering: .relaxed) == Self.threadKey(local),
            Event<Observer.Element>.next(element).debugDescription)
    }

    @inline(never)
    private func overlapped(reentrant: Bool, _ event: String) {
        guard let tracer = Tracing.active else { return }
        let node = observerTraceID != 0 ? observerTraceID : traceID
        if reentrant {
            tracer.anomaly(
                node: node, .reentrantOn,
                detail: "\(event) sent while delivering an earlier event (from sink \(Tracing.displayID(traceID)))")
        } else {
            tracer.anomaly(
                node: node, .concurrentOn,
                detail:
                    "\(event) sent from another thread while one was delivering (from sink \(Tracing.displayID(traceID)))"
            )
        }
    }

    /// `forwardOn` of a sink born while tracing: records the step and the event, and notes
    /// concurrent or re-entrant calls into the observer.
    @inline(never)
    private func tracedForwardOn(_ event: Event<Observer.Element>) {
        // This thread's trace state, looked up once for the tracer and the run context.
        let local = TraceLocal.current
        guard Tracing.isOn, let tracer = Tracing.cachedTracer(local) else {
            observer.on(event)
            return
        }
        tracer.forwarded(from: traceID, to: observerTraceID, event: event, recordEvent: !observerRecordsEvents)
        let entered = enterForwarding(local)
        if !entered {
            overlapped(reentrant: forwarding.load(ordering: .relaxed) == Self.threadKey(local), event.debugDescription)
        }
        RunContext.pushDelivery(local, via: observerTraceID != 0 ? observerTraceID : traceID)
        observer.on(event)
        RunContext.pop(local)
        if entered { forwarding.store(0, ordering: .relaxed) }
    }

    /// Whether `dispose()` was called.
    public final var isDisposed: Bool {
        @inline(__always) get { flags.load(ordering: .relaxed) & sinkDisposedFlag != 0 }
    }

    /// An observer that forwards into this sink's `forwardOn`, for operators whose inner
    /// subscriptions deliver straight downstream.
    public final func forwarder() -> SinkForwarder<Observer> { SinkForwarder(forward: self) }

    /// Marks the sink disposed and disposes the subscription's `SinkDisposer`.
    open func dispose() {
        if flags.bitwiseOr(sinkDisposedFlag, ordering: .acquiringAndReleasing).oldValue & sinkDisposedFlag == 0 {
            traceDisposed(traceID)
            cancel.dispose()
        }
    }
}

/// Forwards events into a sink's `forwardOn`: dispose on stop events.
public struct SinkForwarder<Observer: ObserverType>: ObserverType, TraceStandIn {
    public typealias Element = Observer.Element
    private let forward: Sink<Observer>

    var traceTargetID: UInt64 { forward.traceID }
    var traceTargetRecordsOwnEvents: Bool { false }

    init(forward: Sink<Observer>) { self.forward = forward }

    public func onNext(_ element: Element) {
        forward.forwardNext(element)
    }

    public func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forward.forwardOn(event)
        case .error, .completed:
            forward.forwardOn(event)
            forward.cancel.dispose()
        }
    }
}
