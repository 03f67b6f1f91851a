extension ObservableType {
    /// Only the element at `index` (counting from 0), then `completed`; fails with
    /// `RxError.argumentOutOfRange` if the source completes first.
    public func element(at index: Int, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        precondition(index >= 0, "element(at:): index can't be negative")
        return ElementAt(source: asObservable(), index: index, callSite: CallSite(file, line))
    }

    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        element(at: index, file: file, line: line)
    }

    /// The first element, or nil when the source completes empty: a `Single`, as in RxSwift 6.
    public func first(file: StaticString = #fileID, line: UInt = #line) -> Single<Element?> {
        PrimitiveSequence(raw: First(source: asObservable(), callSite: CallSite(file, line)))
    }

    /// Passes the one element of the source and completes with it; fails with
    /// `RxError.noElements` on an empty source and `RxError.moreThanOneElement` on a second
    /// element.
    public func single(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        SingleAsync(source: asObservable(), predicate: nil, callSite: CallSite(file, line))
    }

    /// Like `single()`, counting only the elements that satisfy `predicate`.
    public func single(
        _ predicate: @escaping (Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        SingleAsync(source: asObservable(), predicate: predicate, callSite: CallSite(file, line))
    }
}

// MARK: - element(at:)

final class ElementAtSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private var remaining: Int

    init(index: Int, observer: Observer, cancel: SinkDisposer) {
        self.remaining = index
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.elementAtSink)
    }

    func onNext(_ element: Element) {
        if remaining == 0 {
            forwardNext(element)
            forwardOn(.completed)
            dispose()
        }
        remaining -= 1
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            forwardOn(.error(RxError.argumentOutOfRange))
            dispose()
        }
    }
}

final class ElementAt<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let index: Int

    init(source: Observable<Element>, index: Int, callSite: CallSite?) {
        self.source = source
        self.index = index
        super.init(counter: ResourceCounter.elementAt, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = ElementAtSink(index: index, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - first

final class FirstSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == SourceType? {
    typealias Element = SourceType

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.firstSink)
    }

    func onNext(_ value: SourceType) {
        forwardNext(value)
        forwardOn(.completed)
        dispose()
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let value):
            onNext(value)
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.next(nil))
            forwardOn(.completed)
            dispose()
        }
    }
}

final class First<SourceType>: Producer<SourceType?> {
    private let source: Observable<SourceType>

    init(source: Observable<SourceType>, callSite: CallSite?) {
        self.source = source
        super.init(counter: ResourceCounter.first, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == SourceType? {
        let sink = FirstSink<SourceType, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - single

final class SingleAsyncSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let predicate: ((Element) throws -> Bool)?
    private var seenValue = false

    init(predicate: ((Element) throws -> Bool)?, observer: Observer, cancel: SinkDisposer) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.singleAsyncSink)
    }

    func onNext(_ value: Element) {
        do {
            if let predicate, try !predicate(value) { return }
        } catch {
            forwardErrorAndDispose(error)
            return
        }
        if seenValue {
            forwardErrorAndDispose(RxError.moreThanOneElement)
            return
        }
        seenValue = true
        forwardNext(value)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            onNext(value)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            forwardOn(seenValue ? .completed : .error(RxError.noElements))
            dispose()
        }
    }
}

final class SingleAsync<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let predicate: ((Element) throws -> Bool)?

    init(source: Observable<Element>, predicate: ((Element) throws -> Bool)?, callSite: CallSite?) {
        self.source = source
        self.predicate = predicate
        super.init(counter: ResourceCounter.singleAsync, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = SingleAsyncSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let elementAt = named("ElementAt")
    fileprivate static let elementAtSink = named("ElementAtSink")
    fileprivate static let first = named("First")
    fileprivate static let firstSink = named("FirstSink")
    fileprivate static let singleAsync = named("SingleAsync")
    fileprivate static let singleAsyncSink = named("SingleAsyncSink")
}
