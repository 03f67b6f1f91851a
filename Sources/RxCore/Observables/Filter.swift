extension ObservableType {
    /// Lets through only the elements for which `predicate` is true.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 4).filter { $0.isMultiple(of: 2) }   // 2, 4
    /// ```
    public func filter(
        _ predicate: @escaping (Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Filter(source: asObservable(), predicate: predicate, callSite: CallSite(file, line))
    }
}

final class FilterSink<Observer: ObserverType>: Sink<Observer>, ObserverType, RunnableSink {
    typealias Predicate = (Element) throws -> Bool
    typealias Element = Observer.Element

    private let predicate: Predicate

    init(predicate: @escaping Predicate, observer: __owned Observer, cancel: __owned SinkDisposer) {
        self.predicate = predicate
        super.init(observer: consume observer, cancel: consume cancel, counter: CachedCounter.filterSink.unmanaged)
    }

    // What `Filter.run` does, for its `SinkRunner` (Core/SinkRunner.swift). Designated, not
    // convenience: one call layer fewer per subscription.
    init(parent: __shared Filter<Element>, observer: __shared Observer, cancel: __owned SinkDisposer) {
        predicate = parent.predicate
        super.init(observer: observer, cancel: consume cancel, counter: CachedCounter.filterSink.unmanaged)
    }

    static func source(of parent: Filter<Element>) -> Unmanaged<Observable<Element>> {
        Unmanaged.passUnretained(parent.source)
    }

    func onNext(_ element: Element) {
        do {
            if try predicate(element) { forwardNext(element) }
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .completed, .error:
            forwardOn(event)
            dispose()
        }
    }
}

final class Filter<Element>: Producer<Element> {
    typealias Predicate = (Element) throws -> Bool

    fileprivate let source: Observable<Element>
    fileprivate let predicate: Predicate
    private let runners = SinkRunnerCache()

    init(source: Observable<Element>, predicate: @escaping Predicate, callSite: CallSite?) {
        self.source = source
        self.predicate = predicate
        super.init(counter: .filter, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        // Once this filter has run for this kind of observer: the three lines below, without
        // looking up `FilterSink<…>`'s type at every subscription (see SinkRunner.swift).
        if let subscribed = runners.run(self, observer, cancel) { return subscribed }
        runners.keep(FilterSink<Observer>.self)
        let sink = FilterSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
