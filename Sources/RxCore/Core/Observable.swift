/// The base class of every sequence (step1 of 001). Subclasses implement `subscribe`;
/// most of them do it by being a `Producer`.
open class Observable<Element>: ObservableType, TraceIdentifiable {
    // Not retained: counters live as long as the process (the registry holds them).
    let resourceCounter: Unmanaged<ResourceCounter>
    /// Trace node id (0 when not traced).
    public let traceID: UInt64

    /// Counts the new observable and, when tracing, records it as a node.
    public init(kind: TraceNodeKind = .observable, counter: __shared ResourceCounter? = nil, callSite: CallSite? = nil)
    {
        let counter = counter ?? ResourceCounter.named("Observable")
        self.resourceCounter = Unmanaged.passUnretained(counter)
        self.traceID = rxBirth(counter, kind, callSite)
    }

    deinit { rxDeath(resourceCounter, traceID) }

    /// Subscribes `observer`. Subclasses override it.
    open func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("Observable.subscribe must be overridden by \(type(of: self))")
    }

    /// Itself. (Open so that a subclass standing for something else, such as RxTesting's
    /// testable observables, can hide behind a wrapper as RxSwift's do.)
    open func asObservable() -> Observable<Element> { self }
}

extension Observable {
    /// Records the `source` edge from this operator to the observable it was built on.
    @inline(__always)
    func traceSource<Source>(_ source: Source) {
        if traceID != 0 { traceEdge(traceID, traceNodeID(of: source), .source) }
    }
}
