extension ObservableType {
    /// Subscribes to the source, and later disposes that subscription, on `scheduler`: the
    /// work of subscribing (a `create` handler, a blocking read) moves there.
    ///
    /// ```swift
    /// Observable.create(readFile).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .utility))
    /// ```
    public func subscribe(
        on scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        // The sequence itself, not `asObservable()`'s wrapper, as RxSwift's `SubscribeOn` takes
        // `self`: disposing goes through `scheduler` even for a testable observable.
        SubscribeOn(
            source: (self as? Observable<Element>) ?? asObservable(), scheduler: scheduler,
            callSite: CallSite(file, line))
    }

    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(
        _ scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        subscribe(on: scheduler, file: file, line: line)
    }
}

final class SubscribeOnSink<Observer: ObserverType>: PassThroughSink<Observer> {
    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("SubscribeOnSink"))
    }

    func run(_ source: Observable<Element>, scheduler: ImmediateSchedulerType) -> Disposable {
        let disposeEverything = SerialDisposable()
        let cancelSchedule = SingleAssignmentDisposable()
        disposeEverything.disposable = cancelSchedule
        cancelSchedule.setDisposable(
            scheduler.schedule(()) { _ in
                let subscription = source.subscribe(self)
                disposeEverything.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
                return Disposables.create()
            })
        return disposeEverything
    }
}

final class SubscribeOn<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType, callSite: CallSite?) {
        self.source = source
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.named("SubscribeOn"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = SubscribeOnSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
