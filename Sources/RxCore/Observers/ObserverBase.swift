import Synchronization

// The first bit of `ObserverBase.flags` (docs/architecture.md, "The flag byte").
let observerStoppedFlag: UInt8 = 1

/// Base of terminal observers: lets events through until the first stop event, then nothing
/// (the "stopped" flag of 001's step9).
open class ObserverBase<Element>: Disposable, ObserverType {
    /// `observerStoppedFlag` once stopped, plus a bit for an observer born while tracing: one
    /// load lets an element of a running observer straight through when the byte is zero.
    let flags: Atomic<UInt8>
    // Not retained: counters live as long as the process (the registry holds them).
    let resourceCounter: Unmanaged<ResourceCounter>
    /// Trace state (Trace/ObserverBase+Trace.swift), made only while tracing.
    let trace: TraceHop?

    public init(counter: __shared ResourceCounter? = nil, callSite: CallSite? = nil) {
        let counter = counter ?? ResourceCounter.named("ObserverBase")
        self.resourceCounter = Unmanaged.passUnretained(counter)
        self.trace = TraceHop.observerBorn(counter, callSite) // counts it; a node too while tracing
        self.flags = Atomic(trace == nil ? 0 : observerTracedFlag)
    }

    deinit { rxDeath(resourceCounter, traceID) }

    /// Passes `next` while not stopped; passes the first stop event and stops.
    public final func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            if trace != nil { return tracedStop(event) }
            if stop() { onCore(event) }
        }
    }

    /// `on(.next(element))` without building the `Event`.
    public final func onNext(_ element: Element) {
        let flags = self.flags.load(ordering: .relaxed)
        if flags != 0 {
            if flags & observerTracedFlag != 0 { return tracedOnNext(element) }
            return // stopped
        }
        onNextCore(element)
    }

    /// `on(.completed)` without building the `Event`.
    public final func onCompleted() {
        if trace != nil { return tracedOnCompleted() }
        if stop() { onCompletedCore() }
    }

    /// Handles an event that passed the stopped check. Subclasses override it.
    open func onCore(_ event: Event<Element>) {
        fatalError("ObserverBase.onCore must be overridden by \(type(of: self))")
    }

    final var isStopped: Bool { flags.load(ordering: .relaxed) & observerStoppedFlag != 0 }

    /// Sets the stopped flag; true for the call that stopped the observer.
    @inline(__always) final func stop() -> Bool {
        flags.bitwiseOr(observerStoppedFlag, ordering: .acquiringAndReleasing).oldValue & observerStoppedFlag == 0
    }

    /// Handles an element that passed the stopped check; defaults to `onCore(.next(element))`.
    @inline(never)
    open func onNextCore(_ element: Element) { onCore(.next(element)) }

    /// Handles the end once it passed the stopped check; defaults to `onCore(.completed)`.
    @inline(never)
    open func onCompletedCore() { onCore(.completed) }

    /// Stops the observer: later events are dropped.
    open func dispose() {
        if stop() { traceDisposed(traceID) }
    }
}
