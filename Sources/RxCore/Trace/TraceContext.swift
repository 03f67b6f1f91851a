/// Carries a context (a request's trace context, say) from where a subscription is made to every
/// delivery of that subscription, whatever thread or callback the delivery comes from.
///
/// RxCore's addition: RxSwift has no such hook. The core knows nothing of what a context is;
/// a tracer that carries one returns it from `RxTracer.contextPropagation` (RxDistributedTracing
/// plugs swift-distributed-tracing's `ServiceContext` in), and the core then
///
/// - asks for the context when a subscription begins (`subscriptionBegins`): a subscription
///   that no other carries, made by a `subscribe(onNext:)`, a `bind`, a `connect()`, or the
///   inner subscriptions of `flatMap` & co. Everything subscribed as part of it (its operators'
///   own subscriptions upstream, also later ones: `subscribe(on:)`, `concat`, `retry`) carries the
///   same context;
/// - keeps it in the trace state of each sink and each subject subscriber of that subscription
///   (`TraceHop`), and binds it (`withContext`) around a delivery that comes from elsewhere: an
///   element a subject sends, a `create` callback, work scheduled by `observe(on:)`, `delay`, a
///   timer, another subscription's sink. Deliveries within one subscription on one thread bind it
///   once: the core remembers which context it bound on this thread.
///
/// All of it runs on the traced paths only (objects born while a tracer is installed), so with no
/// tracer installed it costs nothing, and with one that carries no context (`TraceRecorder`) one
/// load per traced hop.
public protocol RxContextPropagation: AnyObject, Sendable {
    /// A subscription begins on this thread: `observer` subscribes to `observable` (node ids; 0
    /// when not a node). Returns what its deliveries carry (the context current now), or nil.
    func subscriptionBegins(observer: UInt64, observable: UInt64) -> AnyObject?
    /// The `subscribe` that `subscriptionBegins` returned `context` for returned `disposable`
    /// (its node id; 0 when not a node). Called for producers only.
    func subscriptionReturned(_ context: AnyObject, disposable: UInt64)
    /// Runs `body` with `context` bound on this thread.
    func withContext(_ context: AnyObject, _ body: () -> Void)
}

extension RxContextPropagation {
    public func subscriptionReturned(_ context: AnyObject, disposable: UInt64) {}
}

/// What carries its subscription's context: a sink born while a context was bound.
protocol TraceContextCarrier: AnyObject {
    var traceContext: AnyObject? { get }
}

extension Sink: TraceContextCarrier {
    var traceContext: AnyObject? {
        let flags = self.flags.load(ordering: .relaxed)
        return flags & sinkTracedFlag != 0 ? sinkHop(flags).takeUnretainedValue().context : nil
    }
}

/// The core's side of `RxContextPropagation`.
enum TraceContext {
    /// The context of a subscribe that is starting: `began` when it begins a subscription of its own.
    struct Subscription {
        let context: AnyObject
        let began: Bool
    }

    /// The context `observer`'s subscription to `observable` carries, asking for a new one when
    /// it begins a subscription; nil when the installed tracer carries none. A subscribe belongs
    /// to the subscription of its observer when that is a sink which carries one, else to the one
    /// being made when it happens inside a producer's `run`; any other begins one.
    @inline(__always)
    static func subscribing<Observer>(
        _ observer: Observer, observer observerID: UInt64, observable: UInt64
    ) -> Subscription? {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { local in
            guard Tracing.refresh(local), local.carriesContext else { return nil }
            return subscribing(local, observer, observer: observerID, observable: observable)
        }
    }

    @inline(never)
    private static func subscribing<Observer>(
        _ local: TraceLocal, _ observer: Observer, observer observerID: UInt64, observable: UInt64
    ) -> Subscription? {
        guard let propagation = local.propagation else { return nil }
        if let carrier = observer as? TraceContextCarrier, let context = carrier.traceContext {
            return Subscription(context: context, began: false)
        }
        if let frame = RunContext.current, !frame.delivery {
            return local.context.map { Subscription(context: $0, began: false) }
        }
        return propagation.subscriptionBegins(observer: observerID, observable: observable).map {
            Subscription(context: $0, began: true)
        }
    }

    /// The context a hop born now carries: the one bound on this thread.
    static var forHop: AnyObject? {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { $0.carriesContext ? $0.context : nil }
    }

    /// `subscribe()` with `subscription`'s context bound, telling the tracer what a subscription
    /// that began here returned.
    static func subscribe(_ subscription: Subscription, _ subscribe: () -> Disposable) -> Disposable {
        let disposable = bound(subscription.context, subscribe)
        returned(subscription, disposable)
        return disposable
    }

    /// `subscribe()` with `context` bound.
    static func bound(_ context: AnyObject, _ subscribe: () -> Disposable) -> Disposable {
        var disposable: Disposable?
        bind(context) { disposable = subscribe() }
        return disposable.unsafelyUnwrapped
    }

    /// Tells the tracer what the `subscribe` of a subscription that began there returned.
    static func returned(_ subscription: Subscription, _ disposable: Disposable) {
        guard subscription.began, let propagation = TraceLocal.current.propagation else { return }
        propagation.subscriptionReturned(subscription.context, disposable: traceNodeID(of: disposable))
    }

    /// `body()` with `context` bound on this thread: at once when it is bound already.
    static func bind(_ context: AnyObject, _ body: () -> Void) {
        bind(TraceLocal.current, context, body)
    }

    @inline(__always)
    static func bind(_ local: TraceLocal, _ context: AnyObject, _ body: () -> Void) {
        guard context !== local.context, let propagation = local.propagation else { return body() }
        let previous = local.context
        local.context = context
        propagation.withContext(context, body)
        local.context = previous
    }
}
