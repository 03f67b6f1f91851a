import Foundation

// `take(for:scheduler:)` and `skip(_:scheduler:)`: a window of time from the subscription,
// whose elements one keeps and the other drops. RxSwift's `TakeTime` and `SkipTime`.

extension ObservableType {
    /// The elements of the first `duration` after subscription, then `completed`.
    ///
    /// ```swift
    /// ticks.take(for: .seconds(5), scheduler: scheduler)   // five seconds of ticks
    /// ```
    public func take(
        for duration: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        TimeWindow(
            source: asObservable(), keeps: true, duration: duration, scheduler: scheduler,
            callSite: CallSite(file, line))
    }

    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(
        _ duration: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        take(for: duration, scheduler: scheduler, file: file, line: line)
    }

    /// Drops the elements of the first `duration` after subscription. (RxSwift 6 spells it
    /// without a `for:` label, unlike `take(for:scheduler:)`.)
    ///
    /// ```swift
    /// ticks.skip(.seconds(2), scheduler: scheduler)   // the ticks after two seconds
    /// ```
    public func skip(
        _ duration: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        TimeWindow(
            source: asObservable(), keeps: false, duration: duration, scheduler: scheduler,
            callSite: CallSite(file, line))
    }
}

/// Passes the source's elements inside the window (`take(for:)`) or after it (`skip`); when
/// the timer closes a `take(for:)` window, completes. Stop events pass at any time. The timer
/// and the source may call from different threads: `lock` lets one at a time through.
final class TimeWindowSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let lock = NSRecursiveLock()
    /// `take(for:)`: the elements of the window; `skip`: those after it.
    private let keeps: Bool
    /// Whether elements pass now.
    private var open: Bool

    init(keeps: Bool, observer: Observer, cancel: SinkDisposer, counter: ResourceCounter) {
        self.keeps = keeps
        self.open = keeps
        super.init(observer: observer, cancel: cancel, counter: counter)
    }

    func run(_ source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        let timer = scheduler.scheduleRelative((), dueTime: duration) { [weak self] _ in
            self?.windowClosed()
            return Disposables.create()
        }
        return Disposables.create(timer, source.subscribe(self))
    }

    private func windowClosed() {
        lock.lock(); defer { lock.unlock() }
        if keeps { forwardCompletedAndDispose() } else { open = true }
    }

    func onNext(_ element: Element) {
        lock.lock(); defer { lock.unlock() }
        if open { forwardNext(element) }
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

/// The producer of `take(for:)` (a `TakeTime` node) and of `skip(_:scheduler:)` (`SkipTime`).
final class TimeWindow<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let keeps: Bool
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(
        source: Observable<Element>, keeps: Bool, duration: RxTimeInterval, scheduler: SchedulerType,
        callSite: CallSite?
    ) {
        self.source = source
        self.keeps = keeps
        self.duration = duration
        self.scheduler = scheduler
        super.init(counter: keeps ? .takeTime : .skipTime, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = TimeWindowSink(
            keeps: keeps, observer: observer, cancel: cancel, counter: keeps ? .takeTimeSink : .skipTimeSink)
        let subscription = sink.run(source, duration: duration, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let takeTime = named("TakeTime")
    fileprivate static let takeTimeSink = named("TakeTimeSink")
    fileprivate static let skipTime = named("SkipTime")
    fileprivate static let skipTimeSink = named("SkipTimeSink")
}
