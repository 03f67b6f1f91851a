import Foundation

extension ObservableType {
    /// Collects elements into arrays, emitting one when it holds `count` elements or when
    /// `timeSpan` has passed since the previous array (possibly empty) was emitted. On
    /// completion the current array is emitted, even if empty.
    public func buffer(
        timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<[Element]> {
        precondition(count > 0, "buffer: count must be positive")
        return BufferTimeCount(
            source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler,
            callSite: CallSite(file, line))
    }

    /// Splits the elements into windows, each an observable, starting a new one when the current
    /// one holds `count` elements or after `timeSpan`. The first window is emitted on subscribe.
    public func window(
        timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Observable<Element>> {
        precondition(count > 0, "window: count must be positive")
        return WindowTimeCount(
            source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler,
            callSite: CallSite(file, line))
    }
}

// MARK: - buffer

/// Windows are numbered; a timer only closes the window it was started for, so a window closed
/// early by `count` does not get its successor cut short by a stale timer.
final class BufferTimeCountSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == [Element] {
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let lock = NSRecursiveLock()
    private let timer = SerialDisposable()
    // Guarded by `lock`.
    private var buffer: [Element] = []
    private var windowID = 0

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.bufferTimeCountSink)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        createTimer(windowID)
        return Disposables.create(timer, source.subscribe(self))
    }

    private func startNewWindowAndSendCurrentOne() {
        windowID &+= 1
        let id = windowID
        let current = buffer
        buffer = []
        forwardNext(current)
        createTimer(id)
    }

    func onNext(_ element: Element) {
        lock.lock(); defer { lock.unlock() }
        buffer.append(element)
        if buffer.count == count { startNewWindowAndSendCurrentOne() }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            lock.lock(); defer { lock.unlock() }
            buffer = []
            forwardOn(.error(error))
            dispose()
        case .completed:
            lock.lock(); defer { lock.unlock() }
            forwardOn(.next(buffer))
            forwardOn(.completed)
            dispose()
        }
    }

    private func createTimer(_ id: Int) {
        if timer.isDisposed || windowID != id { return }
        timer.disposable = scheduler.scheduleRelative(id, dueTime: timeSpan) { [weak self] id in
            guard let self else { return Disposables.create() }
            self.lock.lock(); defer { self.lock.unlock() }
            if id == self.windowID && !self.isDisposed { self.startNewWindowAndSendCurrentOne() }
            return Disposables.create()
        }
    }
}

final class BufferTimeCount<Element>: Producer<[Element]> {
    private let source: Observable<Element>
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType

    init(
        source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, callSite: CallSite?
    ) {
        self.source = source
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.bufferTimeCount, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == [Element] {
        let sink = BufferTimeCountSink<Element, Observer>(
            timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - window

final class WindowTimeCountSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Observable<Element> {
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let lock = NSRecursiveLock()
    private let timer = SerialDisposable()
    private let group = CompositeDisposable()
    /// Keeps the source subscribed while a window is still subscribed, even after the
    /// outer subscription was disposed (RxSwift's `AddRef`).
    private let refCount: RefCountDisposable
    // Guarded by `lock`.
    private var subject = PublishSubject<Element>()
    private var windowCount = 0
    private var windowID = 0

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        self.refCount = RefCountDisposable(disposable: group)
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.windowTimeCountSink)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        _ = group.insert(timer)
        forwardOn(.next(RefCountedObservable(source: subject, refCount: refCount)))
        createTimer(windowID)
        _ = group.insert(source.subscribe(self))
        return refCount
    }

    private func startNewWindowAndCompleteCurrentOne() {
        subject.on(.completed)
        subject = PublishSubject()
        forwardOn(.next(RefCountedObservable(source: subject, refCount: refCount)))
    }

    func onNext(_ element: Element) {
        lock.lock(); defer { lock.unlock() }
        subject.onNext(element)
        windowCount += 1
        if windowCount == count {
            windowCount = 0
            windowID &+= 1
            startNewWindowAndCompleteCurrentOne()
            createTimer(windowID)
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            lock.lock(); defer { lock.unlock() }
            subject.on(.error(error))
            forwardOn(.error(error))
            dispose()
        case .completed:
            lock.lock(); defer { lock.unlock() }
            subject.on(.completed)
            forwardOn(.completed)
            dispose()
        }
    }

    private func createTimer(_ id: Int) {
        if timer.isDisposed || windowID != id { return }
        timer.disposable = scheduler.scheduleRelative(id, dueTime: timeSpan) { [weak self] id in
            guard let self else { return Disposables.create() }
            self.lock.lock(); defer { self.lock.unlock() }
            if id != self.windowID || self.isDisposed { return Disposables.create() }
            self.windowCount = 0
            self.windowID &+= 1
            self.startNewWindowAndCompleteCurrentOne()
            self.createTimer(self.windowID)
            return Disposables.create()
        }
    }
}

final class WindowTimeCount<Element>: Producer<Observable<Element>> {
    private let source: Observable<Element>
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType

    init(
        source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, callSite: CallSite?
    ) {
        self.source = source
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.windowTimeCount, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Observable<Element> {
        let sink = WindowTimeCountSink<Element, Observer>(
            timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

/// A window or group handed downstream: subscribing to it subscribes to its subject and holds
/// a reference on the parent's `RefCountDisposable`, so the source stays subscribed while
/// anyone listens to the window.
final class RefCountedObservable<Element>: Observable<Element> {
    private let source: Observable<Element>
    private let refCount: RefCountDisposable

    init(source: Observable<Element>, refCount: RefCountDisposable) {
        self.source = source
        self.refCount = refCount
        super.init(kind: .observable, counter: ResourceCounter.refCountedObservable)
        traceSource(source)
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let reference = refCount.retain()
        let subscription = source.subscribe(observer)
        return Disposables.create(subscription, reference)
    }
}

extension ResourceCounter {
    fileprivate static let bufferTimeCount = named("BufferTimeCount")
    fileprivate static let bufferTimeCountSink = named("BufferTimeCountSink")
    fileprivate static let refCountedObservable = named("RefCountedObservable")
    fileprivate static let windowTimeCount = named("WindowTimeCount")
    fileprivate static let windowTimeCountSink = named("WindowTimeCountSink")
}
