extension ObservableType {
    /// Combines the sources' elements pairwise by index (first with first, second with second,
    /// …) with `resultSelector`. Completes when every source has completed; each source's
    /// subscription ends at its own completion. Two to eight sources in RxSwift; any number
    /// from two here (one generic form, not one per arity).
    ///
    /// ```swift
    /// Observable.zip(names, ages) { name, age in "\(name) (\(age))" }
    /// ```
    @inlinable
    public static func zip<O1: ObservableType, O2: ObservableType, each O: ObservableType>(
        _ source1: O1, _ source2: O2, _ source: repeat each O,
        resultSelector: @escaping (O1.Element, O2.Element, repeat (each O).Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Zip(
            sources: CombiningSource.of(source1, source2, repeat each source), completesEarly: false,
            combine: CombiningSlots.combine(resultSelector), callSite: CallSite(file, line))
    }

    /// Combines the sources' elements pairwise by index with `resultSelector`. Unlike the
    /// forms with the sources as arguments, completes as soon as an element arrives that can
    /// never be paired (every other source completed), as in RxSwift.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Collection.Element: ObservableType {
        Zip(
            sources: collection.map { CombiningSource($0.asObservable(), convert: { $0 }) }, completesEarly: true,
            combine: resultSelector, callSite: CallSite(file, line))
    }

    /// The sources' elements as arrays, pairwise by index (see `zip(_:resultSelector:)` of a
    /// collection for when it completes).
    ///
    /// ```swift
    /// Observable.zip([Observable.of(1, 2), Observable.of(10, 20)])   // [1, 10], [2, 20]
    /// ```
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        Zip(
            sources: collection.map { CombiningSource($0.asObservable(), convert: { $0 }) }, completesEarly: true,
            combine: { $0 }, callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The sources' elements as tuples, pairwise by index; completes when every source has.
    ///
    /// ```swift
    /// Observable.zip(names, ages)   // ("Ann", 31), ("Bo", 27), …
    /// ```
    @inlinable
    public static func zip<each O: ObservableType>(
        _ source: repeat each O, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(repeat (each O).Element)> {
        Zip(
            sources: CombiningSource.of(repeat each source), completesEarly: false,
            combine: CombiningSlots.tuple(of: repeat (each O).Element.self), callSite: CallSite(file, line))
    }
}

/// What `zip` knows: a queue of unpaired values per source and which sources are done.
struct ZipStateMachine<Value>: CombiningStateMachine {
    /// `zip` of no sources just completes, as in RxSwift.
    static var combinesNoSources: Bool { false }

    enum State {
        /// Running: a value is emitted each time every queue holds one.
        case zipping
        /// Terminated: all sources completed, one failed, or the combination threw.
        case finished
    }

    private(set) var state = State.zipping
    private var queues: [FIFOQueue<Value>]
    private var isDone: [Bool]
    private var doneCount = 0
    /// The collection forms' rule (RxSwift's `Zip+Collection.swift`): an element that can never
    /// be paired, every other source being done, completes the zip. The forms with the sources
    /// as arguments (`Zip+arity.swift`) wait for every source's own completion.
    private let completesEarly: Bool

    init(arity: Int, completesEarly: Bool) {
        queues = Array(repeating: FIFOQueue(), count: arity)
        isDone = Array(repeating: false, count: arity)
        self.completesEarly = completesEarly
    }

    mutating func next(_ value: Value, at index: Int) -> CombiningAction<Value> {
        guard case .zipping = state else { return .none }
        queues[index].append(value)
        for queue in queues where queue.isEmpty {
            if completesEarly && doneCount == isDone.count - 1 && !isDone[index] {
                state = .finished
                return .complete
            }
            return .none
        }
        var values: [Value] = []
        values.reserveCapacity(queues.count)
        for i in queues.indices { values.append(queues[i].removeFirst()) }
        return .emit(values)
    }

    mutating func completed(at index: Int) -> CombiningAction<Value> {
        guard case .zipping = state, !isDone[index] else { return .none }
        isDone[index] = true
        doneCount += 1
        if doneCount == isDone.count {
            state = .finished
            return .complete
        }
        return .disposeSource(index)
    }

    mutating func failed() -> CombiningAction<Value> {
        guard case .zipping = state else { return .none }
        state = .finished
        return .fail
    }
}

final class ZipSink<Value, Observer: ObserverType>: CombiningSink<ZipStateMachine<Value>, Observer> {}

@usableFromInline
final class Zip<Value, Result>: Producer<Result> {
    private let sources: [CombiningSource<Value>]
    private let completesEarly: Bool
    private let combine: ([Value]) throws -> Result

    @usableFromInline
    init(
        sources: [CombiningSource<Value>], completesEarly: Bool, combine: @escaping ([Value]) throws -> Result,
        callSite: CallSite?
    ) {
        self.sources = sources
        self.completesEarly = completesEarly
        self.combine = combine
        super.init(counter: ResourceCounter.zip, callSite: callSite)
        for source in sources { traceSource(source.observable) }
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Result {
        // The collection form is the one that completes early and acts on a source's end first.
        let sink = ZipSink(
            arity: sources.count, completesEarly: completesEarly, disposesEndedSourceFirst: !completesEarly,
            combine: combine, observer: observer, cancel: cancel, counter: .zipSink)
        let subscription = sink.run(sources, observerCounter: .zipObserver)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let zip = named("Zip")
    fileprivate static let zipSink = named("ZipSink")
    fileprivate static let zipObserver = named("ZipObserver")
}
