import Synchronization

/// The bit of `Sink.flags` a sink born while tracing has set: the pointer above the flags is then
/// its `TraceHop`, retained by the sink, not its counter (docs/architecture.md, "The flag byte").
let sinkTracedFlag: UInt = 2

extension Sink: TraceIdentifiable {
    /// Trace node id (0 when not traced).
    public var traceID: UInt64 {
        @inline(__always) get { sinkTraceID(flags.load(ordering: .relaxed)) }
    }
}

/// The trace node id of a sink whose flag word is `flags` (0 when not traced).
@inline(__always)
func sinkTraceID(_ flags: UInt) -> UInt64 {
    flags & sinkTracedFlag != 0 ? sinkHop(flags)._withUnsafeGuaranteedRef { $0.node } : 0
}

/// The `TraceHop` of a sink whose flag word has the traced bit, not retained (the sink holds it).
@inline(__always)
func sinkHop(_ flags: UInt) -> Unmanaged<TraceHop> {
    Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: flags & ~sinkFlagBits).unsafelyUnwrapped)
}

extension SinkForwarder: TraceStandIn {
    var traceTargetID: UInt64 { forward.traceID }
    var traceTargetRecordsOwnEvents: Bool { false }
}

/// A traced hop into an observer, shared by every traced delivery: a sink's `forwardOn` into
/// its observer (the sink's trace state, made only while tracing), a subject's delivery to one
/// subscriber, and an observer's own `on` (`ObserverBase`). It names both ends, records nothing
/// itself (the callers record the step and the event, each in the shape its recorder keeps), and
/// `deliver` does what surrounds the call into the observer: the run context and `begin`/`end`,
/// the one check for overlapping `on` calls.
final class TraceHop {
    /// The node that delivers (a sink, a subject; the observer itself for its own `on`).
    let node: UInt64
    /// The node delivered to: the observer's, or one this hop made or took for an observer that
    /// is none of the core's (`ObserverNode`); 0 when there is none.
    let target: UInt64
    /// Whether `target` is such a node, let go with this hop.
    private let ownsTarget: Bool
    /// False when the observer records the events it receives itself (`TraceSelfRecording`).
    let recordsEvent: Bool
    /// A sink's or a subject's hop into a traced `ObserverBase`: the observer's traced `onNext`
    /// records the hop's `forwardOn` step of an element with its own `on` (`TraceLocal.forwardingTo`),
    /// one record where there were two (`TraceRecord.Shape.forwardedObserved`).
    let mergesObserved: Bool
    /// How the recorder keeps the elements a sink's hop delivers (`TraceElementForm`), worked
    /// out when the sink is born; `.unknown` for any other hop. (Here, in the flags' padding:
    /// two bytes more at the end would take the hop to a larger block of `malloc`'s.)
    let form: TraceElementForm
    /// The node whose call site nodes born during a delivery take (0: none; a subject's hop
    /// into an observer that is not a node lends none).
    private let receiver: UInt64
    /// The node an overlapping delivery is reported on: the target, or the sender when the
    /// target is not a node.
    private let overlapNode: UInt64
    /// Whether a delivery that starts while another is under way is reported as `reentrantOn`
    /// or `concurrentOn` on the receiver.
    private let checksOverlap: Bool
    private let sender: Sender
    /// The thread inside `deliver` (0: none), as the address of its `TraceLocal`.
    private let delivering = Atomic<UInt>(0)
    /// The context of the subscription delivered to, bound around each delivery (TraceContext.swift).
    let context: AnyObject?
    /// A sink's hop: the sink's counter, which its flag word holds while untraced (`sinkBorn`).
    let counter: Unmanaged<ResourceCounter>?

    /// Who delivers. Each `on` call is checked once, by whoever sees it last: an observer that
    /// checks its own `on` (`ObserverBase`) does, and a hop into it does not; a sink's hop checks
    /// anything else it delivers to; a subject's hop checks an observer of the user's own, whose
    /// node it made (a subscribed sink checks what it forwards at its own hop).
    enum Sender { case sink, subject, observer }

    init(
        node: UInt64, observer: Any, sender: Sender, context: AnyObject? = TraceContext.forHop,
        counter: Unmanaged<ResourceCounter>? = nil, form: TraceElementForm = .unknown
    ) {
        var target = traceNodeID(of: observer)
        self.context = context
        self.counter = counter
        self.form = form
        var ownsTarget = false
        if target == 0, node != 0, let tracer = Tracing.active, ObserverNode.isNeeded(for: observer) {
            if let offered = ObserverNode.claim(observer) {
                target = offered
            } else {
                target = ObserverNode.make(tracer, for: observer, callSite: RunContext.site(tracer))
                // A subject's subscriber: the `subscribe` the subject could not name it in.
                if sender == .subject, target != 0 {
                    tracer.step(.subscribe, from: target, to: node, .subscribe, target, 0)
                    tracer.edge(from: target, to: node, relation: .subscribes)
                }
            }
            ownsTarget = target != 0
        }
        self.node = node
        self.target = target
        self.ownsTarget = ownsTarget
        self.recordsEvent = !traceRecordsOwnEvents(observer)
        // The observer's own node (so it is traced and takes `forwardingTo`), no context to bind.
        self.mergesObserved =
            sender != .observer && target != 0 && !ownsTarget && context == nil
            && TraceTypeFacts.of(observer).contains(.checksOwnOn)
        self.receiver = sender == .sink && target == 0 ? node : target
        self.overlapNode = target == 0 ? node : target
        self.sender = sender
        // A node of the hop's own is checked here: the observer does not check itself.
        self.checksOverlap = !traceChecksOwnOn(observer) && (sender == .sink || target == 0 || ownsTarget)
    }

    deinit {
        if ownsTarget, let tracer = Tracing.active { tracer.deinitialized(target) }
    }

    /// The hop of an observer's own `on` calls (`ObserverBase`, born while tracing).
    init(observer node: UInt64) {
        self.node = node
        self.target = node
        self.ownsTarget = false
        self.recordsEvent = false
        self.mergesObserved = false
        self.receiver = node
        self.overlapNode = node
        self.sender = .observer
        self.checksOverlap = true
        self.context = nil
        self.counter = nil
        self.form = .unknown
    }

    /// A sink is born (`Sink.init`): counts it and returns its first flag word: its counter, or
    /// while tracing its node's hop with the traced bit (below).
    @inline(__always)
    static func sinkBorn<Observer: ObserverType>(_ counter: ResourceCounter, observer: Observer) -> UInt {
        sinkBorn(Unmanaged.passUnretained(counter), observer: observer)
    }

    /// `sinkBorn` for a counter kept unretained (`CachedCounter`): the untraced path is an atomic
    /// add and the pointer, with no closure around the counter and no copy of the observer.
    @inline(__always)
    static func sinkBorn<Observer: ObserverType>(_ counter: Unmanaged<ResourceCounter>, observer: Observer) -> UInt {
        if Tracing.isOn { return tracedSinkBorn(counter, observer: observer, form: .of(Observer.Element.self)) }
        counter._withUnsafeGuaranteedRef { $0.increment() }
        let word = UInt(bitPattern: counter.toOpaque())
        assert(word & sinkFlagBits == 0, "a ResourceCounter not 16-byte aligned")
        return word
    }

    /// A sink born while tracing: counts it, makes it a node with its `run` edge from the
    /// producer running and its `forward` edge to `observer`, and returns the node's hop, retained
    /// (`sinkDied` releases it), with the traced bit; the counter when the tracer gave no node.
    /// The hop keeps `form`, that of the sink's elements.
    @inline(never)
    static func tracedSinkBorn(_ unmanaged: Unmanaged<ResourceCounter>, observer: Any, form: TraceElementForm) -> UInt {
        let context = RunContext.current
        let id = unmanaged._withUnsafeGuaranteedRef { rxBirth($0, .sink, nil) }
        let hop = TraceHop(node: id, observer: observer, sender: .sink, counter: unmanaged, form: form)
        if let producer = context?.producer, producer != 0 {
            traceStep(.`init`, from: producer, to: id)
            traceEdge(producer, id, .run)
        }
        traceEdge(id, hop.target, .forward)
        guard id != 0 else { return UInt(bitPattern: unmanaged.toOpaque()) }
        return UInt(bitPattern: Unmanaged.passRetained(hop).toOpaque()) | sinkTracedFlag
    }

    /// A sink's `deinit`: uncounts it (and its node, while traced) and lets its hop go.
    @inline(__always)
    static func sinkDied(_ flags: UInt) {
        if flags & sinkTracedFlag != 0 { return tracedSinkDied(flags) }
        let counter = UnsafeRawPointer(bitPattern: flags & ~sinkFlagBits).unsafelyUnwrapped
        rxDeath(Unmanaged<ResourceCounter>.fromOpaque(counter), 0)
    }

    @inline(never)
    private static func tracedSinkDied(_ flags: UInt) {
        let hop = sinkHop(flags)
        hop._withUnsafeGuaranteedRef { rxDeath($0.counter.unsafelyUnwrapped, $0.node) }
        hop.release()
    }

    /// Whether this hop leaves the `forwardOn` of the element it is about to deliver to its
    /// observer (`mergesObserved`, and this thread's recorder merges): if so, marks the thread
    /// (`TraceLocal.forwardingTo`) for the observer's traced `onNext`, which takes the mark.
    @inline(__always)
    func leavesForwardOnToObserver(_ local: TraceLocal) -> Bool {
        guard mergesObserved, let recorder = local.recorder, recorder._withUnsafeGuaranteedRef({ $0.mergesObserved })
        else { return false }
        local.forwardingTo = target
        return true
    }

    /// `observer.onNext(element)` as a traced delivery.
    @inline(__always)
    func deliver<Observer: ObserverType>(_ local: TraceLocal, _ element: Observer.Element, to observer: Observer) {
        if let context, context !== local.context { return deliver(local, context, element, to: observer) }
        deliverBound(local, element, to: observer)
    }

    /// `deliver` with `context` bound first. Out of line: the element path of a hop with no
    /// context to bind (every hop, with `TraceRecorder`) only tests the field.
    @inline(never)
    private func deliver<Observer: ObserverType>(
        _ local: TraceLocal, _ context: AnyObject, _ element: Observer.Element, to observer: Observer
    ) {
        TraceContext.bind(local, context) { deliverBound(local, element, to: observer) }
    }

    /// `deliver`, the context bound.
    @inline(__always)
    private func deliverBound<Observer: ObserverType>(
        _ local: TraceLocal, _ element: Observer.Element, to observer: Observer
    ) {
        let entered = begin(local, next: element)
        RunContext.pushDelivery(local, receiver: receiver, sender: node, target: target)
        observer.onNext(element)
        RunContext.popDelivery(local)
        end(entered)
    }

    /// `observer.on(event)` as a traced delivery.
    func deliver<Observer: ObserverType>(_ local: TraceLocal, _ event: Event<Observer.Element>, to observer: Observer) {
        if let context, context !== local.context {
            return TraceContext.bind(local, context) { deliverBound(local, event, to: observer) }
        }
        deliverBound(local, event, to: observer)
    }

    /// `deliver`, the context bound.
    private func deliverBound<Observer: ObserverType>(
        _ local: TraceLocal, _ event: Event<Observer.Element>, to observer: Observer
    ) {
        let entered = begin(local, event)
        RunContext.pushDelivery(local, receiver: receiver, sender: node, target: target)
        observer.on(event)
        RunContext.popDelivery(local)
        end(entered)
    }

    /// Marks a delivery of `element` as under way, reporting it when another one already is;
    /// true when this call set the mark (and must `end` it).
    @inline(__always)
    func begin<Element>(_ local: TraceLocal, next element: Element) -> Bool {
        guard checksOverlap else { return false }
        if enter(local) { return true }
        overlapped(local, element)
        return false
    }

    /// `begin` for a whole event.
    @inline(__always)
    func begin<Element>(_ local: TraceLocal, _ event: Event<Element>) -> Bool {
        guard checksOverlap else { return false }
        if enter(local) { return true }
        overlapped(local, event.debugDescription)
        return false
    }

    /// Ends the delivery `begin` marked (when it returned true).
    @inline(__always)
    func end(_ entered: Bool) {
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
        let via: String
        switch sender {
        case .sink: via = " (from sink \(Tracing.displayID(node)))"
        case .subject: via = " (from subject \(Tracing.displayID(node)))"
        case .observer: via = ""
        }
        if delivering.load(ordering: .relaxed) == Self.thread(local) {
            tracer.anomaly(
                node: overlapNode, .reentrantOn, detail: "\(event) sent while delivering an earlier event\(via)")
        } else {
            tracer.anomaly(
                node: overlapNode, .concurrentOn,
                detail: "\(event) sent from another thread while one was delivering\(via)")
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
            sinkHop(flags.load(ordering: .relaxed))._withUnsafeGuaranteedRef { hop in
                guard Tracing.isOn, Tracing.refresh(local) else { return observer.onNext(element) }
                if hop.leavesForwardOnToObserver(local) {
                    // The observer records this step with its own `on`.
                    hop.deliver(local, element, to: observer)
                    return assert(local.forwardingTo == 0, "an observer left a sink's forwardOn unrecorded")
                }
                TraceHook.forwardedNext(
                    local, from: hop.node, to: hop.target, element: element, recordEvent: hop.recordsEvent,
                    form: hop.form)
                hop.deliver(local, element, to: observer)
            }
        }
    }

    /// `forwardOn` of a sink born while tracing: the step and the event, then the delivery.
    @inline(never)
    final func tracedForwardOn(_ event: Event<Observer.Element>) {
        let hop = sinkHop(flags.load(ordering: .relaxed)).takeUnretainedValue()
        let local = TraceLocal.current
        guard Tracing.isOn, let tracer = Tracing.cachedTracer(local) else { return observer.on(event) }
        tracer.forwarded(from: hop.node, to: hop.target, event: event, recordEvent: hop.recordsEvent)
        hop.deliver(local, event, to: observer)
    }

    /// The `on(.next(element))` of a sink that records its own events (`create`'s), then its
    /// `forwardNext(element)`, while traced: one record for both (nothing can happen between
    /// them on this thread), then the delivery. A stopped or disposed sink records the `on` only.
    /// Expanded in `create`'s sink (`AnonymousObservableSink.tracedOnNext`), the one sink that
    /// records its own `on`: there the compiler also expands the two closures below into it, which
    /// it leaves as calls in an out-of-line `Sink` method (29 instructions an element).
    @inline(__always)
    final func tracedReceiveAndForwardNext(_ element: Observer.Element, stopped: Bool) {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            sinkHop(flags.load(ordering: .relaxed))._withUnsafeGuaranteedRef { hop in
                let dropped = stopped || isDisposed
                guard Tracing.isOn, Tracing.refresh(local) else {
                    if !dropped { observer.onNext(element) }
                    return
                }
                if dropped {
                    return TraceHook.receivedNext(local, .on, node: hop.node, element: element, recordEvent: true)
                }
                TraceHook.receivedAndForwardedNext(
                    local, node: hop.node, to: hop.target, element: element, recordEvent: hop.recordsEvent,
                    form: hop.form)
                hop.deliver(local, element, to: observer)
            }
        }
    }
}

extension AnonymousObservableSink {
    /// `onNext` of `create`'s sink born while tracing (`tracedReceiveAndForwardNext`), out of
    /// line from its untraced path.
    @inline(never)
    func tracedOnNext(_ element: Element, stopped: Bool) {
        tracedReceiveAndForwardNext(element, stopped: stopped)
    }
}
