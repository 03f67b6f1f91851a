import Synchronization

extension ObservableType {
    /// Delivers events on `scheduler`, in order, one at a time.
    ///
    /// ```swift
    /// network.observe(on: MainScheduler.instance).subscribe(onNext: { label.text = $0 })
    /// ```
    public func observe(
        on scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        ObserveOn(source: asObservable(), scheduler: scheduler, callSite: CallSite(file, line))
    }

    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(
        _ scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        observe(on: scheduler, file: file, line: line)
    }
}

/// Queues events and delivers them one scheduled action at a time: the queue keeps their
/// order, the `running` flag (one action outstanding at most) keeps delivery serial even on a
/// concurrent scheduler. The source's end is queued like any event and disposes nothing: the
/// source ends its own subscription, and the rest goes when the end is delivered (as in RxSwift,
/// whose `ObserveOnSink` only queues it, so a `do(afterError:)` above runs before `onDispose`).
final class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private struct State {
        var queue = FIFOQueue<Event<Element>>()
        var running = false
    }

    private let scheduler: ImmediateSchedulerType
    private let state = Mutex(State())
    private let scheduled = ObserveOnPendingWork()
    let sourceSubscription = SingleAssignmentDisposable()

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("ObserveOnSink"))
    }

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, scheduled)
    }

    func on(_ event: Event<Element>) {
        let start: Bool = state.withLock { state in
            state.queue.append(event)
            if state.running { return false }
            state.running = true
            return true
        }
        if start { scheduleNext() }
    }

    private func scheduleNext() {
        scheduled.replace(
            with: scheduler.schedule(()) { [weak self] _ in
                self?.deliverOne()
                return Disposables.create()
            })
    }

    /// Delivers the oldest queued event, then schedules itself again while more are queued: one
    /// event per scheduled action, as RxSwift does, so other work on the scheduler interleaves.
    private func deliverOne() {
        let next: Event<Element>? = state.withLock { state in
            if let event = state.queue.popFirst() { return event }
            state.running = false
            return nil
        }
        guard let next, !isDisposed else { return }
        forwardOn(next)
        if next.isStopEvent {
            dispose()
            return
        }
        let more: Bool = state.withLock { state in
            if !state.queue.isEmpty { return true }
            state.running = false
            return false
        }
        if more { scheduleNext() }
    }
}

/// The scheduled delivery, so disposal can cancel it. Replacing does not dispose the previous
/// one: on a concurrent scheduler the action may run (and schedule its successor) before
/// `schedule` has even returned it, so "previous" may be the newer one. A stale action that
/// slips through finds the sink disposed and does nothing.
final class ObserveOnPendingWork: Disposable {
    private let state = Mutex<(current: Disposable?, disposed: Bool)>((nil, false))

    func replace(with disposable: Disposable) {
        let disposeNow: Bool = state.withLock { state in
            if state.disposed { return true }
            state.current = disposable
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    func dispose() {
        let current: Disposable? = state.withLock { state in
            state.disposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }
}

final class ObserveOn<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType, callSite: CallSite?) {
        self.source = source
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.named("ObserveOn"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = ObserveOnSink(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
