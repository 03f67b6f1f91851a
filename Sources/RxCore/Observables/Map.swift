extension ObservableType {
    /// Transforms each element with `transform` (002: a `Map` producer with a `MapSink`).
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 4).map { $0 + 2 }   // 3, 4, 5, 6
    /// ```
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Result> {
        Map(source: asObservable(), transform: transform, callSite: CallSite(file, line))
    }
}

// `ResultType` is a parameter of its own (RxSwift derives it from `Observer`) so that every
// element's result has its type at hand in the class, rather than looked up through
// `Observer`'s conformance (a runtime call per element).
final class MapSink<SourceType, ResultType, Observer: ObserverType>: Sink<Observer>, ObserverType, RunnableSink
where Observer.Element == ResultType {
    typealias Transform = (SourceType) throws -> ResultType
    typealias Element = SourceType

    private let transform: Transform

    init(transform: @escaping Transform, observer: __owned Observer, cancel: __owned SinkDisposer) {
        self.transform = transform
        super.init(observer: consume observer, cancel: consume cancel, counter: CachedCounter.mapSink.unmanaged)
    }

    // What `Map.run` does, for its `SinkRunner` (Core/SinkRunner.swift). Designated, not
    // convenience: one call layer fewer per subscription.
    init(parent: __shared Map<SourceType, ResultType>, observer: __shared Observer, cancel: __owned SinkDisposer) {
        transform = parent.transform
        super.init(observer: observer, cancel: consume cancel, counter: CachedCounter.mapSink.unmanaged)
    }

    static func source(of parent: Map<SourceType, ResultType>) -> Unmanaged<Observable<SourceType>> {
        Unmanaged.passUnretained(parent.source)
    }

    func onNext(_ element: SourceType) {
        do {
            forwardNext(try transform(element))
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

final class Map<SourceType, ResultType>: Producer<ResultType> {
    typealias Transform = (SourceType) throws -> ResultType

    fileprivate let source: Observable<SourceType>
    fileprivate let transform: Transform
    private let runners = SinkRunnerCache()

    init(source: Observable<SourceType>, transform: @escaping Transform, callSite: CallSite?) {
        self.source = source
        self.transform = transform
        super.init(counter: .map, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == ResultType {
        // Once this map has run for this kind of observer: the three lines below, without
        // looking up `MapSink<…>`'s type at every subscription (see SinkRunner.swift).
        if let subscribed = runners.run(self, observer, cancel) { return subscribed }
        runners.keep(MapSink<SourceType, ResultType, Observer>.self)
        let sink = MapSink(transform: transform, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
