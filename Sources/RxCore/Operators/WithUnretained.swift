extension ObservableType {
    /// Each element combined with `obj` by `resultSelector`, without keeping `obj` alive: once
    /// `obj` is gone, the next element completes the sequence instead.
    ///
    /// ```swift
    /// button.rx.tap.withUnretained(self).subscribe(onNext: { owner, _ in owner.save() })
    /// ```
    ///
    /// Careful with a buffer downstream (`share(replay: 1)`): it keeps the pair, `obj` included.
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Out> {
        WithUnretained(
            source: asObservable(), object: obj, resultSelector: resultSelector, callSite: CallSite(file, line))
    }

    /// Each element paired with `obj`, without keeping `obj` alive.
    public func withUnretained<Object: AnyObject>(
        _ obj: Object, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(Object, Element)> {
        withUnretained(obj, resultSelector: { ($0, $1) }, file: file, line: line)
    }
}

final class WithUnretainedSink<Object: AnyObject, SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = SourceType
    typealias ResultSelector = (Object, SourceType) -> Observer.Element

    private weak var object: Object?
    private let resultSelector: ResultSelector

    init(object: Object?, resultSelector: @escaping ResultSelector, observer: Observer, cancel: SinkDisposer) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel, counter: .withUnretainedSink)
    }

    func onNext(_ element: SourceType) {
        guard let object else { return forwardCompletedAndDispose() }
        forwardNext(resultSelector(object, element))
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element): onNext(element)
        case .error(let error): forwardErrorAndDispose(error)
        case .completed: forwardCompletedAndDispose()
        }
    }
}

final class WithUnretained<Object: AnyObject, SourceType, ResultType>: Producer<ResultType> {
    typealias ResultSelector = (Object, SourceType) -> ResultType

    private let source: Observable<SourceType>
    private weak var object: Object?
    private let resultSelector: ResultSelector

    init(source: Observable<SourceType>, object: Object, resultSelector: @escaping ResultSelector, callSite: CallSite?)
    {
        self.source = source
        self.object = object
        self.resultSelector = resultSelector
        super.init(counter: .withUnretained, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == ResultType {
        let sink = WithUnretainedSink(
            object: object, resultSelector: resultSelector, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let withUnretained = named("WithUnretained")
    fileprivate static let withUnretainedSink = named("WithUnretainedSink")
}
