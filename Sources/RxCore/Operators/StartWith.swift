extension ObservableType {
    /// Emits `elements` first, then subscribes to the source.
    ///
    /// ```swift
    /// Observable.of(3, 4).startWith(1, 2)   // 1, 2, 3, 4
    /// ```
    public func startWith(
        _ elements: Element..., file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        StartWith(source: asObservable(), elements: elements, callSite: CallSite(file, line))
    }
}

/// Emits the prefix from `run`, then forwards the source; disposes the subscription as soon as
/// the source ends.
final class StartWithSink<Observer: ObserverType>: PassThroughSink<Observer> {
    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.startWithSink)
    }

    func run(source: Observable<Element>, elements: [Element]) -> Disposable {
        for element in elements {
            if isDisposed { return Disposables.create() }
            forwardNext(element)
        }
        return source.subscribe(self)
    }
}

final class StartWith<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let elements: [Element]

    init(source: Observable<Element>, elements: [Element], callSite: CallSite?) {
        self.source = source
        self.elements = elements
        super.init(counter: ResourceCounter.startWith, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = StartWithSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, elements: elements)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let startWith = named("StartWith")
    fileprivate static let startWithSink = named("StartWithSink")
}
