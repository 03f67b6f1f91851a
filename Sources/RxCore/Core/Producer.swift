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
        if Tracing.isOn {
            traceStep(.subscribe, from: traceNodeID(of: observer), to: traceID)
        }
        if !CurrentThreadScheduler.isScheduleRequired {
            return subscribeNow(observer)
        } else {
            traceStep(.schedule, from: traceID, to: 0, "CurrentThreadScheduler")
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
            RunContext.push(producer: traceID, callSite: callSite)
            traceStep(.run, from: traceID, to: traceID, "cancel: SinkDisposer")
        }
        let sinkAndSubscription = run(observer, cancel: disposer)
        if Tracing.isOn { RunContext.pop() }
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
