extension ObservableType {
    /// Combines the latest element of each source with `resultSelector` whenever any of them
    /// emits, once all have emitted. Completes when all sources have completed, or when a
    /// source emits while every other one has completed without a value. Two to eight sources
    /// in RxSwift; any number from two here (one generic form, not one per arity).
    ///
    /// ```swift
    /// Observable.combineLatest(username, password) { !$0.isEmpty && $1.count >= 8 }
    /// ```
    @inlinable
    public static func combineLatest<O1: ObservableType, O2: ObservableType, each O: ObservableType>(
        _ source1: O1, _ source2: O2, _ source: repeat each O,
        resultSelector: @escaping (O1.Element, O2.Element, repeat (each O).Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        CombineLatest(
            sources: CombiningSource.of(source1, source2, repeat each source), isCollection: false,
            combine: CombiningSlots.combine(resultSelector), callSite: CallSite(file, line))
    }

    /// Combines the latest element of each source with `resultSelector` whenever any of them
    /// emits, once all have emitted. Completes when all sources have completed.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Collection.Element: ObservableType {
        CombineLatest(
            sources: collection.map { CombiningSource($0.asObservable(), convert: { $0 }) }, isCollection: true,
            combine: resultSelector, callSite: CallSite(file, line))
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
            sources: collection.map { CombiningSource($0.asObservable(), convert: { $0 }) }, isCollection: true,
            combine: { $0 }, callSite: CallSite(file, line))
    }
}

extension ObservableType where Element == Any {
    /// The latest element of each source as a tuple, whenever any of them emits, once all have
    /// emitted.
    ///
    /// ```swift
    /// Observable.combineLatest(username, password)   // ("a", ""), ("ab", ""), ("ab", "s"), …
    /// ```
    @inlinable
    public static func combineLatest<each O: ObservableType>(
        _ source: repeat each O, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(repeat (each O).Element)> {
        CombineLatest(
            sources: CombiningSource.of(repeat each source), isCollection: false,
            combine: CombiningSlots.tuple(of: repeat (each O).Element.self), callSite: CallSite(file, line))
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

    /// Ends as soon as a source emits while every other one completed without a value.
    private let completesEarly: Bool

    init(arity: Int, completesEarly: Bool) {
        values = Array(repeating: nil, count: arity)
        isDone = Array(repeating: false, count: arity)
        self.completesEarly = completesEarly
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
            if completesEarly && doneCount == values.count - 1 && !isDone[index] {
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

final class CombineLatestSink<Value, Observer: ObserverType>:
    CombiningSink<CombineLatestStateMachine<Value>, Observer>
{}

@usableFromInline
final class CombineLatest<Value, Result>: Producer<Result> {
    private let sources: [CombiningSource<Value>]
    /// Whether the sources came as a collection (RxSwift's `CombineLatest+Collection.swift`),
    /// which acts on a source's end before disposing it; the forms with the sources as
    /// arguments dispose it first.
    private let isCollection: Bool
    private let combine: ([Value]) throws -> Result

    @usableFromInline
    init(
        sources: [CombiningSource<Value>], isCollection: Bool, combine: @escaping ([Value]) throws -> Result,
        callSite: CallSite?
    ) {
        self.sources = sources
        self.isCollection = isCollection
        self.combine = combine
        super.init(counter: ResourceCounter.combineLatest, callSite: callSite)
        for source in sources { traceSource(source.observable) }
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Result {
        let sink = CombineLatestSink(
            arity: sources.count, completesEarly: true, disposesEndedSourceFirst: !isCollection, combine: combine,
            observer: observer, cancel: cancel, counter: .combineLatestSink)
        let subscription = sink.run(sources, observerCounter: .combineLatestObserver)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let combineLatest = named("CombineLatest")
    fileprivate static let combineLatestSink = named("CombineLatestSink")
    fileprivate static let combineLatestObserver = named("CombineLatestObserver")
}
