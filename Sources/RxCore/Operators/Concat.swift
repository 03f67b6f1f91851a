import Synchronization

extension ObservableType {
    /// Maps each element to an observable and emits their elements one observable after the
    /// other: the next is subscribed when the previous completes.
    public func concatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Source.Element> {
        FlatMap(
            source: asObservable(), selector: selector, limit: .maxConcurrent(1), counter: .concatMap,
            callSite: CallSite(file, line))
    }

    /// The elements of this observable, then, once it completes, those of `second`.
    ///
    /// ```swift
    /// Observable.of(1, 2).concat(Observable.of(3))   // 1, 2, 3
    /// ```
    public func concat<Source: ObservableConvertibleType>(
        _ second: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Source.Element == Element {
        Concat(sources: [asObservable(), second.asObservable()], callSite: CallSite(file, line))
    }

    /// The elements of each source in turn; the next is subscribed when the previous completes.
    public static func concat<Sequence: Swift.Sequence>(
        _ sequence: Sequence, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Sequence.Element == Observable<Element> {
        Concat(sources: sequence, callSite: CallSite(file, line))
    }

    /// The elements of each source in turn; the next is subscribed when the previous completes.
    public static func concat<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Collection.Element == Observable<Element> {
        Concat(sources: collection, callSite: CallSite(file, line))
    }

    /// The elements of each source in turn; the next is subscribed when the previous completes.
    public static func concat(
        _ sources: Observable<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Concat(sources: sources, callSite: CallSite(file, line))
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// The elements of each inner observable in turn: `merge(maxConcurrent: 1)`.
    public func concat(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element.Element> {
        FlatMap(
            source: asObservable(), selector: { $0 }, limit: .maxConcurrent(1), counter: .concat,
            callSite: CallSite(file, line))
    }
}

/// Static `concat` (RxSwift's `ConcatSink`, a `TailRecursiveSink`): the sources one at a time,
/// taken lazily from the sequence's iterator.
///
/// Moving on is serialized by `gate`: a source that completes while it is being subscribed (a
/// `just`) leaves its move to the thread already moving, which makes it once that `subscribe`
/// has returned, so `concat` of 100,000 `just`s runs in constant stack. The current subscription
/// sits in a `SerialDisposable`: the next source's slot replaces (disposes) the finished one's
/// before the next is subscribed, and after the last source the completion is passed on before
/// the last subscription is disposed.
final class ConcatSink<Sources: Swift.Sequence, Observer: ObserverType>: Sink<Observer>, ObserverType
where Sources.Element == Observable<Observer.Element> {
    typealias Element = Observer.Element

    /// Read only by the thread that holds the gate.
    private var iterator: Sources.Iterator
    private let subscription = SerialDisposable()
    /// Whether a thread is moving on, and how many more moves it owes.
    private let gate = Mutex<(moving: Bool, owed: Int)>((false, 0))

    init(sources: Sources, observer: Observer, cancel: SinkDisposer) {
        iterator = sources.makeIterator()
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.concatSink)
    }

    func run() -> Disposable {
        moveNext()
        return subscription
    }

    func onNext(_ element: Element) {
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardErrorAndDispose(error)
        case .completed:
            moveNext()
        }
    }

    /// Subscribes the next source, or completes after the last; a move asked for while another
    /// runs is made by that one's thread when it is done.
    private func moveNext() {
        let enters = gate.withLock { gate in
            if gate.moving {
                gate.owed += 1
                return false
            }
            gate.moving = true
            return true
        }
        guard enters else { return }
        repeat {
            subscribeNext()
        } while gate.withLock { gate in
            if gate.owed > 0 {
                gate.owed -= 1
                return true
            }
            gate.moving = false
            return false
        }
    }

    private func subscribeNext() {
        if isDisposed { return }
        guard let next = iterator.next() else { return forwardCompletedAndDispose() }
        let current = SingleAssignmentDisposable()
        subscription.disposable = current
        current.setDisposable(next.subscribe(self))
    }
}

final class Concat<Sources: Swift.Sequence, Element>: Producer<Element> where Sources.Element == Observable<Element> {
    private let sources: Sources

    init(sources: Sources, callSite: CallSite?) {
        self.sources = sources
        super.init(counter: ResourceCounter.concat, callSite: callSite)
        if traceID != 0, let collection = sources as? [Observable<Element>] {
            for source in collection { traceSource(source) }
        }
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = ConcatSink(sources: sources, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let concat = named("Concat")
    fileprivate static let concatMap = named("ConcatMap")
    fileprivate static let concatSink = named("ConcatSink")
}
