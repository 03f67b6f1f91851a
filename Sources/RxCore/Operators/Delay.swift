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

/// RxSwift's delay: one timer at a time. Events wait in a queue stamped with the time they
/// arrived; the timer delivers the head, then is set again for the next one, `dueTime` after
/// that one arrived. Events that arrived together therefore leave one scheduling step apart
/// (on a `TestScheduler`, one tick: `Single.just(1).delay(.seconds(2))` subscribed at 200 sends
/// `next(1)` at 202 and `completed` at 203, as RxSwift records it). An error skips the queue.
final class DelaySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private struct State {
        /// Events waiting, with the time each arrived.
        var queue = FIFOQueue<(time: RxTime, event: Event<Element>)>()
        /// A timer is set or delivering.
        var active = false
        /// A timer is delivering (on whatever thread the scheduler runs it).
        var running = false
        var error: Swift.Error?
    }

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let state = Mutex(State())
    private let timer = SerialDisposable()
    let sourceSubscription = SingleAssignmentDisposable()

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("DelaySink"))
    }

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, timer)
    }

    func onNext(_ element: Element) {
        enqueue(.next(element))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .completed:
            sourceSubscription.dispose()
            enqueue(event)
        case .error(let error):
            sourceSubscription.dispose()
            let sendNow = state.withLock { state in
                state.queue = FIFOQueue()
                state.error = error
                return !state.running
            }
            if sendNow { forwardErrorAndDispose(error) }
        }
    }

    private func enqueue(_ event: Event<Element>) {
        let now = scheduler.now
        let start = state.withLock { state in
            state.queue.append((now, event))
            defer { state.active = true }
            return !state.active
        }
        guard start else { return }
        timer.disposable = scheduler.scheduleRecursive((), dueTime: dueTime) { [weak self] _, recurse in
            self?.deliver { recurse((), $0) }
        }
    }

    /// Delivers the head of the queue, then sets the timer for the next event, if any. An
    /// error that arrived meanwhile goes out instead (it was held back only because this was
    /// delivering).
    private func deliver(_ reschedule: (RxTimeInterval) -> Void) {
        let head: Event<Element>?? = state.withLock { state in
            if state.error != nil { return nil }
            state.running = true
            return .some(state.queue.isEmpty ? nil : state.queue.removeFirst().event)
        }
        guard let head else { return } // failed already: the error went out
        if let head {
            forwardOn(head)
            if head.isStopEvent { return dispose() }
        }
        let next: DelayNext = state.withLock { state in
            if let error = state.error { return .fail(error) }
            state.running = false
            if let waiting = state.queue.first { return .wait(arrived: waiting.time) }
            state.active = false
            return .idle
        }
        switch next {
        case .fail(let error):
            forwardErrorAndDispose(error)
        case .wait(let arrived):
            // What is left of its `dueTime`, counted from when it arrived.
            let left = rxSchedulerSeconds(dueTime) - scheduler.now.timeIntervalSince(arrived)
            reschedule(.nanoseconds(Int(max(left, 0) * 1_000_000_000)))
        case .idle:
            break
        }
    }
}

/// What a delay timer does once it delivered.
private enum DelayNext {
    /// Send the error that arrived while it delivered.
    case fail(Swift.Error)
    /// Set the timer again, for the event that arrived at `arrived`.
    case wait(arrived: RxTime)
    /// Nothing waits: the next event sets a timer of its own.
    case idle
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
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = DelaySink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - delaySubscription

final class DelaySubscriptionSink<Observer: ObserverType>: PassThroughSink<Observer> {
    init(observer: Observer, cancel: SinkDisposer) {
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
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = DelaySubscriptionSink(observer: observer, cancel: cancel)
        let subscription = SerialDisposable()
        subscription.disposable = scheduler.scheduleRelative((), dueTime: dueTime) { [source] _ in
            source.subscribe(sink)
        }
        return (sink: sink, subscription: subscription)
    }
}
