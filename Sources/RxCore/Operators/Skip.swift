import Foundation

extension ObservableType {
    /// Drops the first `count` elements.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).skip(2)   // 3
    /// ```
    public func skip(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        precondition(count >= 0, "skip: count can't be negative")
        return SkipCount(source: asObservable(), count: count, callSite: CallSite(file, line))
    }

    /// Drops elements while `predicate` holds; from the first that fails it, passes everything.
    public func skip(
        while predicate: @escaping (Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        SkipWhile(source: asObservable(), predicate: predicate, callSite: CallSite(file, line))
    }

    /// Drops elements until `other` emits an element. If `other` completes first, nothing is
    /// ever passed (not even `completed`); an error of `other` ends the result.
    public func skip<Source: ObservableType>(
        until other: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        SkipUntil(source: asObservable(), other: other.asObservable(), callSite: CallSite(file, line))
    }

    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(
        _ predicate: @escaping (Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        skip(while: predicate, file: file, line: line)
    }

    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Source: ObservableType>(
        _ other: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        skip(until: other, file: file, line: line)
    }
}

// MARK: - skip(count)

final class SkipCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private var remaining: Int

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        self.remaining = count
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.skipCountSink)
    }

    func onNext(_ element: Element) {
        if remaining > 0 {
            remaining -= 1
        } else {
            forwardNext(element)
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

final class SkipCount<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int, callSite: CallSite?) {
        self.source = source
        self.count = count
        super.init(counter: ResourceCounter.skipCount, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = SkipCountSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - skip(while:)

final class SkipWhileSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let predicate: (Element) throws -> Bool
    private var running = false

    init(predicate: @escaping (Element) throws -> Bool, observer: Observer, cancel: SinkDisposer) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.skipWhileSink)
    }

    func onNext(_ value: Element) {
        if !running {
            do {
                running = try !predicate(value)
            } catch {
                forwardErrorAndDispose(error)
                return
            }
        }
        if running { forwardNext(value) }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            onNext(value)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

final class SkipWhile<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool

    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool, callSite: CallSite?) {
        self.source = source
        self.predicate = predicate
        super.init(counter: ResourceCounter.skipWhile, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = SkipWhileSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - skip(until:)

final class SkipUntilSink<Other, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    fileprivate let lock = NSRecursiveLock()
    fileprivate let otherSubscription = SingleAssignmentDisposable()
    /// Set (under `lock`) once `other` has emitted.
    fileprivate var forwardElements = false

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.skipUntilSink)
    }

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        let sourceSubscription = source.subscribe(self)
        otherSubscription.setDisposable(other.subscribe(SkipUntilOtherObserver(parent: self)))
        return Disposables.create(sourceSubscription, otherSubscription)
    }

    func onNext(_ element: Element) {
        lock.lock(); defer { lock.unlock() }
        if forwardElements { forwardNext(element) }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error:
            lock.lock(); defer { lock.unlock() }
            forwardOn(event)
            dispose()
        case .completed:
            lock.lock(); defer { lock.unlock() }
            if forwardElements { forwardOn(event) }
            dispose()
        }
    }
}

final class SkipUntilOtherObserver<Other, Observer: ObserverType>: ObserverBase<Other> {
    private let parent: SkipUntilSink<Other, Observer>

    init(parent: SkipUntilSink<Other, Observer>) {
        self.parent = parent
        super.init(counter: ResourceCounter.skipUntilOtherObserver)
        traceEdge(traceID, parent.traceID, .forward)
    }

    override func onNextCore(_ element: Other) {
        parent.lock.lock(); defer { parent.lock.unlock() }
        parent.forwardElements = true
        parent.otherSubscription.dispose()
    }

    override func onCore(_ event: Event<Other>) {
        switch event {
        case .next(let element):
            onNextCore(element)
        case .error(let error):
            parent.lock.lock(); defer { parent.lock.unlock() }
            parent.forwardOn(.error(error))
            parent.dispose()
        case .completed:
            parent.lock.lock(); defer { parent.lock.unlock() }
            parent.otherSubscription.dispose()
        }
    }
}

final class SkipUntil<Element, Other>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>, callSite: CallSite?) {
        self.source = source
        self.other = other
        super.init(counter: ResourceCounter.skipUntil, callSite: callSite)
        traceSource(source)
        traceSource(other)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = SkipUntilSink<Other, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, other: other)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let skipCount = named("SkipCount")
    fileprivate static let skipCountSink = named("SkipCountSink")
    fileprivate static let skipUntil = named("SkipUntil")
    fileprivate static let skipUntilOtherObserver = named("SkipUntilOtherObserver")
    fileprivate static let skipUntilSink = named("SkipUntilSink")
    fileprivate static let skipWhile = named("SkipWhile")
    fileprivate static let skipWhileSink = named("SkipWhileSink")
}
