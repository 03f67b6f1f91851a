extension ObservableType {
    /// Turns every event into an element: `next(1)`, `completed` become
    /// `next(next(1))`, `next(completed)`, `completed`. An error also ends up as an element.
    public func materialize(file: StaticString = #fileID, line: UInt = #line) -> Observable<Event<Element>> {
        Materialize(source: asObservable(), callSite: CallSite(file, line))
    }
}

extension ObservableType where Element: EventConvertible {
    /// The inverse of `materialize`: elements that are events become events again.
    public func dematerialize(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element.Element> {
        Dematerialize(source: asObservable(), callSite: CallSite(file, line))
    }
}

final class MaterializeSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Event<SourceType> {
    typealias Element = SourceType

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.materializeSink)
    }

    func onNext(_ element: SourceType) {
        forwardNext(.next(element))
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            forwardOn(.next(event))
            forwardOn(.completed)
            dispose()
        }
    }
}

final class Materialize<Element>: Producer<Event<Element>> {
    private let source: Observable<Element>

    init(source: Observable<Element>, callSite: CallSite?) {
        self.source = source
        super.init(counter: ResourceCounter.materialize, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Event<Element> {
        let sink = MaterializeSink<Element, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

final class DematerializeSink<SourceType: EventConvertible, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == SourceType.Element {
    typealias Element = SourceType

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.dematerializeSink)
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            let inner = element.event
            forwardOn(inner)
            if inner.isStopEvent { dispose() }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

final class Dematerialize<SourceType: EventConvertible>: Producer<SourceType.Element> {
    private let source: Observable<SourceType>

    init(source: Observable<SourceType>, callSite: CallSite?) {
        self.source = source
        super.init(counter: ResourceCounter.dematerialize, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == SourceType.Element {
        let sink = DematerializeSink<SourceType, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let dematerialize = named("Dematerialize")
    fileprivate static let dematerializeSink = named("DematerializeSink")
    fileprivate static let materialize = named("Materialize")
    fileprivate static let materializeSink = named("MaterializeSink")
}
