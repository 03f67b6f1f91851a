import Foundation

extension ObservableType {
    /// Fails with `RxError.timeout` when `dueTime` passes on `scheduler` with no element, counted
    /// from the subscription and then from each element.
    ///
    /// ```swift
    /// request.timeout(.seconds(5), scheduler: MainScheduler.instance)
    /// ```
    public func timeout(
        _ dueTime: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Timeout(
            source: asObservable(), dueTime: dueTime, other: Observable.error(RxError.timeout), scheduler: scheduler,
            callSite: CallSite(file, line))
    }

    /// Switches to `other` when `dueTime` passes on `scheduler` with no element.
    public func timeout<Source: ObservableConvertibleType>(
        _ dueTime: RxTimeInterval, other: Source, scheduler: SchedulerType, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> where Element == Source.Element {
        Timeout(
            source: asObservable(), dueTime: dueTime, other: other.asObservable(), scheduler: scheduler,
            callSite: CallSite(file, line))
    }
}

/// Receives `other`'s events once the timeout switched to it.
final class TimeoutOtherObserver<Observer: ObserverType>: ObserverBase<Observer.Element> {
    private let parent: TimeoutSink<Observer>

    init(parent: TimeoutSink<Observer>) {
        self.parent = parent
        super.init(counter: ResourceCounter.named("TimeoutOtherObserver"))
        traceEdge(traceID, traceNodeID(of: parent), .forward) // trace: the inner observer feeds its sink
    }

    override func onCore(_ event: Event<Observer.Element>) {
        parent.forwardOn(event)
        if event.isStopEvent { parent.dispose() }
    }
}

final class TimeoutSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let parent: Timeout<Element>
    // Recursive, as in RxSwift: events are forwarded under the lock so that a timer firing on
    // another thread cannot slip its switch between an element's check and its delivery.
    private let lock = NSRecursiveLock()
    private var id = 0
    private var switched = false
    private let timer = SerialDisposable()
    private let subscription = SerialDisposable()

    init(parent: Timeout<Element>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("TimeoutSink"))
    }

    func run() -> Disposable {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        createTimeoutTimer()
        original.setDisposable(parent.source.subscribe(self))
        return Disposables.create(subscription, timer)
    }

    func on(_ event: Event<Element>) {
        lock.lock()
        let onNextWins = !switched
        if onNextWins { id &+= 1 }
        if onNextWins {
            forwardOn(event)
        }
        lock.unlock()
        guard onNextWins else { return }
        switch event {
        case .next:
            createTimeoutTimer()
        case .error, .completed:
            dispose()
        }
    }

    private func createTimeoutTimer() {
        if timer.isDisposed { return }
        let nextTimer = SingleAssignmentDisposable()
        timer.disposable = nextTimer
        lock.lock()
        let myID = id
        lock.unlock()
        nextTimer.setDisposable(
            parent.scheduler.scheduleRelative(myID, dueTime: parent.dueTime) { [weak self] state in
                guard let self else { return Disposables.create() }
                self.lock.lock()
                let timerWins = !self.switched && self.id == state
                if timerWins { self.switched = true }
                self.lock.unlock()
                if timerWins {
                    self.subscription.disposable = self.parent.other.subscribe(TimeoutOtherObserver(parent: self))
                }
                return Disposables.create()
            })
    }
}

final class Timeout<Element>: Producer<Element> {
    fileprivate let source: Observable<Element>
    fileprivate let dueTime: RxTimeInterval
    fileprivate let other: Observable<Element>
    fileprivate let scheduler: SchedulerType

    init(
        source: Observable<Element>, dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType,
        callSite: CallSite?
    ) {
        self.source = source
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.named("Timeout"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = TimeoutSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
