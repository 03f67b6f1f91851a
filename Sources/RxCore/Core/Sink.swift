import Synchronization

// The low bits of `Sink.flags` (docs/architecture.md, "The flag byte"): "disposed" here, the others
// beside the code that uses them (`create`'s "stopped" in Create.swift). Objects are 16-byte
// aligned, so the pointer above them leaves four bits; `sinkFlagBits` masks all four.
let sinkDisposedFlag: UInt = 1
let sinkFlagBits: UInt = 15

/// What every sink is to its `SinkDisposer`: the one class that declares the sinks' `Disposable`
/// conformance, so that they share one witness table and the disposer tells a sink from any other
/// disposable by comparing a pointer (docs/architecture.md, "Class-bound disposables"). RxSwift
/// has no such class: subclass `Sink`, as there.
open class SinkBase: Disposable {
    init() {}

    public func dispose() {}
}

/// The per-subscription worker of a `Producer` (step8 of 001): holds the downstream observer,
/// forwards events to it with `forwardOn` until disposed, and disposes its `cancel` when done.
///
/// A sink that observes upstream implements `ObserverType`'s two entry points one way:
/// `onNext(_:)` does the work for an element, and `on(_:)` hands `.next(element)` to `onNext`
/// and itself handles only the end of the sequence (`.error`, `.completed`). A sink whose work
/// is on whole events (queueing them, printing them) implements `on` alone.
open class Sink<Observer: ObserverType>: SinkBase {
    /// Downstream.
    public let observer: Observer
    /// The `SinkDisposer` of this subscription.
    public let cancel: SinkDisposer
    /// One word: the flags in its four low bits, and above them a pointer: the sink's
    /// `ResourceCounter`, or for a sink born while tracing its `TraceHop`, which keeps the counter.
    /// The element path loads it once and goes straight on when the disposed and traced bits are zero.
    let flags: Atomic<UInt>

    // `__owned` and `consume`: the caller's copies move into the fields (docs/architecture.md).
    public init(observer: __owned Observer, cancel: __owned SinkDisposer, counter: __shared ResourceCounter? = nil) {
        let counter = counter ?? ResourceCounter.named("Sink")
        flags = Atomic(TraceHop.sinkBorn(counter, observer: observer)) // counts it (a node too, traced)
        self.observer = consume observer
        self.cancel = consume cancel
        super.init()
    }

    /// `init` with a counter kept unretained (`CachedCounter`): no retain, no `swift_once`.
    init(observer: __owned Observer, cancel: __owned SinkDisposer, counter: Unmanaged<ResourceCounter>) {
        flags = Atomic(TraceHop.sinkBorn(counter, observer: observer))
        self.observer = consume observer
        self.cancel = consume cancel
        super.init()
    }

    deinit { TraceHop.sinkDied(flags.load(ordering: .relaxed)) }

    /// Sends `event` downstream unless this sink was disposed (step9 of 001).
    @inline(__always)
    public final func forwardOn(_ event: Event<Observer.Element>) {
        let flags = self.flags.load(ordering: .relaxed) & (sinkDisposedFlag | sinkTracedFlag)
        if flags != 0 {
            if flags & sinkDisposedFlag != 0 { return }
            return tracedForwardOn(event)
        }
        observer.on(event)
    }

    /// `forwardOn(.next(element))` without building the `Event`: the hot path of every sink.
    @inline(__always)
    public final func forwardNext(_ element: Observer.Element) {
        let flags = self.flags.load(ordering: .relaxed) & (sinkDisposedFlag | sinkTracedFlag)
        if flags != 0 {
            if flags & sinkDisposedFlag != 0 { return }
            return tracedForwardNext(element)
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
    open override func dispose() {
        let old = flags.bitwiseOr(sinkDisposedFlag, ordering: .acquiringAndReleasing).oldValue
        if old & sinkDisposedFlag == 0 {
            traceDisposed(sinkTraceID(old))
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
