import Synchronization

// The first bit of `Sink.flags` (docs/architecture.md, "The flag byte"). Subclasses may keep flags
// of their own in the higher bits (`create`'s sink keeps "stopped" there).
let sinkDisposedFlag: UInt8 = 1

/// The per-subscription worker of a `Producer` (step8 of 001): holds the downstream observer,
/// forwards events to it with `forwardOn` until disposed, and disposes its `cancel` when done.
///
/// A sink that observes upstream implements `ObserverType`'s two entry points one way:
/// `onNext(_:)` does the work for an element, and `on(_:)` hands `.next(element)` to `onNext`
/// and itself handles only the end of the sequence (`.error`, `.completed`). A sink whose work
/// is on whole events (queueing them, printing them) implements `on` alone.
open class Sink<Observer: ObserverType>: Disposable {
    /// Downstream.
    public let observer: Observer
    /// The `SinkDisposer` of this subscription.
    public let cancel: SinkDisposer
    /// `sinkDisposedFlag` once disposed, plus a bit for a sink born while tracing: the element
    /// path loads this one byte and goes straight on when it is zero.
    let flags: Atomic<UInt8>
    /// What tracing keeps for this sink (Trace/Sink+Trace.swift); nil unless born while tracing.
    let trace: TraceHop?
    // Not retained: counters live as long as the process (the registry holds them).
    let resourceCounter: Unmanaged<ResourceCounter>

    // `__owned` and `consume`: the caller's copies move into the fields (docs/architecture.md).
    public init(observer: __owned Observer, cancel: __owned SinkDisposer, counter: __shared ResourceCounter? = nil) {
        let counter = counter ?? ResourceCounter.named("Sink")
        resourceCounter = Unmanaged.passUnretained(counter)
        trace = TraceHop.sinkBorn(counter, observer: observer) // counts it; a node too while tracing
        flags = Atomic(trace == nil ? 0 : sinkTracedFlag)
        self.observer = consume observer
        self.cancel = consume cancel
    }

    deinit { rxDeath(resourceCounter, traceID) }

    /// Sends `event` downstream unless this sink was disposed (step9 of 001).
    @inline(__always)
    public final func forwardOn(_ event: Event<Observer.Element>) {
        let flags = self.flags.load(ordering: .relaxed)
        if flags != 0 {
            if flags & sinkDisposedFlag != 0 { return }
            if flags & sinkTracedFlag != 0 { return tracedForwardOn(event) }
        }
        observer.on(event)
    }

    /// `forwardOn(.next(element))` without building the `Event`: the hot path of every sink.
    @inline(__always)
    public final func forwardNext(_ element: Observer.Element) {
        let flags = self.flags.load(ordering: .relaxed)
        if flags != 0 {
            if flags & sinkDisposedFlag != 0 { return }
            if flags & sinkTracedFlag != 0 { return tracedForwardNext(element) }
        }
        observer.onNext(element)
    }

    /// `forwardOn(.error(error))` then `dispose()`, out of line so that a transform's element
    /// path never sets up an `Event` (docs/architecture.md, "Cold paths out of line").
    @inline(never)
    public final func forwardErrorAndDispose(_ error: Swift.Error) {
        forwardOn(.error(error))
        dispose()
    }

    /// `forwardOn(.completed)` then `dispose()`, out of line for the same reason.
    @inline(never)
    public final func forwardCompletedAndDispose() {
        forwardOn(.completed)
        dispose()
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
public struct SinkForwarder<Observer: ObserverType>: ObserverType {
    public typealias Element = Observer.Element
    let forward: Sink<Observer>

    init(forward: Sink<Observer>) { self.forward = forward }

    public func onNext(_ element: Element) {
        forward.forwardNext(element)
    }

    public func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            forward.forwardOn(event)
            forward.cancel.dispose()
        }
    }
}
