extension ObservableType {
    /// Drops every element and passes only `completed` or `error`.
    ///
    /// As in RxSwift 6 the result is `Observable<Never>` (Swift's `Never`): it can say nothing
    /// but how it ended.
    public func ignoreElements(file: StaticString = #fileID, line: UInt = #line) -> Observable<Swift.Never> {
        IgnoreElements(source: asObservable(), callSite: CallSite(file, line))
    }
}

final class IgnoreElementsSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Swift.Never {
    typealias Element = SourceType

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.ignoreElementsSink)
    }

    func onNext(_ element: SourceType) {}

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

final class IgnoreElements<SourceType>: Producer<Swift.Never> {
    private let source: Observable<SourceType>

    init(source: Observable<SourceType>, callSite: CallSite?) {
        self.source = source
        super.init(counter: ResourceCounter.ignoreElements, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Swift.Never {
        let sink = IgnoreElementsSink<SourceType, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let ignoreElements = named("IgnoreElements")
    fileprivate static let ignoreElementsSink = named("IgnoreElementsSink")
}
