extension ObservableType {
    /// Emits each intermediate result of folding the elements into `seed` with `accumulator`.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).scan(0) { $0 + $1 }   // 1, 3, 6
    /// ```
    public func scan<A>(
        _ seed: A, accumulator: @escaping (A, Element) throws -> A, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<A> {
        Scan(
            source: asObservable(), seed: seed,
            accumulator: { accumulated, element in accumulated = try accumulator(accumulated, element) },
            callSite: CallSite(file, line))
    }

    /// Like `scan(_:accumulator:)`, with an accumulator that mutates the value in place.
    public func scan<A>(
        into seed: A, accumulator: @escaping (inout A, Element) throws -> Void, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<A> {
        Scan(source: asObservable(), seed: seed, accumulator: accumulator, callSite: CallSite(file, line))
    }

    /// Folds every element into `seed`, then emits `mapResult` of the total when the source
    /// completes.
    public func reduce<A, Result>(
        _ seed: A, accumulator: @escaping (A, Element) throws -> A, mapResult: @escaping (A) throws -> Result,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Result> {
        Reduce(
            source: asObservable(), seed: seed, accumulator: accumulator, mapResult: mapResult,
            callSite: CallSite(file, line))
    }

    /// Folds every element into `seed` and emits the total when the source completes.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).reduce(0, accumulator: +)   // 6
    /// ```
    public func reduce<A>(
        _ seed: A, accumulator: @escaping (A, Element) throws -> A, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<A> {
        Reduce(
            source: asObservable(), seed: seed, accumulator: accumulator, mapResult: { $0 },
            callSite: CallSite(file, line))
    }

    /// All elements as one array, emitted when the source completes: a `Single`, as in RxSwift 6.
    public func toArray(file: StaticString = #fileID, line: UInt = #line) -> Single<[Element]> {
        PrimitiveSequence(raw: ToArray(source: asObservable(), callSite: CallSite(file, line)))
    }
}

// MARK: - scan

final class ScanSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Accumulate = Observer.Element
    typealias Element = SourceType

    private let accumulator: (inout Accumulate, SourceType) throws -> Void
    // Only touched from `on`/`onNext`, which the grammar serializes.
    @exclusivity(unchecked) private var accumulate: Accumulate

    init(
        seed: Accumulate, accumulator: @escaping (inout Accumulate, SourceType) throws -> Void, observer: Observer,
        cancel: SinkDisposer
    ) {
        self.accumulate = seed
        self.accumulator = accumulator
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.scanSink)
    }

    func onNext(_ element: SourceType) {
        do {
            try accumulator(&accumulate, element)
            forwardNext(accumulate)
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

final class Scan<Element, Accumulate>: Producer<Accumulate> {
    typealias Accumulator = (inout Accumulate, Element) throws -> Void

    private let source: Observable<Element>
    private let seed: Accumulate
    private let accumulator: Accumulator

    init(source: Observable<Element>, seed: Accumulate, accumulator: @escaping Accumulator, callSite: CallSite?) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        super.init(counter: ResourceCounter.scan, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Accumulate {
        let sink = ScanSink(seed: seed, accumulator: accumulator, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - reduce

final class ReduceSink<SourceType, AccumulateType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = SourceType
    typealias Parent = Reduce<SourceType, AccumulateType, Observer.Element>

    private let parent: Parent
    @exclusivity(unchecked) private var accumulation: AccumulateType

    init(parent: Parent, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        self.accumulation = parent.seed
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.reduceSink)
    }

    func onNext(_ element: SourceType) {
        do {
            accumulation = try parent.accumulator(accumulation, element)
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            do {
                let result = try parent.mapResult(accumulation)
                forwardOn(.next(result))
                forwardOn(.completed)
            } catch {
                forwardOn(.error(error))
            }
            dispose()
        }
    }
}

final class Reduce<SourceType, AccumulateType, ResultType>: Producer<ResultType> {
    private let source: Observable<SourceType>
    fileprivate let seed: AccumulateType
    fileprivate let accumulator: (AccumulateType, SourceType) throws -> AccumulateType
    fileprivate let mapResult: (AccumulateType) throws -> ResultType

    init(
        source: Observable<SourceType>, seed: AccumulateType,
        accumulator: @escaping (AccumulateType, SourceType) throws -> AccumulateType,
        mapResult: @escaping (AccumulateType) throws -> ResultType, callSite: CallSite?
    ) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
        super.init(counter: ResourceCounter.reduce, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == ResultType {
        let sink = ReduceSink(parent: self, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - toArray

final class ToArraySink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == [SourceType] {
    typealias Element = SourceType

    @exclusivity(unchecked) private var elements: [SourceType] = []

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.toArraySink)
    }

    func onNext(_ element: SourceType) {
        elements.append(element)
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.next(elements))
            forwardOn(.completed)
            dispose()
        }
    }
}

final class ToArray<SourceType>: Producer<[SourceType]> {
    private let source: Observable<SourceType>

    init(source: Observable<SourceType>, callSite: CallSite?) {
        self.source = source
        super.init(counter: ResourceCounter.toArray, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == [SourceType] {
        let sink = ToArraySink<SourceType, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let reduce = named("Reduce")
    fileprivate static let reduceSink = named("ReduceSink")
    fileprivate static let scan = named("Scan")
    fileprivate static let scanSink = named("ScanSink")
    fileprivate static let toArray = named("ToArray")
    fileprivate static let toArraySink = named("ToArraySink")
}
