extension ObservableType {
    /// Transforms each element with `transform` and lets through only the non-nil results.
    ///
    /// ```swift
    /// Observable.of("1", "x", "3").compactMap { Int($0) }   // 1, 3
    /// ```
    public func compactMap<Result>(
        _ transform: @escaping (Element) throws -> Result?, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Result> {
        CompactMap(source: asObservable(), transform: transform, callSite: CallSite(file, line))
    }
}

final class CompactMapSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Transform = (SourceType) throws -> Observer.Element?
    typealias Element = SourceType

    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, cancel: SinkDisposer) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel, counter: .compactMapSink)
    }

    func onNext(_ element: SourceType) {
        do {
            if let mapped = try transform(element) { forwardNext(mapped) }
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

final class CompactMap<SourceType, ResultType>: Producer<ResultType> {
    typealias Transform = (SourceType) throws -> ResultType?

    private let source: Observable<SourceType>
    private let transform: Transform

    init(source: Observable<SourceType>, transform: @escaping Transform, callSite: CallSite?) {
        self.source = source
        self.transform = transform
        super.init(counter: .compactMap, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == ResultType {
        let sink = CompactMapSink(transform: transform, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let compactMap = named("CompactMap")
    fileprivate static let compactMapSink = named("CompactMapSink")
}
