extension ObservableType {
    /// For each subscriber: a fresh subject from `subjectSelector` shares one subscription to
    /// the source among the uses `selector` makes of it, and the subscriber gets what `selector`
    /// builds. The source is connected once `selector`'s sequence is subscribed.
    ///
    /// ```swift
    /// // One subscription to `prices` feeds both sides of the zip.
    /// prices.multicast({ PublishSubject<Int>() }, selector: { shared in
    ///     Observable.zip(shared, shared.skip(1)) { $1 - $0 }
    /// })
    /// ```
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        Multicast(
            source: asObservable(), subjectSelector: subjectSelector, selector: selector, callSite: CallSite(file, line)
        )
    }
}

final class MulticastSink<Subject: SubjectType, Observer: ObserverType>: PassThroughSink<Observer> {
    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: .multicastSink)
    }

    func run(_ parent: Multicast<Subject, Element>) -> Disposable {
        do {
            let subject = try parent.subjectSelector()
            let connectable = ConnectableObservableAdapter(
                source: parent.source, makeSubject: { subject }, callSite: parent.callSite)
            let subscription = try parent.selector(connectable).subscribe(self)
            return Disposables.create(subscription, connectable.connect())
        } catch {
            forwardErrorAndDispose(error)
            return Disposables.create()
        }
    }
}

final class Multicast<Subject: SubjectType, Result>: Producer<Result> {
    typealias SubjectSelector = () throws -> Subject
    typealias Selector = (Observable<Subject.Element>) throws -> Observable<Result>

    let source: Observable<Subject.Observer.Element>
    let subjectSelector: SubjectSelector
    let selector: Selector

    init(
        source: Observable<Subject.Observer.Element>, subjectSelector: @escaping SubjectSelector,
        selector: @escaping Selector, callSite: CallSite?
    ) {
        self.source = source
        self.subjectSelector = subjectSelector
        self.selector = selector
        super.init(counter: .multicast, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Result {
        let sink = MulticastSink<Subject, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let multicast = named("Multicast")
    fileprivate static let multicastSink = named("MulticastSink")
}
