import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// Work queued on the `CurrentThreadScheduler` because other work runs (000's
    /// `queue.value.enqueue(scheduledItem)`): the queued work — a sequence's sink queueing its
    /// next element, a `ScheduledItem` — → the scheduler (0; the detail names it and how much
    /// waits).
    case enqueue
    /// The trampoline takes the oldest queued work and runs it (000's `queue.value.dequeue()`):
    /// the scheduler (0) → the work.
    case dequeue
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

/// The core's one tracing hook: the core calls it only while a tracer is installed, so with
/// none installed a trace point costs one branch.
///
/// The built-in `TraceRecorder` is the fast path. When it is the installed tracer, the
/// per-element hooks call it directly (`TraceHook`: no existential dispatch, no retain, code
/// specialised where the caller is) and it keeps a traced call as one record (a 40-byte slot
/// for a one-word element), its elements as their bytes. Any other tracer gets every call through this protocol, each
/// element described as text as it happens: it sees the same calls, at several times the cost.
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
    /// `sink` forwarded an event to `observer` (`Sink.forwardOn`): the step `forwardOn`, and the
    /// event on `observer` when `recordEvent` (false when the observer records its own events).
    func forwarded(from sink: UInt64, to observer: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool)
    /// `node` received an event through `call` (`on`, `onCore`) other than by a sink's
    /// `forwardOn`: the step, from the sink or subject whose delivery to `node` is under way
    /// (0, user code, when none is), and, when `recordEvent`, the event on `node`.
    func received(_ call: TraceCall, node: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool)
    /// `node` (an `ObserverBase`) received an event: the steps `on` and `onCore` and the event.
    func observed(node: UInt64, kind: TraceEventKind, value: String?)
    /// `forwarded` of `next(element)`, given the element itself: a recorder may keep a copy of
    /// it and describe it only when the trace is read. The default describes it now.
    func forwardedNext<Element>(from sink: UInt64, to observer: UInt64, element: Element, recordEvent: Bool)
    /// `received` of `next(element)`, given the element itself (see `forwardedNext`).
    func receivedNext<Element>(_ call: TraceCall, node: UInt64, element: Element, recordEvent: Bool)
    /// `observed` of `next(element)`, given the element itself (see `forwardedNext`).
    func observedNext<Element>(node: UInt64, element: Element)
    /// The call site `node` was born with, when known.
    func callSite(of node: UInt64) -> CallSite?
    /// Whether the tracer keeps values: when false the core passes nil instead of describing
    /// each element (a graph-only recording).
    var recordsValues: Bool { get }
    /// `observed` of `error(error)`, given the error itself (a span records it). The default
    /// describes it.
    func observedError(node: UInt64, error: Swift.Error)
    /// What carries a context to the deliveries of each subscription while this tracer is
    /// installed (Trace/TraceContext.swift); nil, the default, for none.
    var contextPropagation: (any RxContextPropagation)? { get }
    /// A point of the run the program marked (`Tracing.mark`: a test starts or ends).
    func mark(_ kind: TraceMarkKind, name: String)
}

extension RxTracer {
    /// The call site `node` was born with, if the tracer keeps it (the core gives a
    /// subscription's nodes the call site of the observer that started it).
    public func callSite(of node: UInt64) -> CallSite? { nil }

    public var recordsValues: Bool { true }

    public func observedError(node: UInt64, error: Swift.Error) {
        observed(node: node, kind: .error, value: recordsValues ? String(describing: error) : nil)
    }

    public var contextPropagation: (any RxContextPropagation)? { nil }

    public func forwardedNext<Element>(from sink: UInt64, to observer: UInt64, element: Element, recordEvent: Bool) {
        forwarded(
            from: sink, to: observer, kind: .next, value: recordsValues ? traceDescription(element) : nil,
            recordEvent: recordEvent)
    }

    public func receivedNext<Element>(_ call: TraceCall, node: UInt64, element: Element, recordEvent: Bool) {
        received(
            call, node: node, kind: .next, value: recordsValues ? traceDescription(element) : nil,
            recordEvent: recordEvent)
    }

    public func observedNext<Element>(node: UInt64, element: Element) {
        observed(node: node, kind: .next, value: recordsValues ? traceDescription(element) : nil)
    }

    /// Composed from `received`; recorders override it to take one lock.
    public func observed(node: UInt64, kind: TraceEventKind, value: String?) {
        received(.on, node: node, kind: kind, value: value, recordEvent: true)
        received(.onCore, node: node, kind: kind, value: value, recordEvent: false)
    }

    /// Composed from `step` and `event`; recorders override it to take one lock.
    public func forwarded(
        from sink: UInt64, to observer: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool
    ) {
        step(.forwardOn, from: sink, to: observer, detail: TraceEventKind.describe(kind, value))
        if recordEvent, observer != 0 { event(node: observer, kind: kind, value: value) }
    }

    /// Composed from `step` and `event`; recorders override it to take one lock.
    public func received(_ call: TraceCall, node: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool) {
        step(
            call, from: RunContext.caller(of: node, TraceLocal.current), to: node,
            detail: TraceEventKind.describe(kind, value))
        if recordEvent { event(node: node, kind: kind, value: value) }
    }
}

extension RxTracer {
    /// `forwarded` of `event`, through `forwardedNext` for an element.
    @inline(__always)
    func forwarded<Element>(from sink: UInt64, to observer: UInt64, event: Event<Element>, recordEvent: Bool) {
        if case .next(let element) = event {
            forwardedNext(from: sink, to: observer, element: element, recordEvent: recordEvent)
        } else {
            forwarded(
                from: sink, to: observer, kind: event.traceKind, value: recordsValues ? event.traceValue : nil,
                recordEvent: recordEvent)
        }
    }

    /// `received` of `event`, through `receivedNext` for an element.
    @inline(__always)
    func received<Element>(_ call: TraceCall, node: UInt64, event: Event<Element>, recordEvent: Bool) {
        if case .next(let element) = event {
            receivedNext(call, node: node, element: element, recordEvent: recordEvent)
        } else {
            received(
                call, node: node, kind: event.traceKind, value: recordsValues ? event.traceValue : nil,
                recordEvent: recordEvent)
        }
    }

    /// `observed` of `event`, through `observedNext` for an element and `observedError` for an error.
    @inline(__always)
    func observed<Element>(node: UInt64, event: Event<Element>) {
        switch event {
        case .next(let element): observedNext(node: node, element: element)
        case .error(let error): observedError(node: node, error: error)
        case .completed: observed(node: node, kind: .completed, value: nil)
        }
    }
}

extension TraceEventKind {
    /// `next(3)`, `error(…)`, `completed`: an event as `Event` prints it.
    public static func describe(_ kind: TraceEventKind, _ value: String?) -> String {
        switch kind {
        case .next: return "next(\(value ?? ""))"
        case .error: return "error(\(value ?? ""))"
        case .completed: return "completed"
        }
    }
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
            current.withLock { current in
                current = newValue
                installCount.wrappingAdd(1, ordering: .releasing)
            }
            enabled.store(newValue != nil, ordering: .releasing)
            // This thread's cache lets go of the old tracer now; other threads' caches do at
            // their next traced call (or when they exit).
            if let local = TraceLocal.existing {
                local.tracer = nil
                local.recorder = nil
                local.propagation = nil
                local.carriesContext = false
                local.tracerInstall = .max
            }
        }
    }

    /// Bumped at every install (`tracer = …`), so each thread's cached tracer can be checked with one load.
    private static let installCount = Atomic<UInt64>(0)

    /// The installed tracer through a per-thread cache (`TraceLocal`): an atomic load and a
    /// thread-local read instead of a lock, on the paths that run for every traced event.
    @inline(__always)
    static var cachedTracer: (any RxTracer)? {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { cachedTracer($0) }
    }

    /// `cachedTracer`, given this thread's state.
    @inline(__always)
    static func cachedTracer(_ local: TraceLocal) -> (any RxTracer)? {
        _ = refresh(local)
        return local.tracer
    }

    /// Brings this thread's cached tracer up to date (one atomic load when it is); true when a
    /// tracer is installed. The per-element hooks then use `local.recorder` or `local.tracer`.
    @inline(__always)
    static func refresh(_ local: TraceLocal) -> Bool {
        let current = installCount.load(ordering: .acquiring)
        if local.tracerInstall != current { reload(local, current) }
        return local.tracerInstall != .max
    }

    @inline(never)
    private static func reload(_ local: TraceLocal, _ current: UInt64) {
        let installed = tracer
        local.tracer = installed
        local.recorder = (installed as? TraceRecorder).map { Unmanaged.passUnretained($0) }
        local.propagation = installed?.contextPropagation
        local.carriesContext = local.propagation != nil
        // `.max` marks "none installed" for `refresh` (the counter never gets there).
        local.tracerInstall = installed == nil ? .max : current
    }

    /// False in a build with the hooks compiled out (`RXANATOMY_NO_TRACE=1`, for benchmarks).
    public static var hooksCompiledIn: Bool {
        #if RX_NO_TRACE
        return false
        #else
        return true
        #endif
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
        isOn ? cachedTracer : nil
    }

    // MARK: Node id spaces

    /// Node ids carry the generation of the tracer that issued them in their high bits, so an
    /// object born under an earlier recorder is never mistaken for a node of the current one.
    /// `displayID` is the id as a trace file and `debug()` print it.
    public static var generationShift: UInt64 { 40 }

    private static let generations = Atomic<UInt64>(0)

    /// A fresh id space for a new tracer: ids are `base + 1`, `base + 2`, …
    public static func newIDBase() -> UInt64 {
        let generation = generations.wrappingAdd(1, ordering: .relaxed).newValue
        return generation << generationShift
    }

    /// The id of a node as a trace file shows it (the tracer's generation removed).
    @inline(__always)
    public static func displayID(_ id: UInt64) -> UInt64 {
        id & ((1 << generationShift) - 1)
    }
}

/// The thread an event happened on, as a small number (names are kept in `TraceThreads.name(of:)`).
public enum TraceThreads {
    private static let names = Mutex<[String]>([])

    @inline(never)
    private static func register(_ local: TraceLocal) -> UInt32 {
        let name: String
        if Thread.isMainThread {
            name = "main"
        } else if let given = Thread.current.name, !given.isEmpty {
            name = given
        } else {
            name = ""
        }
        let index = names.withLock { names in
            let index = UInt32(names.count)
            names.append(name == "main" ? name : name.isEmpty ? "thread-\(index)" : "thread-\(index) (\(name))")
            return index
        }
        local.threadIndex = index
        return index
    }

    /// This thread's number (registered on first use).
    @inline(__always)
    public static var current: UInt32 { TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { current($0) } }

    /// This thread's number, given this thread's state.
    @inline(__always)
    static func current(_ local: TraceLocal) -> UInt32 {
        let index = local.threadIndex
        return index != .max ? index : register(local)
    }

    /// The name of thread number `index`: `main`, or `thread-N` followed by the thread's own
    /// name in parentheses when it has one (names alone are not unique).
    public static func name(of index: UInt32) -> String {
        names.withLock { Int(index) < $0.count ? $0[Int(index)] : "thread-\(index)" }
    }
}

/// The virtual clock a `VirtualTimeScheduler` publishes while it runs work on this thread, so
/// trace events carry virtual time under a `TestScheduler`. Touched only when tracing is on.
public enum TraceClock {
    /// The virtual time published on this thread, if a virtual time scheduler is running here.
    public static var virtualNow: Double? {
        guard let local = TraceLocal.existing, local.virtualDepth > 0 else { return nil }
        return local.virtualNow
    }

    /// A virtual time scheduler starts running on this thread; returns the time to restore.
    static func enter(_ time: Double) -> Double {
        let local = TraceLocal.current
        let previous = local.virtualNow
        local.virtualDepth += 1
        local.virtualNow = time
        return previous
    }

    static func set(_ time: Double) { TraceLocal.current.virtualNow = time }

    static func leave(restoring previous: Double) {
        let local = TraceLocal.current
        local.virtualDepth -= 1
        local.virtualNow = previous
    }

    /// A virtual time as seconds-like number: integers as themselves, `Date`s as seconds.
    static func number<T>(_ time: T) -> Double {
        switch time {
        case let value as Int: return Double(value)
        case let value as Double: return value
        case let value as any BinaryInteger: return Double(value)
        case let value as any BinaryFloatingPoint: return Double(value)
        case let value as Date: return value.timeIntervalSince1970
        default: return 0
        }
    }
}

/// Lets the core ask any observer for its trace node, when it has one.
public protocol TraceIdentifiable: AnyObject {
    var traceID: UInt64 { get }
}

/// Values that stand for a traced object without being one (`AnyObserver`, a sink's forwarder).
protocol TraceStandIn {
    var traceTargetID: UInt64 { get }
    var traceTargetRecordsOwnEvents: Bool { get }
    var traceTargetChecksOwnOn: Bool { get }
}

extension TraceStandIn {
    var traceTargetChecksOwnOn: Bool { false }
}

/// Observers that check their own `on` calls for overlaps (`ObserverBase`), so a hop into one
/// does not check a second time.
protocol TraceSelfChecking: AnyObject {}

/// Observers that record the events they receive themselves (`ObserverBase`, subjects,
/// `AnonymousObservableSink`), so `forwardOn` must not record them a second time.
protocol TraceSelfRecording: AnyObject {}

/// RxCore's own traced types, which state their `TraceTypeFacts` themselves: one conformance
/// lookup (`as? TraceTyped`) answers what four casts asked. The first lookup of a type for a
/// protocol scans every conformance record the process loaded (some 190,000 instructions), so a
/// traced program's first subscription paid some 60 of them; a type that is not `TraceTyped`
/// (a user's `TraceIdentifiable`, `TestableObserver`) is still asked by the four casts.
/// A subclass that adds a marker protocol is told apart by a class cast (subjects,
/// `AnonymousObservableSink`).
protocol TraceTyped {
    /// The type's facts but `.identifiable`, which `traceIdentified` tells.
    static var traceOwnFacts: TraceTypeFacts { get }
    /// The value as a `TraceIdentifiable` (its conformance known statically), or nil.
    var traceIdentified: (any TraceIdentifiable)? { get }
}

extension TraceTyped {
    var traceIdentified: (any TraceIdentifiable)? { nil }
}

extension TraceTyped where Self: TraceIdentifiable {
    var traceIdentified: (any TraceIdentifiable)? { self }
}

/// What tracing asks of a value's type, found by casts once per type on each thread (kept in
/// `TraceLocal`): a cast that fails walks the class and all its superclasses, and a traced
/// subscription asks these of each observer and disposable it meets.
struct TraceTypeFacts: OptionSet {
    let rawValue: UInt8
    static let identifiable = TraceTypeFacts(rawValue: 1 << 0)
    static let standIn = TraceTypeFacts(rawValue: 1 << 1)
    static let checksOwnOn = TraceTypeFacts(rawValue: 1 << 2)
    static let recordsOwnEvents = TraceTypeFacts(rawValue: 1 << 3)

    /// What `find` learns of a type: its facts, and its `TraceIdentifiable` witness table.
    struct Found {
        var facts: TraceTypeFacts
        var identifiable: UnsafeRawPointer?
    }

    /// The facts of `value`'s dynamic type.
    @inline(__always)
    static func of(_ value: Any) -> TraceTypeFacts {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            TraceTypeFacts(rawValue: local.typeFactValues[entry(of: value, local)])
        }
    }

    /// The index of the entry of `value`'s dynamic type in `local`'s table.
    @inline(__always)
    static func entry(of value: Any, _ local: TraceLocal) -> Int {
        local.typeFactEntry(UInt(bitPattern: ObjectIdentifier(type(of: value)))) { find(value) }
    }

    @inline(never)
    private static func find(_ value: Any) -> Found {
        guard let typed = value as? TraceTyped else { return findByCasts(value) }
        var found = Found(facts: type(of: typed).traceOwnFacts, identifiable: nil)
        if let identified = typed.traceIdentified {
            found.facts.insert(.identifiable)
            found.identifiable = unsafeBitCast(identified, to: (UnsafeRawPointer, UnsafeRawPointer).self).1
        }
        assert(found.facts == findByCasts(value).facts, "\(type(of: value)) states other trace facts than it has")
        return found
    }

    /// The facts of `value`'s type asked by casts, one lookup for each protocol.
    static func findByCasts(_ value: Any) -> Found {
        var found = Found(facts: [], identifiable: nil)
        if let identified = value as? TraceIdentifiable {
            found.facts.insert(.identifiable)
            // A class-bound existential is the instance and the witness table, in that order.
            found.identifiable = unsafeBitCast(identified, to: (UnsafeRawPointer, UnsafeRawPointer).self).1
        }
        // No stand-in is identifiable (`AnyObserver`, `SinkForwarder`, `DisposableBox`): for an
        // identifiable type the lookup, a scan of every conformance the process loaded the first
        // time a type is asked, is skipped.
        if found.identifiable == nil, value is TraceStandIn { found.facts.insert(.standIn) }
        if value is TraceSelfChecking { found.facts.insert(.checksOwnOn) }
        if value is TraceSelfRecording { found.facts.insert(.recordsOwnEvents) }
        return found
    }
}

/// The trace id of `object`: its own (`TraceIdentifiable`), the one it stands for
/// (`TraceStandIn`), else 0.
///
/// A traced subscribe + dispose asks this of some 20 objects, most of them given as `Any` or
/// `any Disposable`. `as? TraceIdentifiable` looks the conformance up in the runtime's tables
/// (walking the class and its superclasses) at every call; the type's witness table, found
/// once per type and thread with its facts, gives the same `traceID` without the lookup. An
/// `Any` holding a class reference keeps it in its first word and the class it was stored as
/// (the instance's own, or a superclass: `Observable<Int>` for a `Map`) in its fourth, whose
/// metadata starts with the kind 0 (the layouts of Swift's stable ABI); any other `Any` with an
/// identifiable type in it (one existential inside another) is cast as before.
@inline(__always)
func traceNodeID(of object: Any) -> UInt64 {
    TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { traceNodeID(of: object, in: $0) }
}

@inline(__always)
private func traceNodeID(of object: Any, in local: TraceLocal) -> UInt64 {
    let entry = TraceTypeFacts.entry(of: object, local)
    let facts = TraceTypeFacts(rawValue: local.typeFactValues[entry])
    if let witnesses = local.typeFactWitnesses[entry] {
        let id: UInt64? = withUnsafePointer(to: object) { container in
            let words = UnsafeRawPointer(container).assumingMemoryBound(to: UInt.self)
            guard let stored = UnsafePointer<UInt>(bitPattern: words[3]), stored.pointee == 0,
                let instance = UnsafeRawPointer(bitPattern: words[0])
            else { return nil }
            return unsafeBitCast((instance, witnesses), to: (any TraceIdentifiable).self).traceID
        }
        if let id { return id }
        if let identified = object as? TraceIdentifiable { return identified.traceID }
    }
    if facts.contains(.standIn), let standIn = object as? TraceStandIn { return standIn.traceTargetID }
    return 0
}

/// Whether `observer` checks its own `on` calls for overlaps.
func traceChecksOwnOn(_ observer: Any) -> Bool {
    let facts = TraceTypeFacts.of(observer)
    if facts.contains(.checksOwnOn) { return true }
    if facts.contains(.standIn), let standIn = observer as? TraceStandIn { return standIn.traceTargetChecksOwnOn }
    return false
}

/// Whether events forwarded to `observer` are recorded by `observer` itself.
@inline(__always)
func traceRecordsOwnEvents(_ observer: Any) -> Bool {
    let facts = TraceTypeFacts.of(observer)
    if facts.contains(.recordsOwnEvents) { return true }
    if facts.contains(.standIn), let standIn = observer as? TraceStandIn { return standIn.traceTargetRecordsOwnEvents }
    return false
}

/// The per-element hooks as the core's hot paths call them, given this thread's state after
/// `Tracing.refresh(local)` said a tracer is installed: straight into the `TraceRecorder` when
/// that is the tracer (a direct call, specialised for the element type, with no retain),
/// through the `RxTracer` protocol otherwise.
enum TraceHook {
    @inline(__always)
    static func forwardedNext<Element>(
        _ local: TraceLocal, from sink: UInt64, to observer: UInt64, element: Element, recordEvent: Bool,
        form: TraceElementForm = .unknown
    ) {
        if let recorder = local.recorder {
            recorder._withUnsafeGuaranteedRef {
                $0.forwardedNext(
                    local, from: sink, to: observer, element: element, recordEvent: recordEvent, form: form)
            }
        } else if let tracer = local.tracer {
            tracer.forwardedNext(from: sink, to: observer, element: element, recordEvent: recordEvent)
        }
    }

    @inline(__always)
    static func receivedNext<Element>(
        _ local: TraceLocal, _ call: TraceCall, node: UInt64, element: Element, recordEvent: Bool
    ) {
        if let recorder = local.recorder {
            recorder._withUnsafeGuaranteedRef {
                $0.receivedNext(local, call, node: node, element: element, recordEvent: recordEvent)
            }
        } else if let tracer = local.tracer {
            tracer.receivedNext(call, node: node, element: element, recordEvent: recordEvent)
        }
    }

    /// `receivedNext(.on, node:…)` then `forwardedNext(from: node, …)`: a sink's own `on` and
    /// the `forwardOn` it does next, which the recorder keeps as one record.
    @inline(__always)
    static func receivedAndForwardedNext<Element>(
        _ local: TraceLocal, node: UInt64, to observer: UInt64, element: Element, recordEvent: Bool,
        form: TraceElementForm = .unknown
    ) {
        if let recorder = local.recorder {
            recorder._withUnsafeGuaranteedRef {
                $0.receivedAndForwardedNext(
                    local, node: node, to: observer, element: element, recordEvent: recordEvent, form: form)
            }
        } else if let tracer = local.tracer {
            tracer.receivedNext(.on, node: node, element: element, recordEvent: true)
            tracer.forwardedNext(from: node, to: observer, element: element, recordEvent: recordEvent)
        }
    }

    /// The `forwardOn` a sink left to the observer `node` (`TraceHop.mergesObserved`), then
    /// `node`'s `on`: one record with the recorder.
    @inline(__always)
    static func forwardedObservedNext<Element>(_ local: TraceLocal, node: UInt64, element: Element) {
        if let recorder = local.recorder {
            recorder._withUnsafeGuaranteedRef { $0.forwardedObservedNext(local, node: node, element: element) }
        } else {
            forwardedBeforeDelivery(local, node: node, element: element)
            observedNext(local, node: node, element: element)
        }
    }

    /// The `forwardOn` a sink left to the observer `node`, alone: the observer had stopped.
    @inline(never)
    static func forwardedBeforeDelivery<Element>(_ local: TraceLocal, node: UInt64, element: Element) {
        if let recorder = local.recorder {
            recorder._withUnsafeGuaranteedRef { $0.forwardedBeforeDelivery(local, node: node, element: element) }
        } else if let tracer = local.tracer {
            tracer.forwardedNext(
                from: RunContext.caller(of: node, local), to: node, element: element, recordEvent: false)
        }
    }

    @inline(__always)
    static func observedNext<Element>(_ local: TraceLocal, node: UInt64, element: Element) {
        if let recorder = local.recorder {
            recorder._withUnsafeGuaranteedRef { $0.observedNext(local, node: node, element: element) }
        } else if let tracer = local.tracer {
            tracer.observedNext(node: node, element: element)
        }
    }
}
