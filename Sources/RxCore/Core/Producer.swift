/// An observable that makes a fresh `Sink` for each subscriber (step6 of 001).
///
/// `subscribe` goes through the `CurrentThreadScheduler` trampoline, creates a `SinkDisposer`,
/// asks the subclass to `run` (which builds the sink and subscribes upstream), then hands the
/// sink and the upstream subscription to the disposer.
open class Producer<Element>: Observable<Element> {
    /// Where the operator was written, for traces.
    public let callSite: CallSite?

    public init(counter: ResourceCounter? = nil, callSite: CallSite? = nil) {
        self.callSite = callSite
        super.init(kind: .producer, counter: counter, callSite: callSite)
    }

    open override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if traceID != 0, Tracing.isOn {
            traceStep(.subscribe, from: traceNodeID(of: observer), to: traceID, "subscribe(\(Tracing.displayID(traceNodeID(of: observer))))")
        }
        if !CurrentThreadScheduler.isScheduleRequired {
            return subscribeNow(observer)
        } else {
            if traceID != 0 { traceStep(.schedule, from: traceID, to: 0, "CurrentThreadScheduler") }
            return CurrentThreadScheduler.instance.schedule(()) { _ in
                self.subscribeNow(observer)
            }
        }
    }

    @inline(__always)
    private func subscribeNow<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        // The returned disposable needs to release all references once it was disposed.
        let disposer = SinkDisposer(callSite: callSite)
        if Tracing.isOn {
            return tracedSubscribeNow(observer, disposer: disposer)
        }
        let sinkAndSubscription = run(observer, cancel: disposer)
        disposer.setSinkAndSubscription(sink: sinkAndSubscription.sink, subscription: sinkAndSubscription.subscription)
        return disposer
    }

    /// `subscribeNow` while tracing: the steps `init` (of the disposer), `run` and
    /// `setSinkAndSubscription`, and the run context that gives the sink its `run` edge.
    @inline(never)
    private func tracedSubscribeNow<Observer: ObserverType>(_ observer: Observer, disposer: SinkDisposer) -> Disposable where Observer.Element == Element {
        let traced = traceID != 0
        if traced {
            let observerID = traceNodeID(of: observer)
            traceStep(.`init`, from: traceID, to: disposer.traceID, "SinkDisposer")
            traceStep(.run, from: traceID, to: traceID, "run(observer: \(Tracing.displayID(observerID)), cancel: \(Tracing.displayID(disposer.traceID)))")
        }
        RunContext.push(producer: traceID, callSite: callSite)
        let sinkAndSubscription = run(observer, cancel: disposer)
        RunContext.pop()
        if traced {
            let sinkID = traceNodeID(of: sinkAndSubscription.sink)
            let subscriptionID = traceNodeID(of: sinkAndSubscription.subscription)
            traceStep(.setSinkAndSubscription, from: traceID, to: disposer.traceID, "sink: \(Tracing.displayID(sinkID)), subscription: \(Tracing.displayID(subscriptionID))")
        }
        disposer.setSinkAndSubscription(sink: sinkAndSubscription.sink, subscription: sinkAndSubscription.subscription)
        return disposer
    }

    /// Builds the sink for `observer` and subscribes it upstream (step5 of 001).
    open func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        fatalError("Producer.run must be overridden by \(type(of: self))")
    }
}

/// While a producer runs, which producer it is: sinks born inside `run` take its call site and
/// get their `run` edge from it. Touched only when tracing is on.
enum RunContext {
    private final class Stack {
        var frames: [(producer: UInt64, callSite: CallSite?)] = []
    }

    private static let stack = ThreadLocal<Stack> { Stack() }

    static func push(producer: UInt64, callSite: CallSite?) {
        stack.value.frames.append((producer, callSite))
    }

    static func pop() {
        _ = stack.value.frames.popLast()
    }

    static var current: (producer: UInt64, callSite: CallSite?)? {
        stack.value.frames.last
    }
}
