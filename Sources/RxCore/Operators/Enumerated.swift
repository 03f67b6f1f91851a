extension ObservableType {
    /// Pairs each element with its index, counting from 0.
    ///
    /// ```swift
    /// Observable.of("a", "b").enumerated()   // (0, "a"), (1, "b")
    /// ```
    public func enumerated(
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(index: Int, element: Element)> {
        Enumerated(source: asObservable(), callSite: CallSite(file, line))
    }
}

final class EnumeratedSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == (index: Int, element: SourceType) {
    typealias Element = SourceType

    private var index = 0

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.enumeratedSink)
    }

    func onNext(_ element: SourceType) {
        let (next, overflow) = index.addingReportingOverflow(1)
        if overflow {
            forwardErrorAndDispose(RxError.overflow)
            return
        }
        let current = index
        index = next
        forwardNext((index: current, element: element))
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

final class Enumerated<Element>: Producer<(index: Int, element: Element)> {
    private let source: Observable<Element>

    init(source: Observable<Element>, callSite: CallSite?) {
        self.source = source
        super.init(counter: ResourceCounter.enumerated, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable)
    where Observer.Element == (index: Int, element: Element) {
        let sink = EnumeratedSink<Element, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let enumerated = named("Enumerated")
    fileprivate static let enumeratedSink = named("EnumeratedSink")
}
