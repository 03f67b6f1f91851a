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

/// Static `concat`: a `MergeLimitedSink` with one slot whose sources come from a sequence.
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
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = MergeLimitedSink<Observable<Element>, Observable<Element>, Observer>(
            selector: { $0 }, maxConcurrent: 1, observer: observer, cancel: cancel)
        let subscription = sink.run(sources: sources)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let concat = named("Concat")
    fileprivate static let concatMap = named("ConcatMap")
}
