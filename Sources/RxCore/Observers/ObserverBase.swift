import Synchronization

// The bits of `ObserverBase.flags` (file-level constants: see Sink.swift).
private let observerStoppedFlag: UInt8 = 1
private let observerTracedFlag: UInt8 = 2

/// Base of terminal observers: lets events through until the first stop event, then nothing
/// (the "stopped" flag of 001's step9).
open class ObserverBase<Element>: Disposable, ObserverType, TraceIdentifiable, TraceSelfRecording {
    /// `observerStoppedFlag` once stopped, plus `observerTracedFlag` for a traced observer (set in `init`):
    /// one load lets an element of an untraced, running observer straight through.
    private let flags: Atomic<UInt8>
    // Not retained: counters live as long as the process (the registry holds them).
    let resourceCounter: Unmanaged<ResourceCounter>
    /// Trace node id (0 when not traced).
    public let traceID: UInt64

    public init(counter: __shared ResourceCounter? = nil, callSite: CallSite? = nil) {
        let counter = counter ?? ResourceCounter.named("ObserverBase")
        self.resourceCounter = Unmanaged.passUnretained(counter)
        let id = rxBirth(counter, .observer, callSite)
        self.traceID = id
        self.flags = Atomic(id != 0 ? observerTracedFlag : 0)
    }

    private var isStopped: Bool {
        @inline(__always) get { flags.load(ordering: .relaxed) & observerStoppedFlag != 0 }
    }

    /// Sets the stopped flag; true for the call that stopped the observer.
    @inline(__always)
    private func stop() -> Bool {
        flags.bitwiseOr(observerStoppedFlag, ordering: .acquiringAndReleasing).oldValue & observerStoppedFlag == 0
    }

    deinit { rxDeath(resourceCounter, traceID) }

    /// Passes `next` while not stopped; passes the first stop event and stops.
    public final func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if !isStopped {
                #if !RX_NO_TRACE
                if traceID != 0 { traceOn(event) }
                #endif
                onCore(event)
            } else if traceID != 0 {
                traceLate(event)
            }
        case .error, .completed:
            if stop() {
                #if !RX_NO_TRACE
                if traceID != 0 { traceOn(event) }
                #endif
                onCore(event)
            } else if traceID != 0 {
                traceLate(event)
            }
        }
    }

    /// `on(.next(element))` without building the `Event` unless a subclass needs one.
    public final func onNext(_ element: Element) {
        if flags.load(ordering: .relaxed) == 0 { return onNextCore(element) }
        onNextFlagged(element)
    }

    // Out of line, so the element path sets up nothing for it.
    @inline(never)
    private func onNextFlagged(_ element: Element) {
        let state = flags.load(ordering: .relaxed)
        if state & observerStoppedFlag == 0 {
            #if !RX_NO_TRACE
            traceNext(element)
            #endif
            onNextCore(element)
        } else if traceID != 0 {
            traceLateNext(element)
        }
    }

    /// `on(.completed)` without building the `Event` unless a subclass needs one.
    public final func onCompleted() {
        if stop() {
            #if !RX_NO_TRACE
            if traceID != 0 { traceOn(completed: ()) }
            #endif
            onCompletedCore()
        } else if traceID != 0 {
            traceLate(completed: ())
        }
    }

    @inline(never)
    private func traceOn(completed: Void) { traceOn(.completed) }

    @inline(never)
    private func traceLate(completed: Void) { traceLate(.completed) }

    @inline(never)
    private func traceNext(_ element: Element) {
        // No `Event` here (not even on a branch not taken): its generic metadata would be
        // looked up at every element.
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            guard Tracing.isOn, Tracing.refresh(local) else { return }
            TraceHook.observedNext(local, node: traceID, element: element)
        }
    }

    @inline(never)
    private func traceLateNext(_ element: Element) { traceLate(.next(element)) }

    /// Handles an element that passed the stopped check; defaults to `onCore(.next(element))`.
    @inline(never)
    open func onNextCore(_ element: Element) {
        onCore(.next(element))
    }

    /// Handles the end once it passed the stopped check; defaults to `onCore(.completed)`.
    @inline(never)
    open func onCompletedCore() {
        onCore(.completed)
    }

    /// Records `on` (with the event) and `onCore` (step9 of 001).
    @inline(never)
    private func traceOn(_ event: Event<Element>) {
        guard let tracer = Tracing.active else { return }
        tracer.observed(node: traceID, event: event)
    }

    @inline(never)
    private func traceLate(_ event: Event<Element>) {
        guard let tracer = Tracing.active else { return }
        tracer.anomaly(node: traceID, .eventAfterTermination, detail: event.debugDescription)
    }

    /// Handles an event that passed the stopped check. Subclasses override it.
    open func onCore(_ event: Event<Element>) {
        fatalError("ObserverBase.onCore must be overridden by \(type(of: self))")
    }

    /// Stops the observer: later events are dropped.
    open func dispose() {
        if stop() { traceDisposed(traceID) }
    }
}
