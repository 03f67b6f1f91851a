extension ObservableType {
    /// Combines the latest element of each source with `resultSelector` whenever any of them
    /// emits, once all have emitted. Completes when all sources have completed.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Collection.Element: ObservableType {
        CombineLatest(
            sources: collection.map { CombiningSource($0.asObservable(), convert: { $0 }) }, combine: resultSelector,
            callSite: CallSite(file, line))
    }

    /// The latest element of each source as an array, whenever any of them emits, once all
    /// have emitted. With no sources: `[]` once, then `completed`.
    ///
    /// ```swift
    /// Observable.combineLatest([username, password])   // ["a", "b"], ["ab", "b"], …
    /// ```
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        CombineLatest(
            sources: collection.map { CombiningSource($0.asObservable(), convert: { $0 }) }, combine: { $0 },
            callSite: CallSite(file, line))
    }
}

/// What `combineLatest` knows: the latest value of each source and which sources are done.
struct CombineLatestStateMachine<Value>: CombiningStateMachine {
    /// As in RxSwift, `combineLatest` of no sources sends `[]` (combined) once, then completes.
    static var combinesNoSources: Bool { true }

    enum State {
        /// Some source has not produced a value yet: nothing is emitted.
        case collecting
        /// Every source has a value: each new value emits a combination.
        case combining
        /// Terminated: all sources completed, one failed, or the combination threw.
        case finished
    }

    private(set) var state = State.collecting
    private var values: [Value?]
    private var valueCount = 0
    private var isDone: [Bool]
    private var doneCount = 0

    init(arity: Int) {
        values = Array(repeating: nil, count: arity)
        isDone = Array(repeating: false, count: arity)
    }

    mutating func next(_ value: Value, at index: Int) -> CombiningAction<Value> {
        switch state {
        case .finished:
            return .none
        case .combining:
            values[index] = value
            return .emit(values.map { $0! })
        case .collecting:
            if values[index] == nil { valueCount += 1 }
            values[index] = value
            if valueCount == values.count {
                state = .combining
                return .emit(values.map { $0! })
            }
            // Every other source finished without a value: no combination can ever come.
            if doneCount == values.count - 1 && !isDone[index] {
                state = .finished
                return .complete
            }
            return .none
        }
    }

    mutating func completed(at index: Int) -> CombiningAction<Value> {
        if case .finished = state { return .none }
        if isDone[index] { return .none }
        isDone[index] = true
        doneCount += 1
        if doneCount == isDone.count {
            state = .finished
            return .complete
        }
        return .disposeSource(index)
    }

    mutating func failed() -> CombiningAction<Value> {
        if case .finished = state { return .none }
        state = .finished
        return .fail
    }
}

final class CombineLatestSink<Value, Observer: ObserverType>: CombiningSink<CombineLatestStateMachine<Value>, Observer>
{
    init(arity: Int, combine: @escaping ([Value]) throws -> Observer.Element, observer: Observer, cancel: Cancelable) {
        super.init(
            arity: arity, combine: combine, observer: observer, cancel: cancel,
            counter: ResourceCounter.combineLatestSink)
    }
}

final class CombineLatest<Value, Result>: Producer<Result> {
    private let sources: [CombiningSource<Value>]
    private let combine: ([Value]) throws -> Result

    init(sources: [CombiningSource<Value>], combine: @escaping ([Value]) throws -> Result, callSite: CallSite?) {
        self.sources = sources
        self.combine = combine
        super.init(counter: ResourceCounter.combineLatest, callSite: callSite)
        for source in sources { traceSource(source.observable) }
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = CombineLatestSink(arity: sources.count, combine: combine, observer: observer, cancel: cancel)
        let subscription = sink.run(sources, observerCounter: .combineLatestObserver)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let combineLatestObserver = named("CombineLatestObserver")
}

// MARK: 2

extension ObservableType {
    /// Combines the latest element of each source with `resultSelector` whenever any of them
    /// emits, once all have emitted.
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2, resultSelector: @escaping (O1.Element, O2.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        CombineLatest(
            sources: [CombiningSource(any: source1), CombiningSource(any: source2)],
            combine: { values in try resultSelector(values[0] as! O1.Element, values[1] as! O2.Element) },
            callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The latest element of each source as a tuple, whenever any of them emits, once all
    /// have emitted.
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element)> {
        CombineLatest(
            sources: [CombiningSource(any: source1), CombiningSource(any: source2)],
            combine: { values in (values[0] as! O1.Element, values[1] as! O2.Element) }, callSite: CallSite(file, line))
    }
}

// MARK: 3

extension ObservableType {
    /// Combines the latest element of each source with `resultSelector` whenever any of them
    /// emits, once all have emitted.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        CombineLatest(
            sources: [CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3)],
            combine: { values in
                try resultSelector(values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element)
            }, callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The latest element of each source as a tuple, whenever any of them emits, once all
    /// have emitted.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element)> {
        CombineLatest(
            sources: [CombiningSource(any: source1), CombiningSource(any: source2), CombiningSource(any: source3)],
            combine: { values in (values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element) },
            callSite: CallSite(file, line))
    }
}

// MARK: 4

extension ObservableType {
    /// Combines the latest element of each source with `resultSelector` whenever any of them
    /// emits, once all have emitted.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        CombineLatest(
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
    /// The latest element of each source as a tuple, whenever any of them emits, once all
    /// have emitted.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> {
        CombineLatest(
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
    /// Combines the latest element of each source with `resultSelector` whenever any of them
    /// emits, once all have emitted.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        CombineLatest(
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
    /// The latest element of each source as a tuple, whenever any of them emits, once all
    /// have emitted.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)> {
        CombineLatest(
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
    /// Combines the latest element of each source with `resultSelector` whenever any of them
    /// emits, once all have emitted.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
        resultSelector:
            @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        CombineLatest(
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
    /// The latest element of each source as a tuple, whenever any of them emits, once all
    /// have emitted.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)> {
        CombineLatest(
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
    /// Combines the latest element of each source with `resultSelector` whenever any of them
    /// emits, once all have emitted.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType, O7: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        resultSelector:
            @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws ->
            Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        CombineLatest(
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
    /// The latest element of each source as a tuple, whenever any of them emits, once all
    /// have emitted.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType, O7: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)> {
        CombineLatest(
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
    /// Combines the latest element of each source with `resultSelector` whenever any of them
    /// emits, once all have emitted.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType, O7: ObservableType, O8: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        _ source8: O8,
        resultSelector:
            @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)
            throws -> Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        CombineLatest(
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
    /// The latest element of each source as a tuple, whenever any of them emits, once all
    /// have emitted.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType,
        O6: ObservableType, O7: ObservableType, O8: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        _ source8: O8, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)> {
        CombineLatest(
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
    fileprivate static let combineLatest = named("CombineLatest")
    fileprivate static let combineLatestSink = named("CombineLatestSink")
}
