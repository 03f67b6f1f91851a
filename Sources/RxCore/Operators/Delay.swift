import Foundation
import Synchronization

extension ObservableType {
    /// Shifts elements and completion `dueTime` later on `scheduler`; an error is passed on at
    /// once and drops what was still waiting (as in RxSwift).
    ///
    /// ```swift
    /// Observable.of(1, 2).delay(.seconds(1), scheduler: scheduler)   // both one second later
    /// ```
    public func delay(
        _ dueTime: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Delay(source: asObservable(), dueTime: dueTime, scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// Subscribes to the source `dueTime` later on `scheduler`.
    public func delaySubscription(
        _ dueTime: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        DelaySubscription(
            source: asObservable(), dueTime: dueTime, scheduler: scheduler, callSite: CallSite(file, line))
    }
}

// MARK: - delay

/// Meeting point of "the timer fired" and "the timer was parked under this key", in either
/// order, so a fired timer leaves the composite of pending timers.
private final class DelayTimerSlot {
    private let state = Mutex<(fired: Bool, key: CompositeDisposable.DisposeKey?)>((false, nil))

    func fire() -> CompositeDisposable.DisposeKey? {
        state.withLock { state in
            state.fired = true
            return state.key
        }
    }

    func park(_ key: CompositeDisposable.DisposeKey) -> Bool {
        state.withLock { state in
            if state.fired { return false }
            state.key = key
            return true
        }
    }
}

/// Each element and the completion get a timer of `dueTime`; the k-th timer to fire releases
/// the k-th waiting event, so events leave in arrival order even when timers on a concurrent
/// scheduler fire out of order. One thread at a time delivers (`draining`).
final class DelaySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private struct State {
        var waiting: [Event<Element>] = []
        var head = 0
        /// Timers fired whose event has not been delivered yet.
        var released = 0
        var error: Event<Element>?
        var draining = false
    }

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let state = Mutex(State())
    private let timers = CompositeDisposable()
    let sourceSubscription = SingleAssignmentDisposable()

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: Observer, cancel: Cancelable) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("DelaySink"))
    }

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, timers)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next, .completed:
            state.withLock { state in state.waiting.append(event) }
            startTimer()
            if event.isStopEvent { sourceSubscription.dispose() }
        case .error:
            sourceSubscription.dispose()
            update { state in
                state.error = event
                state.waiting.removeAll()
                state.head = 0
            }
        }
    }

    private func startTimer() {
        let slot = DelayTimerSlot()
        let timer = scheduler.scheduleRelative((), dueTime: dueTime) { [weak self] _ in
            guard let self else { return Disposables.create() }
            if let key = slot.fire() { self.timers.remove(for: key) }
            self.update { $0.released += 1 }
            return Disposables.create()
        }
        if let key = timers.insert(timer), !slot.park(key) {
            timers.remove(for: key)
        }
    }

    /// Applies `change`, then delivers what is due unless another thread is delivering already.
    private func update(_ change: (inout State) -> Void) {
        let start: Bool = state.withLock { state in
            change(&state)
            if state.draining { return false }
            state.draining = true
            return true
        }
        guard start else { return }
        while true {
            let next: Event<Element>? = state.withLock { state in
                if let error = state.error {
                    state.error = nil
                    return error
                }
                if state.released > 0 && state.head < state.waiting.count {
                    state.released -= 1
                    let event = state.waiting[state.head]
                    state.head += 1
                    if state.head == state.waiting.count {
                        state.waiting.removeAll(keepingCapacity: true)
                        state.head = 0
                    }
                    return event
                }
                state.draining = false
                return nil
            }
            guard let next else { return }
            forwardOn(next)
            if next.isStopEvent {
                dispose()
                return
            }
        }
    }
}

final class Delay<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType, callSite: CallSite?) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.named("Delay"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = DelaySink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - delaySubscription

final class DelaySubscriptionSink<Observer: ObserverType>: PassThroughSink<Observer> {
    init(observer: Observer, cancel: Cancelable) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("DelaySubscriptionSink"))
    }
}

final class DelaySubscription<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType, callSite: CallSite?) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.named("DelaySubscription"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = DelaySubscriptionSink(observer: observer, cancel: cancel)
        let subscription = SerialDisposable()
        subscription.disposable = scheduler.scheduleRelative((), dueTime: dueTime) { [source] _ in
            source.subscribe(sink)
        }
        return (sink: sink, subscription: subscription)
    }
}
