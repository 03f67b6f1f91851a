/// An observable that makes a fresh `Sink` for each subscriber (step6 of 001).
///
/// `subscribe` goes through the `CurrentThreadScheduler` trampoline, creates a `SinkDisposer`,
/// asks the subclass to `run` (which builds the sink and subscribes upstream), then hands the
/// sink and the upstream subscription to the disposer.
open class Producer<Element>: Observable<Element> {
    /// Where the operator was written, for traces.
    public let callSite: CallSite?

    public init(counter: __shared ResourceCounter? = nil, callSite: CallSite? = nil) {
        self.callSite = callSite
        super.init(kind: .producer, counter: counter, callSite: callSite)
    }

    open override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        if Tracing.isOn { return tracedSubscribe(observer) }
        // This thread's trampoline, read once (docs/architecture.md, "Per-thread state"), and
        // borrowed: its thread's slot holds it, so no retain and release per subscription.
        let trampoline = CurrentThreadScheduler.unmanagedTrampoline
        if !trampoline._withUnsafeGuaranteedRef({ $0.isScheduleRequired }) {
            return subscribeNow(observer)
        }
        // `schedule`, minus the escaping closure: the trampoline runs this at once.
        return trampoline._withUnsafeGuaranteedRef { $0.schedule { subscribeNow(observer) } }
    }

    @inline(__always)
    private func subscribeNow<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        // The returned disposable needs to release all references once it was disposed.
        let disposer = SinkDisposer.make(callSite: callSite)
        let (sink, subscription) = run(observer, cancel: disposer)
        disposer.setSinkAndSubscription(sink: consume sink, subscription: consume subscription)
        return disposer
    }

    /// Builds the sink for `observer` and subscribes it upstream (step5 of 001).
    open func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        fatalError("Producer.run must be overridden by \(type(of: self))")
    }
}
