import Synchronization

extension ObservableType {
    /// On error, continues with the sequence `handler` returns for that error.
    ///
    /// ```swift
    /// login.catch { _ in .just(.guest) }
    /// ```
    public func `catch`(
        _ handler: @escaping (Swift.Error) throws -> Observable<Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        Catch(source: asObservable(), handler: handler, callSite: CallSite(file, line))
    }

    /// On error, emits `element` and completes.
    public func catchAndReturn(
        _ element: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Catch(source: asObservable(), handler: { _ in Observable.just(element) }, callSite: CallSite(file, line))
    }

    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(
        _ handler: @escaping (Swift.Error) throws -> Observable<Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        `catch`(handler, file: file, line: line)
    }

    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(
        _ element: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        catchAndReturn(element, file: file, line: line)
    }
}

/// Receives the events of the handler's sequence after the source failed.
final class CatchSinkProxy<Observer: ObserverType>: ObserverBase<Observer.Element> {
    private let parent: CatchSink<Observer>

    init(parent: CatchSink<Observer>) {
        self.parent = parent
        super.init(counter: ResourceCounter.named("CatchSinkProxy"))
        traceEdge(traceID, traceNodeID(of: parent), .forward) // trace: the inner observer feeds its sink
    }

    override func onCore(_ event: Event<Observer.Element>) {
        parent.forwardOn(event)
        if event.isStopEvent { parent.dispose() }
    }
}

final class CatchSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    typealias Handler = (Swift.Error) throws -> Observable<Element>

    private let handler: Handler
    private let subscription = SerialDisposable()

    init(handler: @escaping Handler, observer: Observer, cancel: Cancelable) {
        self.handler = handler
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("CatchSink"))
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let d1 = SingleAssignmentDisposable()
        subscription.disposable = d1
        d1.setDisposable(source.subscribe(self))
        return subscription
    }

    func onNext(_ element: Element) {
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            do {
                let next = try handler(error)
                if isDisposed { return }
                subscription.disposable = next.subscribe(CatchSinkProxy(parent: self))
            } catch let handlerError {
                forwardOn(.error(handlerError))
                dispose()
            }
        }
    }
}

final class Catch<Element>: Producer<Element> {
    typealias Handler = (Swift.Error) throws -> Observable<Element>

    private let source: Observable<Element>
    private let handler: Handler

    init(source: Observable<Element>, handler: @escaping Handler, callSite: CallSite?) {
        self.source = source
        self.handler = handler
        super.init(counter: ResourceCounter.named("Catch"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = CatchSink(handler: handler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
