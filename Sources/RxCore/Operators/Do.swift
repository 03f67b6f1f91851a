extension ObservableType {
    /// Calls the given closures as events pass, without changing them: `on…` before an event
    /// goes downstream, `after…` after it; `onSubscribe` before subscribing upstream,
    /// `onSubscribed` after, `onDispose` when the subscription is disposed. A throwing `on…`
    /// closure turns into an `error` event.
    ///
    /// ```swift
    /// source.do(onNext: { print("will emit", $0) }, onDispose: { print("disposed") })
    /// ```
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        Do(
            source: asObservable(),
            eventHandler: { event in
                switch event {
                case .next(let element): try onNext?(element)
                case .error(let error): try onError?(error)
                case .completed: try onCompleted?()
                }
            },
            afterEventHandler: { event in
                switch event {
                case .next(let element): try afterNext?(element)
                case .error(let error): try afterError?(error)
                case .completed: try afterCompleted?()
                }
            },
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose,
            callSite: CallSite(file, line)
        )
    }
}

final class DoSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    typealias EventHandler = (Event<Element>) throws -> Void

    private let eventHandler: EventHandler
    private let afterEventHandler: EventHandler

    init(
        eventHandler: @escaping EventHandler, afterEventHandler: @escaping EventHandler, observer: Observer,
        cancel: SinkDisposer
    ) {
        self.eventHandler = eventHandler
        self.afterEventHandler = afterEventHandler
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("DoSink"))
    }

    func on(_ event: Event<Element>) {
        do {
            try eventHandler(event)
            forwardOn(event)
            try afterEventHandler(event)
            if event.isStopEvent { dispose() }
        } catch {
            forwardOn(.error(error))
            dispose()
        }
    }
}

final class Do<Element>: Producer<Element> {
    typealias EventHandler = (Event<Element>) throws -> Void

    private let source: Observable<Element>
    private let eventHandler: EventHandler
    private let afterEventHandler: EventHandler
    private let onSubscribe: (() -> Void)?
    private let onSubscribed: (() -> Void)?
    private let onDispose: (() -> Void)?

    init(
        source: Observable<Element>, eventHandler: @escaping EventHandler, afterEventHandler: @escaping EventHandler,
        onSubscribe: (() -> Void)?, onSubscribed: (() -> Void)?, onDispose: (() -> Void)?, callSite: CallSite?
    ) {
        self.source = source
        self.eventHandler = eventHandler
        self.afterEventHandler = afterEventHandler
        self.onSubscribe = onSubscribe
        self.onSubscribed = onSubscribed
        self.onDispose = onDispose
        super.init(counter: ResourceCounter.named("Do"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        onSubscribe?()
        let sink = DoSink(
            eventHandler: eventHandler, afterEventHandler: afterEventHandler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        onSubscribed?()
        guard let onDispose else { return (sink: sink, subscription: subscription) }
        let allSubscriptions = Disposables.create {
            subscription.dispose()
            onDispose()
        }
        return (sink: sink, subscription: allSubscriptions)
    }
}
