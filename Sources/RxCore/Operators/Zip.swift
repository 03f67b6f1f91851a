extension ObservableType {
    /// Combines the sources' elements pairwise by index with `resultSelector`. Completes when
    /// all sources have completed, or when an element arrives that can never be paired (every
    /// other source completed with nothing left to pair), as in RxSwift.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Collection.Element: ObservableType {
        Zip(
            sources: collection.map { CombiningSource($0.asObservable(), convert: { $0 }) }, combine: resultSelector,
            callSite: CallSite(file, line))
    }

    /// The sources' elements as arrays, pairwise by index.
    ///
    /// ```swift
    /// Observable.zip([Observable.of(1, 2), Observable.of(10, 20)])   // [1, 10], [2, 20]
    /// ```
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        Zip(
            sources: collection.map { CombiningSource($0.asObservable(), convert: { $0 }) }, combine: { $0 },
            callSite: CallSite(file, line))
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

    init(arity: Int) {
        queues = Array(repeating: FIFOQueue(), count: arity)
        isDone = Array(repeating: false, count: arity)
    }

    mutating func next(_ value: Value, at index: Int) -> CombiningAction<Value> {
        guard case .zipping = state else { return .none }
        queues[index].append(value)
        for queue in queues where queue.isEmpty {
            // An element that can never be paired: every other source is done. RxSwift ends
            // here, not when the last source completes.
            if doneCount == isDone.count - 1 && !isDone[index] {
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

final class ZipSink<Value, Observer: ObserverType>: CombiningSink<ZipStateMachine<Value>, Observer> {
    init(arity: Int, combine: @escaping ([Value]) throws -> Observer.Element, observer: Observer, cancel: Cancelable) {
        super.init(arity: arity, combine: combine, observer: observer, cancel: cancel, counter: ResourceCounter.zipSink)
    }
}

final class Zip<Value, Result>: Producer<Result> {
    private let sources: [CombiningSource<Value>]
    private let combine: ([Value]) throws -> Result

    init(sources: [CombiningSource<Value>], combine: @escaping ([Value]) throws -> Result, callSite: CallSite?) {
        self.sources = sources
        self.combine = combine
        super.init(counter: ResourceCounter.zip, callSite: callSite)
        for source in sources { traceSource(source.observable) }
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = ZipSink(arity: sources.count, combine: combine, observer: observer, cancel: cancel)
        let subscription = sink.run(sources, observerCounter: .zipObserver)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let zipObserver = named("ZipObserver")
}

// MARK: 2

extension ObservableType {
    /// Combines the sources' elements pairwise by index (first with first, second with
    /// second, …) with `resultSelector`.
    public static func zip<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2, resultSelector: @escaping (O1.Element, O2.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Zip(
            sources: [CombiningSource(any: source1), CombiningSource(any: source2)],
            combine: { values in try resultSelector(values[0] as! O1.Element, values[1] as! O2.Element) },
            callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element)> {
        Zip(
            sources: [CombiningSource(any: source1), CombiningSource(any: source2)],
            combine: { values in (values[0] as! O1.Element, values[1] as! O2.Element) }, callSite: CallSite(file, line))
    }
}

// MARK: 3

extension ObservableType {
    /// Combines the sources' elements pairwise by index (first with first, second with
    /// second, …) with `resultSelector`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        Zip(
            sources: [CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3)],
            combine: { values in
                try resultSelector(values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element)
            }, callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element)> {
        Zip(
            sources: [CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3)],
            combine: { values in (values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element) },
            callSite: CallSite(file, line))
    }
}

// MARK: 4

extension ObservableType {
    /// Combines the sources' elements pairwise by index (first with first, second with
    /// second, …) with `resultSelector`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Zip(
            sources: [
                CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3),
                CombiningSource(any: source4),
            ],
            combine: { values in
                try resultSelector(
                    values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element,
                    values[3] as! O4.Element)
            }, callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> {
        Zip(
            sources: [
                CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3),
                CombiningSource(any: source4),
            ],
            combine: { values in
                (values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element, values[3] as! O4.Element)
            }, callSite: CallSite(file, line))
    }
}

// MARK: 5

extension ObservableType {
    /// Combines the sources' elements pairwise by index (first with first, second with
    /// second, …) with `resultSelector`.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Zip(
            sources: [
                CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3),
                CombiningSource(any: source4), CombiningSource(any: source5),
            ],
            combine: { values in
                try resultSelector(
                    values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element,
                    values[3] as! O4.Element, values[4] as! O5.Element)
            }, callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)> {
        Zip(
            sources: [
                CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3),
                CombiningSource(any: source4), CombiningSource(any: source5),
            ],
            combine: { values in
                (
                    values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element,
                    values[3] as! O4.Element, values[4] as! O5.Element
                )
            }, callSite: CallSite(file, line))
    }
}

// MARK: 6

extension ObservableType {
    /// Combines the sources' elements pairwise by index (first with first, second with
    /// second, …) with `resultSelector`.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
        resultSelector:
            @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Zip(
            sources: [
                CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3),
                CombiningSource(any: source4), CombiningSource(any: source5), CombiningSource(any: source6),
            ],
            combine: { values in
                try resultSelector(
                    values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element,
                    values[3] as! O4.Element, values[4] as! O5.Element, values[5] as! O6.Element)
            }, callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)> {
        Zip(
            sources: [
                CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3),
                CombiningSource(any: source4), CombiningSource(any: source5), CombiningSource(any: source6),
            ],
            combine: { values in
                (
                    values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element,
                    values[3] as! O4.Element, values[4] as! O5.Element, values[5] as! O6.Element
                )
            }, callSite: CallSite(file, line))
    }
}

// MARK: 7

extension ObservableType {
    /// Combines the sources' elements pairwise by index (first with first, second with
    /// second, …) with `resultSelector`.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType, O7: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        resultSelector:
            @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws ->
            Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Zip(
            sources: [
                CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3),
                CombiningSource(any: source4), CombiningSource(any: source5), CombiningSource(any: source6),
                CombiningSource(any: source7),
            ],
            combine: { values in
                try resultSelector(
                    values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element,
                    values[3] as! O4.Element, values[4] as! O5.Element, values[5] as! O6.Element,
                    values[6] as! O7.Element)
            }, callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType, O7: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)> {
        Zip(
            sources: [
                CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3),
                CombiningSource(any: source4), CombiningSource(any: source5), CombiningSource(any: source6),
                CombiningSource(any: source7),
            ],
            combine: { values in
                (
                    values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element,
                    values[3] as! O4.Element, values[4] as! O5.Element, values[5] as! O6.Element,
                    values[6] as! O7.Element
                )
            }, callSite: CallSite(file, line))
    }
}

// MARK: 8

extension ObservableType {
    /// Combines the sources' elements pairwise by index (first with first, second with
    /// second, …) with `resultSelector`.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType, O7: ObservableType, O8: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        _ source8: O8,
        resultSelector:
            @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)
            throws -> Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Zip(
            sources: [
                CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3),
                CombiningSource(any: source4), CombiningSource(any: source5), CombiningSource(any: source6),
                CombiningSource(any: source7), CombiningSource(any: source8),
            ],
            combine: { values in
                try resultSelector(
                    values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element,
                    values[3] as! O4.Element, values[4] as! O5.Element, values[5] as! O6.Element,
                    values[6] as! O7.Element, values[7] as! O8.Element)
            }, callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType, O7: ObservableType, O8: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        _ source8: O8, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)> {
        Zip(
            sources: [
                CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3),
                CombiningSource(any: source4), CombiningSource(any: source5), CombiningSource(any: source6),
                CombiningSource(any: source7), CombiningSource(any: source8),
            ],
            combine: { values in
                (
                    values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element,
                    values[3] as! O4.Element, values[4] as! O5.Element, values[5] as! O6.Element,
                    values[6] as! O7.Element, values[7] as! O8.Element
                )
            }, callSite: CallSite(file, line))
    }
}

extension ResourceCounter {
    fileprivate static let zip = named("Zip")
    fileprivate static let zipSink = named("ZipSink")
}
