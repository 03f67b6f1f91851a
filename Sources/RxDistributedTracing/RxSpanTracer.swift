import RxCore
import Synchronization
import Tracing

/// An `RxTracer` that makes each subscription a span of swift-distributed-tracing, and carries
/// the `ServiceContext` current at `subscribe` to every delivery of that subscription.
///
/// Install it with `RxDistributedTracing.install()` (docs/distributed-tracing.md). A subscription
/// is what a `subscribe(onNext:)`, `subscribe(_:)`, a `bind` through a closure, a `connect()` or
/// the inner subscription of `flatMap` & co. starts: one of the core's observers subscribing. Its
/// span
///
/// - is named by the operator chain and the call site: `Interval → Map → ObserveOn @ main.swift:12`
///   (the types as `rxtrace` shows them, from the source to the operator subscribed to, then where
///   `subscribe` was written);
/// - has the `ServiceContext` current at `subscribe` as its parent;
/// - lasts from `subscribe` to the first of: `completed`, `error` (recorded on the span, status
///   error), disposal, or the observer's release;
/// - carries `rx.elements` (elements delivered), `rx.end` (`completed`, `error`, `disposed`,
///   `released`, `uninstalled`), `rx.operators`, `rx.call_site`, `rx.observer` and `code.file.path`,
///   `code.line.number`.
///
/// Every delivery of the subscription runs with the context current at `subscribe` bound (the
/// span's parent, not the span: a subscription may live for the whole process), so a span made
/// in `onNext` is a child of the request that subscribed, on whatever thread the element arrives.
///
/// When a tracer is installed already (`RXTRACE`'s recorder), this one wraps it: every call goes
/// on to it as well, so the trace file is the same (recorded through the `RxTracer` protocol,
/// several times slower than the recorder's own fast path).
public final class RxSpanTracer: RxTracer, RxContextPropagation, @unchecked Sendable {
    /// The tracer this one wraps, which sees every call (nil: none).
    public let wrapped: (any RxTracer)?
    /// The tracer spans are started with: nil for `InstrumentationSystem.tracer`, looked up at
    /// each `subscribe` (so a `withTracer { … }` scope around `subscribe` is honoured).
    private let tracer: (any Tracer)?
    private let idBase: UInt64
    private let lastID = Atomic<UInt64>(0)
    private let state = Mutex(State())

    /// What spans are named and ended by, kept per node while the node lives.
    private struct State {
        /// Producers, other observables and subjects: their type, call site and first source.
        var observables: [UInt64: Observable] = [:]
        /// The core's observers that have not begun a subscription yet.
        var observers: [UInt64: Observer] = [:]
        /// Open spans by their observer, and by the disposable their `subscribe` returned.
        var byObserver: [UInt64: Subscription] = [:]
        var byDisposable: [UInt64: UInt64] = [:]
    }

    private struct Observable {
        var type: String
        var callSite: CallSite?
        var source: UInt64 = 0
    }

    private struct Observer {
        var type: String
        var callSite: CallSite?
    }

    /// One subscription: what its deliveries carry (the core keeps it as an opaque object), and
    /// its span while open.
    final class Subscription: @unchecked Sendable {
        let context: ServiceContext?
        let span: (any Span)?
        let observer: UInt64
        /// Guarded by the tracer's lock.
        var elements = 0

        init(context: ServiceContext?, span: (any Span)?, observer: UInt64) {
            self.context = context
            self.span = span
            self.observer = observer
        }
    }

    /// A tracer that starts spans with `tracer` (nil: `InstrumentationSystem.tracer`) and passes
    /// every call on to `wrapping` as well.
    public init(tracer: (any Tracer)? = nil, wrapping: (any RxTracer)? = nil) {
        self.tracer = tracer
        self.wrapped = wrapping
        self.idBase = wrapping == nil ? RxCore.Tracing.newIDBase() : 0
    }

    /// The subscriptions whose span is open.
    public var openSpans: Int { state.withLock { $0.byObserver.count } }

    /// Nodes this tracer keeps something of (observables, observers not yet subscribed, open spans):
    /// what tests check goes back to zero.
    public var retainedNodes: Int {
        state.withLock { $0.observables.count + $0.observers.count + $0.byObserver.count + $0.byDisposable.count }
    }

    // MARK: RxContextPropagation

    public var contextPropagation: (any RxContextPropagation)? { self }

    public func subscriptionBegins(observer: UInt64, observable: UInt64) -> AnyObject? {
        let parent = ServiceContext.current
        let found = state.withLock { state -> (Observer, String)? in
            guard let observerNode = state.observers.removeValue(forKey: observer) else { return nil }
            return (observerNode, Self.chain(from: observable, in: state.observables))
        }
        guard let (observerNode, chain) = found else {
            // Not one of the core's observers (or born before this tracer): carried, no span.
            return Subscription(context: parent, span: nil, observer: 0)
        }
        let site = observerNode.callSite ?? state.withLock { $0.observables[observable]?.callSite }
        let name = site.map { "\(chain) @ \($0)" } ?? chain
        let tracer = self.tracer ?? InstrumentationSystem.tracer
        let span = tracer.startSpan(
            name, context: parent ?? .topLevel, ofKind: .internal, at: DefaultTracerClock.now,
            function: "subscribe", file: site?.fileID ?? "", line: site?.line ?? 0)
        span.updateAttributes { attributes in
            attributes["rx.operators"] = chain
            attributes["rx.observer"] = observerNode.type
            if let site {
                attributes["rx.call_site"] = site.description
                attributes["code.file.path"] = site.fileID
                attributes["code.line.number"] = Int(site.line)
            }
        }
        let subscription = Subscription(context: parent, span: span, observer: observer)
        let previous = state.withLock { $0.byObserver.updateValue(subscription, forKey: observer) }
        if let previous { end(previous, "resubscribed") }
        return subscription
    }

    public func subscriptionReturned(_ context: AnyObject, disposable: UInt64) {
        let subscription = unsafeDowncast(context, to: Subscription.self)
        guard disposable != 0, subscription.span != nil else { return }
        state.withLock { state in
            // Only while open: a subscription that ended during `subscribe` keeps no entry.
            if state.byObserver[subscription.observer] === subscription {
                state.byDisposable[disposable] = subscription.observer
            }
        }
    }

    public func withContext(_ context: AnyObject, _ body: () -> Void) {
        let subscription = unsafeDowncast(context, to: Subscription.self)
        ServiceContext.$current.withValue(subscription.context, operation: body)
    }

    // MARK: Ending spans

    /// Ends the open span of `observer`, if any.
    private func end(observer: UInt64, _ reason: String, error: Swift.Error? = nil) {
        let subscription = state.withLock { state -> Subscription? in
            guard let subscription = state.byObserver.removeValue(forKey: observer) else { return nil }
            return subscription
        }
        if let subscription { end(subscription, reason, error: error) }
    }

    private func end(_ subscription: Subscription, _ reason: String, error: Swift.Error? = nil) {
        guard let span = subscription.span else { return }
        let elements = state.withLock { _ in subscription.elements }
        if let error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
        }
        span.updateAttributes { attributes in
            attributes["rx.elements"] = elements
            attributes["rx.end"] = reason
        }
        span.end()
    }

    /// Ends every open span (`rx.end` = `uninstalled`): the tracer is being uninstalled.
    func endAll() {
        let open = state.withLock { state -> [Subscription] in
            defer {
                state.byObserver.removeAll()
                state.byDisposable.removeAll()
            }
            return Array(state.byObserver.values)
        }
        for subscription in open { end(subscription, "uninstalled") }
    }

    /// `Interval → Map → ObserveOn`: the observable's first sources, from the first one.
    private static func chain(from observable: UInt64, in observables: [UInt64: Observable]) -> String {
        var names: [String] = []
        var current = observable
        while current != 0, let node = observables[current], names.count < 16 {
            names.append(node.type)
            current = node.source
        }
        if names.isEmpty { return "subscribe" }
        var parts = Array(names.reversed())
        if current != 0, observables[current] != nil { parts.insert("…", at: 0) }
        return parts.joined(separator: " → ")
    }

    // MARK: RxTracer

    public var recordsValues: Bool { wrapped?.recordsValues ?? false }

    public func node(kind: TraceNodeKind, type: String, callSite: CallSite?) -> UInt64 {
        let id =
            wrapped?.node(kind: kind, type: type, callSite: callSite)
            ?? idBase + lastID.wrappingAdd(1, ordering: .relaxed).newValue
        switch kind {
        case .producer, .observable, .subject:
            state.withLock { $0.observables[id] = Observable(type: type, callSite: callSite) }
        case .observer:
            state.withLock { $0.observers[id] = Observer(type: type, callSite: callSite) }
        case .sink, .disposable, .scheduled:
            break
        }
        return id
    }

    public func edge(from: UInt64, to: UInt64, relation: TraceRelation) {
        wrapped?.edge(from: from, to: to, relation: relation)
        guard relation == .source else { return }
        state.withLock { state in
            if state.observables[from]?.source == 0 { state.observables[from]?.source = to }
        }
    }

    public func step(_ call: TraceCall, from: UInt64, to: UInt64, detail: String?) {
        wrapped?.step(call, from: from, to: to, detail: detail)
    }

    public func event(node: UInt64, kind: TraceEventKind, value: String?) {
        wrapped?.event(node: node, kind: kind, value: value)
        received(kind, by: node)
    }

    public func disposed(_ node: UInt64) {
        wrapped?.disposed(node)
        let observer = state.withLock { state -> UInt64? in
            if state.byObserver[node] != nil { return node }
            return state.byDisposable.removeValue(forKey: node)
        }
        if let observer { end(observer: observer, "disposed") }
    }

    public func deinitialized(_ node: UInt64) {
        wrapped?.deinitialized(node)
        let open = state.withLock { state -> Bool in
            state.observables.removeValue(forKey: node)
            state.observers.removeValue(forKey: node)
            state.byDisposable.removeValue(forKey: node)
            return state.byObserver[node] != nil
        }
        if open { end(observer: node, "released") }
    }

    public func anomaly(node: UInt64, _ kind: TraceAnomaly, detail: String) {
        wrapped?.anomaly(node: node, kind, detail: detail)
    }

    public func forwarded(
        from sink: UInt64, to observer: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool
    ) {
        wrapped?.forwarded(from: sink, to: observer, kind: kind, value: value, recordEvent: recordEvent)
        // An observer of the user's own (a node the core made for it) records nothing itself.
        if recordEvent { received(kind, by: observer) }
    }

    public func received(_ call: TraceCall, node: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool) {
        wrapped?.received(call, node: node, kind: kind, value: value, recordEvent: recordEvent)
    }

    public func observed(node: UInt64, kind: TraceEventKind, value: String?) {
        wrapped?.observed(node: node, kind: kind, value: value)
        received(kind, by: node)
    }

    /// An event the observer `node` received: counted, or the end of its span.
    private func received(_ kind: TraceEventKind, by node: UInt64) {
        switch kind {
        case .next: countElement(node)
        case .completed: end(observer: node, "completed")
        case .error: end(observer: node, "error")
        }
    }

    public func observedError(node: UInt64, error: Swift.Error) {
        wrapped?.observedError(node: node, error: error)
        end(observer: node, "error", error: error)
    }

    public func forwardedNext<Element>(from sink: UInt64, to observer: UInt64, element: Element, recordEvent: Bool) {
        wrapped?.forwardedNext(from: sink, to: observer, element: element, recordEvent: recordEvent)
        if recordEvent { countElement(observer) }
    }

    public func receivedNext<Element>(_ call: TraceCall, node: UInt64, element: Element, recordEvent: Bool) {
        wrapped?.receivedNext(call, node: node, element: element, recordEvent: recordEvent)
    }

    public func observedNext<Element>(node: UInt64, element: Element) {
        wrapped?.observedNext(node: node, element: element)
        countElement(node)
    }

    public func callSite(of node: UInt64) -> CallSite? {
        wrapped?.callSite(of: node)
    }

    public func mark(_ kind: TraceMarkKind, name: String) {
        wrapped?.mark(kind, name: name)
    }

    private func countElement(_ observer: UInt64) {
        guard observer != 0 else { return }
        state.withLock { state in state.byObserver[observer]?.elements += 1 }
    }
}
