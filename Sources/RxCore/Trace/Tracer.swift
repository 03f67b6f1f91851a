import Synchronization

/// What a trace node is, in the documents' vocabulary.
public enum TraceNodeKind: String, Sendable, CaseIterable, Codable {
    /// An operator observable built on a `Producer` (`AnonymousObservable`, `Map`, …).
    case producer
    /// Any other observable (a user's `ObservableType`, a connectable, …).
    case observable
    /// A subject or relay: observer and observable at once.
    case subject
    /// A `Sink`: the per-subscription worker a producer's `run` makes.
    case sink
    /// A terminal observer (`AnonymousObserver`, a `Binder`, a test observer).
    case observer
    /// A disposable: `SinkDisposer`, composites, the bag.
    case disposable
    /// A unit of work handed to a scheduler.
    case scheduled
}

/// How two trace nodes are related.
public enum TraceRelation: String, Sendable, CaseIterable, Codable {
    /// operator observable → the observable it was built on.
    case source
    /// producer → the sink its `run` made.
    case run
    /// sink → the observer it forwards events to.
    case forward
    /// disposer → what it disposes (sink, subscription).
    case owns
    /// observer → the subject or relay it listens to.
    case subscribes
}

/// The calls of the subscribe flow, as the documents number them (step1…step9).
public enum TraceCall: String, Sendable, CaseIterable, Codable {
    case subscribe
    case schedule
    case run
    case `init`
    case handler
    case on
    case forwardOn
    case onCore
    case setSinkAndSubscription
    case dispose
}

/// The three kinds of `Event`.
public enum TraceEventKind: String, Sendable, CaseIterable, Codable {
    case next, error, completed
}

/// Breaches of the Rx grammar or threading rules, recorded on the node where they happened.
public enum TraceAnomaly: String, Sendable, CaseIterable, Codable {
    /// An event arrived after `error` or `completed`.
    case eventAfterTermination
    /// Two threads were inside `on` of one observer at once.
    case concurrentOn
    /// `on` was called again from inside `on` of the same observer.
    case reentrantOn
}

/// The core's one tracing hook. RxTrace's recorder implements it; the core calls it only
/// while a tracer is installed, so with none installed a traced point costs one branch.
///
/// Node ids are handed out by the tracer and are never 0 (0 means "not traced").
public protocol RxTracer: AnyObject, Sendable {
    /// A node was born. Returns its id.
    func node(kind: TraceNodeKind, type: String, callSite: CallSite?) -> UInt64
    /// An edge between two nodes.
    func edge(from: UInt64, to: UInt64, relation: TraceRelation)
    /// One call of the subscribe flow, from caller node to callee node (0 = user code).
    func step(_ call: TraceCall, from: UInt64, to: UInt64, detail: String?)
    /// An event delivered to `node`'s `on`.
    func event(node: UInt64, kind: TraceEventKind, value: String?)
    /// The node was disposed.
    func disposed(_ node: UInt64)
    /// The node was deinitialised.
    func deinitialized(_ node: UInt64)
    /// A grammar or threading anomaly on `node`.
    func anomaly(node: UInt64, _ kind: TraceAnomaly, detail: String)
}

/// Installation point of the tracer. Kept apart from `Hooks` so that reading it is one relaxed
/// atomic load on the hot path.
public enum Tracing {
    @usableFromInline
    static let enabled = Atomic<Bool>(false)
    private static let current = Mutex<(any RxTracer)?>(nil)

    /// The installed tracer, if any. Installing one starts recording in every thread.
    public static var tracer: (any RxTracer)? {
        get { current.withLock { $0 } }
        set {
            current.withLock { $0 = newValue }
            enabled.store(newValue != nil, ordering: .releasing)
        }
    }

    /// True while a tracer is installed (always false when built with `RX_NO_TRACE`).
    @inline(__always)
    public static var isOn: Bool {
        #if RX_NO_TRACE
        return false
        #else
        return enabled.load(ordering: .relaxed)
        #endif
    }

    /// The tracer when tracing is on: `if let t = Tracing.active { … }`.
    @inline(__always)
    public static var active: (any RxTracer)? {
        isOn ? tracer : nil
    }
}

/// Lets the core ask any observer for its trace node, when it has one.
public protocol TraceIdentifiable: AnyObject {
    var traceID: UInt64 { get }
}

@inline(__always)
func traceNodeID(of object: Any) -> UInt64 {
    (object as? TraceIdentifiable)?.traceID ?? 0
}
