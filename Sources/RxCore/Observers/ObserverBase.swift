import Synchronization

// The first bit of `ObserverBase.state` (docs/architecture.md, "The flag byte"); the others
// are in ObserverExtras.swift.
let observerStoppedFlag: UInt = 1

/// Base of terminal observers: lets events through until the first stop event, then nothing
/// (the "stopped" flag of 001's step9).
open class ObserverBase<Element>: Disposable, ObserverType {
    /// One word: `observerStoppedFlag`, a bit for an observer born while tracing, and above
    /// them (objects are 16-byte aligned) the observer's `ResourceCounter`, or an
    /// `ObserverExtras` box when it has one (ObserverExtras.swift). One load lets an element of
    /// a running observer straight through when the two low bits are zero.
    let state: Atomic<UInt>

    public init(counter: __shared ResourceCounter? = nil, callSite: CallSite? = nil) {
        let counter = counter ?? ResourceCounter.named("ObserverBase")
        let word = UInt(bitPattern: Unmanaged.passUnretained(counter).toOpaque())
        state = Atomic(ObserverExtras.born(word, counter, callSite))
    }

    /// `init` with a counter kept unretained (`CachedCounter`): no retain, no `swift_once`.
    init(counter: Unmanaged<ResourceCounter>, callSite: CallSite?) {
        let word = UInt(bitPattern: counter.toOpaque())
        state = Atomic(counter._withUnsafeGuaranteedRef { ObserverExtras.born(word, $0, callSite) })
    }

    /// A subclass's box of rarely used fields (counted with `box.counter`).
    init(box: __owned ObserverExtras, callSite: CallSite?) {
        state = Atomic(ObserverExtras.born(box: box, callSite))
    }

    deinit { ObserverExtras.died(state.load(ordering: .relaxed)) }

    /// Passes `next` while not stopped; passes the first stop event and stops.
    public final func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            if state.load(ordering: .relaxed) & observerTracedFlag != 0 { return tracedStop(event) }
            if stop() { onCore(event) }
        }
    }

    /// `on(.next(element))` without building the `Event`.
    public final func onNext(_ element: Element) {
        let flags = state.load(ordering: .relaxed) & (observerStoppedFlag | observerTracedFlag)
        if flags != 0 {
            if flags & observerTracedFlag != 0 { return tracedOnNext(element) }
            return // stopped
        }
        onNextCore(element)
    }

    /// `on(.completed)` without building the `Event`.
    public final func onCompleted() {
        if state.load(ordering: .relaxed) & observerTracedFlag != 0 { return tracedOnCompleted() }
        if stop() { onCompletedCore() }
    }

    /// Handles an event that passed the stopped check. Subclasses override it.
    open func onCore(_ event: Event<Element>) {
        fatalError("ObserverBase.onCore must be overridden by \(type(of: self))")
    }

    final var isStopped: Bool { state.load(ordering: .relaxed) & observerStoppedFlag != 0 }

    /// Sets the stopped flag; true for the call that stopped the observer.
    @inline(__always) final func stop() -> Bool {
        state.bitwiseOr(observerStoppedFlag, ordering: .acquiringAndReleasing).oldValue & observerStoppedFlag == 0
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
