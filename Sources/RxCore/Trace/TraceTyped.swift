/// The facts each of RxCore's traced types states (`TraceTyped`), beside the marker protocols
/// it conforms to: what the four casts of `TraceTypeFacts.findByCasts` would find. A debug build
/// checks each type's answer against those casts the first time a thread meets it.
/// An observable asks whether it is a subject, and a sink whether it is `create`'s (both
/// self-recording): class casts, which walk the superclasses and look no conformance up.
extension ObserverBase: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts { [.checksOwnOn, .recordsOwnEvents] }
}

extension Observable: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts {
        self is PublishSubject<Element>.Type || self is BehaviorSubject<Element>.Type
            || self is ReplaySubject<Element>.Type || self is AsyncSubject<Element>.Type ? .recordsOwnEvents : []
    }
}

extension Sink: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts {
        self is AnonymousObservableSink<Observer>.Type ? .recordsOwnEvents : []
    }
}

extension SinkDisposer: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts { [] }
}

extension ScheduledItem: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts { [] }
}

extension BinaryDisposable: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts { [] }
}

extension DisposeBase: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts { [] }
}

extension SubscriptionDisposable: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts { [] }
}

extension AnyObserver: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts { .standIn }
}

extension SinkForwarder: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts { .standIn }
}

extension ForeignSink: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts { .standIn }
}

extension DisposableBox: TraceTyped {
    static var traceOwnFacts: TraceTypeFacts { .standIn }
}
