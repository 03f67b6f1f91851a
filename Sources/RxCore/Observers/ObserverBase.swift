import Synchronization

/// Base of terminal observers: lets events through until the first stop event, then nothing
/// (the "stopped" flag of 001's step9).
open class ObserverBase<Element>: Disposable, ObserverType, TraceIdentifiable, TraceSelfRecording {
    private let isStopped = Atomic<Bool>(false)
    // Not retained: counters live as long as the process (the registry holds them).
    let resourceCounter: Unmanaged<ResourceCounter>
    /// Trace node id (0 when not traced).
    public let traceID: UInt64

    public init(counter: __shared ResourceCounter? = nil, callSite: CallSite? = nil) {
        let counter = counter ?? ResourceCounter.named("ObserverBase")
        self.resourceCounter = Unmanaged.passUnretained(counter)
        self.traceID = rxBirth(counter, .observer, callSite)
    }

    deinit { rxDeath(resourceCounter, traceID) }

    /// Passes `next` while not stopped; passes the first stop event and stops.
    public final func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if !isStopped.load(ordering: .relaxed) {
                #if !RX_NO_TRACE
                if traceID != 0 { traceOn(event) }
                #endif
                onCore(event)
            } else if traceID != 0 {
                traceLate(event)
            }
        case .error, .completed:
            if !isStopped.exchange(true, ordering: .acquiringAndReleasing) {
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
        if !isStopped.load(ordering: .relaxed) {
            #if !RX_NO_TRACE
            if traceID != 0 { traceNext(element) }
            #endif
            onNextCore(element)
        } else if traceID != 0 {
            traceLateNext(element)
        }
    }

    /// `on(.completed)` without building the `Event` unless a subclass needs one.
    public final func onCompleted() {
        if !isStopped.exchange(true, ordering: .acquiringAndReleasing) {
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
        if !isStopped.exchange(true, ordering: .acquiringAndReleasing) { traceDisposed(traceID) }
    }
}
