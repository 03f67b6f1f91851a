import Foundation

/// Whether `take(until:behavior:)` and `take(while:behavior:)` also emit the element that
/// ends the sequence.
public enum TakeBehavior {
    /// Emit the element that ended the sequence, then complete.
    case inclusive
    /// Complete without emitting the element that ended the sequence.
    case exclusive
}

extension ObservableType {
    /// The first `count` elements, then `completed`.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).take(2)   // 1, 2, completed
    /// ```
    public func take(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        precondition(count >= 0, "take: count can't be negative")
        if count == 0 { return Observable.empty(file: file, line: line) }
        return TakeCount(source: asObservable(), count: count, callSite: CallSite(file, line))
    }

    /// The elements until `other` emits an element; then `completed`. An error of `other` ends
    /// the result with that error; `other` completing changes nothing.
    public func take<Source: ObservableType>(
        until other: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        TakeUntil(source: asObservable(), other: other.asObservable(), callSite: CallSite(file, line))
    }

    /// The elements until `predicate` is true for one; then `completed`. With `.inclusive` that
    /// element is emitted before `completed`.
    public func take(
        until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        TakeUntilPredicate(
            source: asObservable(), behavior: behavior, predicate: predicate, callSite: CallSite(file, line))
    }

    /// The elements while `predicate` holds; then `completed`. With `.inclusive` the first
    /// element failing the predicate is emitted before `completed`.
    public func take(
        while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        TakeUntilPredicate(
            source: asObservable(), behavior: behavior, predicate: { try !predicate($0) },
            callSite: CallSite(file, line))
    }

    /// The last `count` elements, emitted when the source completes.
    public func takeLast(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        precondition(count >= 0, "takeLast: count can't be negative")
        return TakeLast(source: asObservable(), count: count, callSite: CallSite(file, line))
    }

    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Source: ObservableType>(
        _ other: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        take(until: other, file: file, line: line)
    }

    @available(*, deprecated, renamed: "take(until:behavior:)")
    public func takeUntil(
        _ behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        take(until: predicate, behavior: behavior, file: file, line: line)
    }

    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(
        _ predicate: @escaping (Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        take(while: predicate, file: file, line: line)
    }
}

// MARK: - take(count)

final class TakeCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private var remaining: Int

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        self.remaining = count
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.takeCountSink)
    }

    func onNext(_ element: Element) {
        guard remaining > 0 else { return }
        remaining -= 1
        forwardNext(element)
        if remaining == 0 {
            forwardOn(.completed)
            dispose()
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

final class TakeCount<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int, callSite: CallSite?) {
        self.source = source
        self.count = count
        super.init(counter: ResourceCounter.takeCount, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeCountSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - take(until: other)

/// Receives from the source and from `other`; one recursive lock serializes both so that
/// downstream sees one event at a time even when `other` fires from inside a source event.
final class TakeUntilSink<Other, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    fileprivate let lock = NSRecursiveLock()
    fileprivate let otherSubscription = SingleAssignmentDisposable()

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.takeUntilSink)
    }

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        let otherObserver = TakeUntilOtherObserver(parent: self)
        otherSubscription.setDisposable(other.subscribe(otherObserver))
        let sourceSubscription = source.subscribe(self)
        // Disposed source first, as RxSwift's `TakeUntilSink` does.
        return Disposables.create(sourceSubscription, otherSubscription)
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

final class TakeUntilOtherObserver<Other, Observer: ObserverType>: ObserverBase<Other> {
    private let parent: TakeUntilSink<Other, Observer>

    init(parent: TakeUntilSink<Other, Observer>) {
        self.parent = parent
        super.init(counter: ResourceCounter.takeUntilOtherObserver)
        traceEdge(traceID, parent.traceID, .forward)
    }

    override func onNextCore(_ element: Other) {
        parent.lock.lock(); defer { parent.lock.unlock() }
        parent.forwardOn(.completed)
        parent.dispose()
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

final class TakeUntil<Element, Other>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>, callSite: CallSite?) {
        self.source = source
        self.other = other
        super.init(counter: ResourceCounter.takeUntil, callSite: callSite)
        traceSource(source)
        traceSource(other)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeUntilSink<Other, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, other: other)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - take(until: predicate) / take(while:)

final class TakeUntilPredicateSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let predicate: (Element) throws -> Bool
    private let behavior: TakeBehavior
    private var running = true

    init(
        predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior, observer: Observer, cancel: SinkDisposer
    ) {
        self.predicate = predicate
        self.behavior = behavior
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.takeUntilPredicateSink)
    }

    func onNext(_ value: Element) {
        guard running else { return }
        do {
            if try predicate(value) {
                running = false
                if behavior == .inclusive { forwardNext(value) }
                forwardOn(.completed)
                dispose()
            } else {
                forwardNext(value)
            }
        } catch {
            running = false
            forwardErrorAndDispose(error)
        }
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

final class TakeUntilPredicate<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let behavior: TakeBehavior
    private let predicate: (Element) throws -> Bool

    init(
        source: Observable<Element>, behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool,
        callSite: CallSite?
    ) {
        self.source = source
        self.behavior = behavior
        self.predicate = predicate
        super.init(counter: ResourceCounter.takeUntilPredicate, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeUntilPredicateSink(predicate: predicate, behavior: behavior, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - takeLast

final class TakeLastSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let count: Int
    @exclusivity(unchecked) private var elements: [Element] = []
    private var head = 0

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        self.count = count
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.takeLastSink)
    }

    func onNext(_ value: Element) {
        guard count > 0 else { return }
        // A ring of `count` slots: `head` is the oldest once the ring is full.
        if elements.count < count {
            elements.append(value)
        } else {
            elements[head] = value
            head = (head + 1) % count
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            onNext(value)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            for offset in 0..<elements.count {
                forwardNext(elements[(head + offset) % elements.count])
            }
            forwardOn(.completed)
            dispose()
        }
    }
}

final class TakeLast<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int, callSite: CallSite?) {
        self.source = source
        self.count = count
        super.init(counter: ResourceCounter.takeLast, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeLastSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let takeCount = named("TakeCount")
    fileprivate static let takeCountSink = named("TakeCountSink")
    fileprivate static let takeLast = named("TakeLast")
    fileprivate static let takeLastSink = named("TakeLastSink")
    fileprivate static let takeUntil = named("TakeUntil")
    fileprivate static let takeUntilOtherObserver = named("TakeUntilOtherObserver")
    fileprivate static let takeUntilPredicate = named("TakeUntilPredicate")
    fileprivate static let takeUntilPredicateSink = named("TakeUntilPredicateSink")
    fileprivate static let takeUntilSink = named("TakeUntilSink")
}
