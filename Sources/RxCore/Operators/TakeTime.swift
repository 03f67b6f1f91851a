import Foundation

extension ObservableType {
    /// The elements of the first `duration` after subscription, then `completed`.
    ///
    /// ```swift
    /// ticks.take(for: .seconds(5), scheduler: scheduler)   // five seconds of ticks
    /// ```
    public func take(
        for duration: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        TakeTime(source: asObservable(), duration: duration, scheduler: scheduler, callSite: CallSite(file, line))
    }

    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(
        _ duration: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        take(for: duration, scheduler: scheduler, file: file, line: line)
    }
}

/// Forwards the source until its timer fires, then completes. The timer and the source may
/// call from different threads: `lock` lets one at a time through.
final class TakeTimeSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let lock = NSRecursiveLock()

    init(observer: Observer, cancel: Cancelable) {
        super.init(observer: observer, cancel: cancel, counter: .takeTimeSink)
    }

    func run(_ source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        let timer = scheduler.scheduleRelative((), dueTime: duration) { [weak self] _ in
            self?.tick()
            return Disposables.create()
        }
        return Disposables.create(timer, source.subscribe(self))
    }

    private func tick() {
        lock.lock(); defer { lock.unlock() }
        forwardCompletedAndDispose()
    }

    func onNext(_ element: Element) {
        lock.lock(); defer { lock.unlock() }
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            lock.lock(); defer { lock.unlock() }
            forwardOn(event)
            dispose()
        }
    }
}

final class TakeTime<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType, callSite: CallSite?) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
        super.init(counter: .takeTime, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeTimeSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source, duration: duration, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let takeTime = named("TakeTime")
    fileprivate static let takeTimeSink = named("TakeTimeSink")
}
