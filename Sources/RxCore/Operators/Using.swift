extension ObservableType {
    /// A sequence that owns a resource: `resourceFactory` makes it on subscription,
    /// `observableFactory` builds the sequence from it, and the resource is disposed with the
    /// subscription.
    ///
    /// ```swift
    /// Observable.using({ Connection() }, observableFactory: { $0.rows })
    /// ```
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        Using(resourceFactory: resourceFactory, observableFactory: observableFactory, callSite: CallSite(file, line))
    }
}

final class UsingSink<Resource: Disposable, Observer: ObserverType>: PassThroughSink<Observer> {
    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("UsingSink"))
    }

    func run(_ parent: Using<Element, Resource>) -> Disposable {
        var disposable = Disposables.create()
        do {
            let resource = try parent.resourceFactory()
            disposable = resource
            let source = try parent.observableFactory(resource)
            return Disposables.create(source.subscribe(self), disposable)
        } catch {
            let failure = Observable<Element>.error(error).subscribe(self)
            return Disposables.create(failure, disposable)
        }
    }
}

final class Using<Element, Resource: Disposable>: Producer<Element> {
    let resourceFactory: () throws -> Resource
    let observableFactory: (Resource) throws -> Observable<Element>

    init(
        resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>, callSite: CallSite?
    ) {
        self.resourceFactory = resourceFactory
        self.observableFactory = observableFactory
        super.init(counter: ResourceCounter.named("Using"), callSite: callSite)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = UsingSink<Resource, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
