/// The bit of `ObserverBase.state` an observer born while tracing has set (docs/architecture.md,
/// "The flag byte"); such an observer keeps its `TraceHop` in its `ObserverExtras` box.
let observerTracedFlag: UInt = 2

/// An observer is a node of its own, records the events it receives itself, and checks its own
/// `on` calls for overlaps (`TraceHop`), wherever they come from.
extension ObserverBase: TraceIdentifiable, TraceSelfRecording, TraceSelfChecking {
    /// Trace node id (0 when not traced). Inlined: `deinit` and `dispose` read it.
    public var traceID: UInt64 {
        @inline(__always) get {
            let word = state.load(ordering: .relaxed)
            return word & observerTracedFlag == 0 ? 0 : ObserverExtras.tracedNode(word)
        }
    }

    /// The trace state of an observer born while tracing (nil for any other).
    var trace: TraceHop? {
        let word = state.load(ordering: .relaxed)
        guard word & observerTracedFlag != 0 else { return nil }
        return ObserverExtras.box(word)?.takeUnretainedValue().trace
    }

    /// `trace`, not retained: the observer's box holds its hop from its birth to its death. The
    /// element path reads it twice; retaining and releasing it each time cost about 45
    /// instructions an element.
    var unmanagedTrace: Unmanaged<TraceHop>? {
        @inline(__always) get {
            let word = state.load(ordering: .relaxed)
            guard word & observerTracedFlag != 0, let box = ObserverExtras.box(word) else { return nil }
            return box._withUnsafeGuaranteedRef { $0.trace.map { Unmanaged.passUnretained($0) } }
        }
    }
}

extension TraceHop {
    /// An observer is born (`ObserverBase.init`): counts it and, while tracing, makes it a node
    /// with the hop of its own `on` calls; nil when it is not one.
    @inline(__always)
    static func observerBorn(_ counter: ResourceCounter, _ callSite: CallSite?) -> TraceHop? {
        let id = rxBirth(counter, .observer, callSite)
        return id != 0 ? TraceHop(observer: id) : nil
    }
}

extension ObserverBase {
    /// `onNext` of an observer born while tracing: the steps `on` and `onCore` and the event,
    /// or an `eventAfterTermination` anomaly once stopped; an `onNext` that starts while another
    /// `on` is under way is reported (`reentrantOn`, `concurrentOn`).
    /// A sink delivering here may have left its `forwardOn` step to this record
    /// (`TraceHop.mergesObserved`): then one record holds both.
    @inline(never)
    final func tracedOnNext(_ element: Element) {
        if state.load(ordering: .relaxed) & observerStoppedFlag != 0 { return traceLateNext(element) }
        var entered = false
        // The hop names the observer's node (`traceID` is the same, found again through a call).
        let hop = unmanagedTrace
        let node = hop?._withUnsafeGuaranteedRef { $0.node } ?? 0
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            let forwarded = local.forwardingTo == node && node != 0
            if forwarded { local.forwardingTo = 0 }
            guard Tracing.isOn, Tracing.refresh(local) else { return }
            if forwarded {
                TraceHook.forwardedObservedNext(local, node: node, element: element)
            } else {
                TraceHook.observedNext(local, node: node, element: element)
            }
            entered = hop?._withUnsafeGuaranteedRef { $0.begin(local, next: element) } ?? false
        }
        onNextCore(element)
        if entered { hop?._withUnsafeGuaranteedRef { $0.end(entered) } }
    }

    /// The stop events of `on` for an observer born while tracing.
    @inline(never)
    final func tracedStop(_ event: Event<Element>) {
        guard stop() else { return traceLate(event) }
        Tracing.active?.observed(node: traceID, event: event)
        let entered = Tracing.isOn && trace?.begin(TraceLocal.current, event) == true
        onCore(event)
        trace?.end(entered)
    }

    /// `onCompleted` of an observer born while tracing.
    @inline(never)
    final func tracedOnCompleted() {
        guard stop() else { return traceLate(.completed) }
        Tracing.active?.observed(node: traceID, event: Event<Element>.completed)
        let entered = Tracing.isOn && trace?.begin(TraceLocal.current, Event<Element>.completed) == true
        onCompletedCore()
        trace?.end(entered)
    }

    // Out of line: `tracedOnNext` never sets up the `Event` made here (docs/architecture.md).
    // A sink's `forwardOn` left to this observer is recorded alone first, as the sink would have.
    @inline(never)
    private func traceLateNext(_ element: Element) {
        let node = traceID
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            guard local.forwardingTo == node, node != 0 else { return }
            local.forwardingTo = 0
            if Tracing.isOn, Tracing.refresh(local) {
                TraceHook.forwardedBeforeDelivery(local, node: node, element: element)
            }
        }
        traceLate(.next(element))
    }

    private func traceLate(_ event: Event<Element>) {
        Tracing.active?.anomaly(node: traceID, .eventAfterTermination, detail: event.debugDescription)
    }
}
