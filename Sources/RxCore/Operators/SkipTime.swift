import Foundation

extension ObservableType {
    /// Drops the elements of the first `duration` after subscription. (RxSwift 6 spells it
    /// without a `for:` label, unlike `take(for:scheduler:)`.)
    ///
    /// ```swift
    /// ticks.skip(.seconds(2), scheduler: scheduler)   // the ticks after two seconds
    /// ```
    public func skip(
        _ duration: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        SkipTime(source: asObservable(), duration: duration, scheduler: scheduler, callSite: CallSite(file, line))
    }
}

/// Drops the source's elements until its timer fires; stop events pass at any time. The timer
/// and the source may call from different threads: `lock` lets one at a time through.
final class SkipTimeSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let lock = NSRecursiveLock()
    private var open = false

    init(observer: Observer, cancel: Cancelable) {
        super.init(observer: observer, cancel: cancel, counter: .skipTimeSink)
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
        open = true
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

final class SkipTime<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType, callSite: CallSite?) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
        super.init(counter: .skipTime, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = SkipTimeSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source, duration: duration, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let skipTime = named("SkipTime")
    fileprivate static let skipTimeSink = named("SkipTimeSink")
}
