import Synchronization

/// Base of terminal observers: lets events through until the first stop event, then nothing
/// (the "stopped" flag of 001's step9).
open class ObserverBase<Element>: Disposable, ObserverType, TraceIdentifiable {
    private let isStopped = Atomic<Bool>(false)
    let resourceCounter: ResourceCounter
    /// Trace node id (0 when not traced).
    public let traceID: UInt64

    public init(counter: ResourceCounter? = nil, callSite: CallSite? = nil) {
        let counter = counter ?? ResourceCounter.named("ObserverBase")
        self.resourceCounter = counter
        self.traceID = rxBirth(counter, .observer, callSite)
    }

    deinit { rxDeath(resourceCounter, traceID) }

    /// Passes `next` while not stopped; passes the first stop event and stops.
    public final func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if !isStopped.load(ordering: .relaxed) {
                traceOnCore(event)
                onCore(event)
            } else if traceID != 0, let tracer = Tracing.active {
                tracer.anomaly(node: traceID, .eventAfterTermination, detail: event.debugDescription)
            }
        case .error, .completed:
            if !isStopped.exchange(true, ordering: .acquiringAndReleasing) {
                traceOnCore(event)
                onCore(event)
            } else if traceID != 0, let tracer = Tracing.active {
                tracer.anomaly(node: traceID, .eventAfterTermination, detail: event.debugDescription)
            }
        }
    }

    /// `on(.next(element))` without building the `Event` unless a subclass needs one.
    public final func onNext(_ element: Element) {
        if !isStopped.load(ordering: .relaxed) {
            if traceID != 0 { traceNext(element, stopped: false) }
            onNextCore(element)
        } else if traceID != 0 {
            traceNext(element, stopped: true)
        }
    }

    @inline(never)
    private func traceNext(_ element: Element, stopped: Bool) {
        let event = Event<Element>.next(element)
        if !stopped {
            traceOnCore(event)
        } else if let tracer = Tracing.active {
            tracer.anomaly(node: traceID, .eventAfterTermination, detail: event.debugDescription)
        }
    }

    /// Handles an element that passed the stopped check; defaults to `onCore(.next(element))`.
    @inline(never)
    open func onNextCore(_ element: Element) {
        onCore(.next(element))
    }

    @inline(__always)
    private func traceOnCore(_ event: Event<Element>) {
        if traceID != 0, let tracer = Tracing.active {
            tracer.step(.onCore, from: traceID, to: traceID, detail: event.debugDescription)
        }
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
