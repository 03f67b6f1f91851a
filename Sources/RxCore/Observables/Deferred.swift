extension ObservableType {
    /// Calls `observableFactory` anew for each subscriber and subscribes to what it returns; a
    /// throwing factory fails that subscription.
    public static func deferred(
        _ observableFactory: @escaping () throws -> Observable<Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        Deferred(factory: observableFactory, callSite: CallSite(file, line))
    }
}

final class Deferred<Element>: Producer<Element> {
    private let factory: () throws -> Observable<Element>

    init(factory: @escaping () throws -> Observable<Element>, callSite: CallSite?) {
        self.factory = factory
        super.init(counter: ResourceCounter.rxDeferred, callSite: callSite)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = DeferredSink(observer: observer, cancel: cancel)
        let subscription = sink.run(factory)
        return (sink: sink, subscription: subscription)
    }
}

final class DeferredSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.rxDeferredSink)
    }

    func run(_ factory: () throws -> Observable<Element>) -> Disposable {
        do {
            return try factory().subscribe(self)
        } catch {
            forwardOn(.error(error))
            dispose()
            return Disposables.create()
        }
    }

    func on(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}

extension ResourceCounter {
    fileprivate static let rxDeferred = named("Deferred")
    fileprivate static let rxDeferredSink = named("DeferredSink")
}
