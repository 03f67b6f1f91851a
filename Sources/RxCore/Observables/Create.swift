import Synchronization

extension ObservableType {
    /// A sequence whose subscribe is `subscribe` (step4 of 001).
    ///
    /// ```swift
    /// let observable = Observable<String>.create { observer in
    ///     observer.onNext("mojito")
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(
        _ subscribe: @escaping (AnyObserver<Element>) -> Disposable, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        AnonymousObservable(subscribe, callSite: CallSite(file, line))
    }
}

/// The `Producer` behind `create` (step5 of 001): keeps the subscribe handler and runs it for
/// each subscriber through an `AnonymousObservableSink`.
final class AnonymousObservable<Element>: Producer<Element> {
    typealias SubscribeHandler = (AnyObserver<Element>) -> Disposable

    let subscribeHandler: SubscribeHandler

    init(_ subscribeHandler: @escaping SubscribeHandler, callSite: CallSite?) {
        self.subscribeHandler = subscribeHandler
        super.init(counter: .anonymousObservable, callSite: callSite)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = AnonymousObservableSink(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}

// The "stopped" flag of `create`'s sink, kept in the low bits of `Sink.flags` beside its disposed
// and traced bits so the element path reads all three in one load (docs/architecture.md, "The flag
// byte").
private let createStoppedFlag: UInt = 4

/// The sink of `create` (step8 of 001): the `AnyObserver` handed to the handler points here;
/// it forwards events downstream and stops after the first stop event.
final class AnonymousObservableSink<Observer: ObserverType>: Sink<Observer>, ObserverType, TraceSelfRecording {
    typealias Element = Observer.Element
    typealias Parent = AnonymousObservable<Element>

    override init(observer: Observer, cancel: SinkDisposer, counter: ResourceCounter? = nil) {
        super.init(observer: observer, cancel: cancel, counter: .anonymousObservableSink)
    }

    func onNext(_ element: Element) {
        let flags = self.flags.load(ordering: .relaxed) & (sinkDisposedFlag | sinkTracedFlag | createStoppedFlag)
        if flags != 0 {
            // Traced, this `on` and the `forwardOn` that follows it are one record.
            if flags & sinkTracedFlag != 0 {
                return tracedOnNext(element, stopped: flags & createStoppedFlag != 0)
            }
            return // stopped or disposed
        }
        observer.onNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            if traceID != 0 { traceReceived(event) }
            if stop() {
                forwardOn(event)
                dispose()
            }
        }
    }

    /// Sets the stopped flag; true for the call that stopped the sink.
    private func stop() -> Bool {
        flags.bitwiseOr(createStoppedFlag, ordering: .acquiringAndReleasing).oldValue & createStoppedFlag == 0
    }

    @inline(never)
    private func traceReceived(_ event: Event<Element>) {
        Tracing.active?.received(.on, node: traceID, event: event, recordEvent: true)
    }

    func run(_ parent: Parent) -> Disposable {
        traceStep(.handler, from: traceID, to: parent.traceID, "AnyObserver(sink)")
        return parent.subscribeHandler(AnyObserver(self))
    }
}
