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

    /// The sources one after another, each taking over when the one before fails: completes
    /// when one completes, fails with the last error when every one failed, and completes at
    /// once when there are none.
    ///
    /// ```swift
    /// Observable.catch(sequence: [primaryServer, backupServer, cache])
    /// ```
    public static func `catch`<Sequence: Swift.Sequence>(
        sequence: Sequence, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Sequence.Element == Observable<Element> {
        CatchSequence(sources: sequence, callSite: CallSite(file, line))
    }

    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sequence: Swift.Sequence>(
        _ sequence: Sequence, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Sequence.Element == Observable<Element> {
        `catch`(sequence: sequence, file: file, line: line)
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

final class CatchSink<Observer: ObserverType>: ResubscribingSink<Observer> {
    typealias Handler = (Swift.Error) throws -> Observable<Element>

    private let handler: Handler

    init(handler: @escaping Handler, observer: Observer, cancel: SinkDisposer) {
        self.handler = handler
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("CatchSink"))
    }

    func run(_ source: Observable<Element>) -> Disposable {
        subscribe(to: source)
        return subscription
    }

    /// Continues with the handler's sequence, observed by a proxy so that its own error is
    /// passed on rather than caught again.
    override func failed(_ error: Swift.Error) {
        do {
            let next = try handler(error)
            if isDisposed { return }
            subscription.disposable = next.subscribe(CatchSinkProxy(parent: self))
        } catch let handlerError {
            forwardErrorAndDispose(handlerError)
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
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = CatchSink(handler: handler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - catch(sequence:)

/// Subscribes to the sources in turn: each error moves on to the next one.
final class CatchSequenceSink<Sources: Sequence, Observer: ObserverType>: ResubscribingSink<Observer>
where Sources.Element == Observable<Observer.Element> {
    private let remaining: Mutex<Sources.Iterator>

    init(sources: Sources, observer: Observer, cancel: SinkDisposer) {
        self.remaining = Mutex(sources.makeIterator())
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("CatchSequenceSink"))
    }

    func run() -> Disposable {
        moveOn(after: nil)
        return subscription
    }

    override func failed(_ error: Swift.Error) {
        moveOn(after: error)
    }

    /// Subscribes to the next source; with none left, ends as the last one did.
    private func moveOn(after error: Swift.Error?) {
        if let next = remaining.withLock({ $0.next() }) {
            subscribe(to: next)
        } else if let error {
            forwardErrorAndDispose(error)
        } else {
            forwardCompletedAndDispose()
        }
    }
}

final class CatchSequence<Sources: Sequence, Element>: Producer<Element> where Sources.Element == Observable<Element> {
    private let sources: Sources

    init(sources: Sources, callSite: CallSite?) {
        self.sources = sources
        super.init(counter: ResourceCounter.named("CatchSequence"), callSite: callSite)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = CatchSequenceSink(sources: sources, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
