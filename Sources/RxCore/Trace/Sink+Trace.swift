import Synchronization

/// A traced hop into an observer, shared by every traced delivery: a sink's `forwardOn` into
/// its observer (the sink's trace state, made only while tracing) and a subject's delivery to
/// one subscriber. It names both ends, records nothing itself (the callers record the step and
/// the event, each in the shape its recorder keeps), and `deliver` does what surrounds the call
/// into the observer: the run context and the check for overlapping `on` calls.
final class TraceHop {
    /// The node that delivers (a sink, a subject).
    let node: UInt64
    /// The node delivered to (0 when the observer is not one).
    let target: UInt64
    /// False when the observer records the events it receives itself (`TraceSelfRecording`).
    let recordsEvent: Bool
    /// The node whose call site nodes born during a delivery take.
    private let receiver: UInt64
    /// Whether a delivery that starts while another is under way is reported as `reentrantOn`
    /// or `concurrentOn` on the receiver.
    private let checksOverlap: Bool
    /// The thread inside `deliver` (0: none), as the address of its `TraceLocal`.
    private let delivering = Atomic<UInt>(0)

    /// Who delivers, which decides two things. A sink's hop checks for overlapping deliveries,
    /// and lends its own call site when the observer is not a node. A subject's hop does neither:
    /// a subscriber that re-enters through a sink is reported once, at the sink's hop.
    enum Sender { case sink, subject }

    init(node: UInt64, observer: Any, sender: Sender) {
        let target = traceNodeID(of: observer)
        self.node = node
        self.target = target
        self.recordsEvent = !traceRecordsOwnEvents(observer)
        self.receiver = sender == .sink && target == 0 ? node : target
        self.checksOverlap = sender == .sink
    }

    /// A sink born while tracing (`Sink.init`): counts it, makes it a node with its `run` edge
    /// from the producer running and its `forward` edge to `observer`; nil when the tracer
    /// gave it no node.
    static func sinkBorn(_ counter: ResourceCounter, observer: Any) -> TraceHop? {
        let context = RunContext.current
        let id = rxBirth(counter, .sink, nil)
        let hop = TraceHop(node: id, observer: observer, sender: .sink)
        if let producer = context?.producer, producer != 0 {
            traceStep(.`init`, from: producer, to: id)
            traceEdge(producer, id, .run)
        }
        traceEdge(id, hop.target, .forward)
        return id != 0 ? hop : nil
    }

    /// `observer.onNext(element)` as a traced delivery.
    @inline(__always)
    func deliver<Observer: ObserverType>(_ local: TraceLocal, _ element: Observer.Element, to observer: Observer) {
        let entered = checksOverlap && enter(local)
        if checksOverlap && !entered { overlapped(local, element) }
        RunContext.pushDelivery(local, receiver: receiver, sender: node, target: target)
        observer.onNext(element)
        RunContext.pop(local)
        if entered { delivering.store(0, ordering: .relaxed) }
    }

    /// `observer.on(event)` as a traced delivery.
    func deliver<Observer: ObserverType>(_ local: TraceLocal, _ event: Event<Observer.Element>, to observer: Observer) {
        let entered = checksOverlap && enter(local)
        if checksOverlap && !entered { overlapped(local, event.debugDescription) }
        RunContext.pushDelivery(local, receiver: receiver, sender: node, target: target)
        observer.on(event)
        RunContext.pop(local)
        if entered { delivering.store(0, ordering: .relaxed) }
    }

    /// Marks this thread as delivering; false when another delivery is under way (and this
    /// call must not clear the mark).
    ///
    /// A load and a store rather than a compare-and-exchange (which cost as much as the rest of
    /// a hop's bookkeeping): a delivery that starts while another is under way is always seen;
    /// two that start within the same few instructions on two threads may not be. Deliveries
    /// ordered by a lock or a serial queue never look concurrent (the lock orders the stores).
    @inline(__always)
    private func enter(_ local: TraceLocal) -> Bool {
        if delivering.load(ordering: .relaxed) != 0 { return false }
        delivering.store(Self.thread(local), ordering: .relaxed)
        return true
    }

    /// This thread's `TraceLocal` lives as long as the thread: its address names the thread.
    @inline(__always)
    private static func thread(_ local: TraceLocal) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(local).toOpaque())
    }

    // Out of line: the element path never sets up the `Event` made here (docs/architecture.md).
    @inline(never)
    private func overlapped<Element>(_ local: TraceLocal, _ element: Element) {
        overlapped(local, Event<Element>.next(element).debugDescription)
    }

    @inline(never)
    private func overlapped(_ local: TraceLocal, _ event: String) {
        guard let tracer = Tracing.active else { return }
        let sink = "(from sink \(Tracing.displayID(node)))"
        if delivering.load(ordering: .relaxed) == Self.thread(local) {
            tracer.anomaly(
                node: receiver, .reentrantOn, detail: "\(event) sent while delivering an earlier event \(sink)")
        } else {
            tracer.anomaly(
                node: receiver, .concurrentOn,
                detail: "\(event) sent from another thread while one was delivering \(sink)")
        }
    }
}

extension Sink {
    /// `forwardNext` of a sink born while tracing: the step and the event, then the delivery.
    @inline(never)
    final func tracedForwardNext(_ element: Observer.Element) {
        // This thread's trace state, looked up once, and the hop: neither retained (the thread
        // keeps the one, this sink the other), as a retain and a release per element would cost
        // a fifth of the recording.
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            Unmanaged.passUnretained(trace.unsafelyUnwrapped)._withUnsafeGuaranteedRef { hop in
                guard Tracing.isOn, Tracing.refresh(local) else { return observer.onNext(element) }
                TraceHook.forwardedNext(
                    local, from: hop.node, to: hop.target, element: element, recordEvent: hop.recordsEvent)
                hop.deliver(local, element, to: observer)
            }
        }
    }

    /// `forwardOn` of a sink born while tracing: the step and the event, then the delivery.
    @inline(never)
    final func tracedForwardOn(_ event: Event<Observer.Element>) {
        let hop = trace.unsafelyUnwrapped
        let local = TraceLocal.current
        guard Tracing.isOn, let tracer = Tracing.cachedTracer(local) else { return observer.on(event) }
        tracer.forwarded(from: hop.node, to: hop.target, event: event, recordEvent: hop.recordsEvent)
        hop.deliver(local, event, to: observer)
    }

    /// The `on(.next(element))` of a sink that records its own events (`create`'s), then its
    /// `forwardNext(element)`, while traced: one record for both (nothing can happen between
    /// them on this thread), then the delivery. A stopped or disposed sink records the `on` only.
    @inline(never)
    final func tracedReceiveAndForwardNext(_ element: Observer.Element, stopped: Bool) {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            Unmanaged.passUnretained(trace.unsafelyUnwrapped)._withUnsafeGuaranteedRef { hop in
                let dropped = stopped || isDisposed
                guard Tracing.isOn, Tracing.refresh(local) else {
                    if !dropped { observer.onNext(element) }
                    return
                }
                if dropped {
                    return TraceHook.receivedNext(local, .on, node: hop.node, element: element, recordEvent: true)
                }
                TraceHook.receivedAndForwardedNext(
                    local, node: hop.node, to: hop.target, element: element, recordEvent: hop.recordsEvent)
                hop.deliver(local, element, to: observer)
            }
        }
    }
}
