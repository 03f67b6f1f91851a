// RxSwift 6's operators on `Infallible`: each is the `Observable` operator of the same name,
// so it records the same trace nodes, with the call site of the code that wrote it.

// MARK: - Transforming and filtering

extension InfallibleType {
    /// Transforms each element.
    public func map<Result>(
        _ transform: @escaping (Element) -> Result, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Result> {
        Infallible(asObservable().map(transform, file: file, line: line))
    }

    /// Transforms each element, dropping the `nil`s.
    public func compactMap<Result>(
        _ transform: @escaping (Element) -> Result?, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Result> {
        Infallible(asObservable().compactMap(transform, file: file, line: line))
    }

    /// Keeps the elements for which `predicate` holds.
    public func filter(
        _ predicate: @escaping (Element) -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().filter(predicate, file: file, line: line))
    }

    /// Each intermediate result of `accumulator`, starting from `seed`, changed in place.
    public func scan<Seed>(
        into seed: Seed, accumulator: @escaping (inout Seed, Element) -> Void, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Infallible<Seed> {
        Infallible(asObservable().scan(into: seed, accumulator: accumulator, file: file, line: line))
    }

    /// Each intermediate result of `accumulator`, starting from `seed`.
    public func scan<Seed>(
        _ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Infallible<Seed> {
        Infallible(asObservable().scan(seed, accumulator: accumulator, file: file, line: line))
    }

    /// `element` first, then the sequence.
    public func startWith(_ element: Element, file: StaticString = #fileID, line: UInt = #line) -> Infallible<Element> {
        Infallible(asObservable().startWith(element, file: file, line: line))
    }
}

extension InfallibleType where Element: Equatable {
    /// Drops elements equal to the one before.
    public func distinctUntilChanged(file: StaticString = #fileID, line: UInt = #line) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(file: file, line: line))
    }
}

extension InfallibleType {
    /// Drops elements whose key equals the previous element's.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping (Element) throws -> Key, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector, file: file, line: line))
    }

    /// Drops elements that `comparer` calls equal to the previous one.
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(comparer, file: file, line: line))
    }

    /// Drops elements whose key `comparer` calls equal to the previous element's.
    public func distinctUntilChanged<K>(
        _ keySelector: @escaping (Element) throws -> K, comparer: @escaping (K, K) throws -> Bool,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector, comparer: comparer, file: file, line: line))
    }

    /// Drops elements whose property at `keyPath` equals the previous element's.
    public func distinctUntilChanged<Property: Equatable>(
        at keyPath: KeyPath<Element, Property>, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(at: keyPath, file: file, line: line))
    }
}

// MARK: - Time

extension InfallibleType {
    /// Emits an element only once `dueTime` passed without another.
    public func debounce(
        _ dueTime: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().debounce(dueTime, scheduler: scheduler, file: file, line: line))
    }

    /// At most one element per `dueTime`: the first, and with `latest` the last of the window.
    public func throttle(
        _ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler, file: file, line: line))
    }
}

// MARK: - Flattening

extension InfallibleType {
    /// Maps each element to a sequence and merges them all.
    public func flatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) -> Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMap(selector, file: file, line: line))
    }

    /// Maps each element to a sequence and follows only the latest.
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) -> Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapLatest(selector, file: file, line: line))
    }

    /// Maps each element to a sequence, ignoring elements while one is running.
    public func flatMapFirst<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) -> Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapFirst(selector, file: file, line: line))
    }

    /// Maps each element to a sequence and runs them one after another.
    public func concatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) -> Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().concatMap(selector, file: file, line: line))
    }

    /// This sequence, then `second`.
    public func concat<Source: ObservableConvertibleType>(
        _ second: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> where Source.Element == Element {
        Infallible(Observable.concat([asObservable(), second.asObservable()], file: file, line: line))
    }

    /// The sequences one after another.
    public static func concat<Sequence: Swift.Sequence>(
        _ sequence: Sequence, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> where Sequence.Element == Infallible<Element> {
        Infallible(Observable.concat(sequence.map { $0.asObservable() }, file: file, line: line))
    }

    /// The sequences one after another.
    public static func concat<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> where Collection.Element == Infallible<Element> {
        Infallible(Observable.concat(collection.map { $0.asObservable() }, file: file, line: line))
    }

    /// The sequences one after another.
    public static func concat(
        _ sources: Infallible<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(Observable.concat(sources.map { $0.asObservable() }, file: file, line: line))
    }

    /// The elements of all the sequences, as they come. (RxSwift 6 concatenates a collection
    /// that is not an array here; RxCore merges every form, as the name says.)
    public static func merge<Collection: Swift.Collection>(
        _ sources: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> where Collection.Element == Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }, file: file, line: line))
    }

    /// The elements of all the sequences, as they come.
    public static func merge(
        _ sources: [Infallible<Element>], file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }, file: file, line: line))
    }

    /// The elements of all the sequences, as they come.
    public static func merge(
        _ sources: Infallible<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }, file: file, line: line))
    }
}

// MARK: - Side effects and sharing

extension Infallible {
    /// Calls the closures as events pass (see `ObservableType.do`).
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            asObservable().do(
                onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, file: file, line: line))
    }

    /// Prints the subscription's events (see `ObservableType.debug`).
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function
    ) -> Infallible<Element> {
        Infallible(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}

extension InfallibleType {
    /// One subscription to the source, shared by all subscribers (see `ObservableType.share`).
    public func share(
        replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().share(replay: replay, scope: scope, file: file, line: line))
    }

    /// Each element with `obj`, held weakly; completes once `obj` is gone.
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Infallible<Out> {
        Infallible(asObservable().withUnretained(obj, resultSelector: resultSelector, file: file, line: line))
    }

    /// Each element paired with `obj`, held weakly; completes once `obj` is gone.
    public func withUnretained<Object: AnyObject>(
        _ obj: Object, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(Object, Element)> {
        Infallible(asObservable().withUnretained(obj, file: file, line: line))
    }

    /// Each element combined with the latest element of `second`, once it has one.
    public func withLatestFrom<Source: InfallibleType, ResultType>(
        _ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<ResultType> {
        Infallible(
            asObservable().withLatestFrom(second.asObservable(), resultSelector: resultSelector, file: file, line: line)
        )
    }

    /// The latest element of `second` each time this sequence emits, once `second` has one.
    public func withLatestFrom<Source: InfallibleType>(
        _ second: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().withLatestFrom(second.asObservable(), file: file, line: line))
    }
}

// MARK: - Taking and skipping

extension InfallibleType {
    /// The elements until `other` emits.
    public func take<Source: InfallibleType>(
        until other: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().take(until: other.asObservable(), file: file, line: line))
    }

    /// The elements until `other` emits.
    public func take<Source: ObservableType>(
        until other: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().take(until: other, file: file, line: line))
    }

    /// The elements until `predicate` holds for one (`.inclusive`: that one too).
    public func take(
        until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().take(until: predicate, behavior: behavior, file: file, line: line))
    }

    /// The elements while `predicate` holds (`.inclusive`: the first that fails it too).
    public func take(
        while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().take(while: predicate, behavior: behavior, file: file, line: line))
    }

    /// The first `count` elements.
    public func take(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Infallible<Element> {
        Infallible(asObservable().take(count, file: file, line: line))
    }

    /// The elements of the first `duration`.
    public func take(
        for duration: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().take(for: duration, scheduler: scheduler, file: file, line: line))
    }

    /// Drops elements while `predicate` holds.
    public func skip(
        while predicate: @escaping (Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().skip(while: predicate, file: file, line: line))
    }

    /// Drops elements until `other` emits.
    public func skip<Source: ObservableType>(
        until other: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(asObservable().skip(until: other, file: file, line: line))
    }
}

// MARK: - Binding

extension InfallibleType {
    /// Sends every event to `observers`.
    public func bind<Observer: ObserverType>(
        to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element {
        bind(toAll: observers, file: file, line: line)
    }

    /// Sends every event, elements as optionals, to `observers`.
    public func bind<Observer: ObserverType>(
        to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element? {
        asObservable().subscribe({ event in observers.forEach { $0.on(event.map { $0 }) } }, file: file, line: line)
    }

    /// Hands the sequence to `binder` (a function of it) and returns what it returns.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Hands the sequence and `curriedArgument` to a curried `binder`.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes `onNext`.
    public func bind(
        onNext: @escaping (Element) -> Void, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        subscribe(onNext: onNext, file: file, line: line)
    }

    /// Accepts every element into `relays`.
    public func bind(
        to relays: PublishRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Accepts every element, as an optional, into `relays`.
    public func bind(
        to relays: PublishRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Accepts every element into `relays`.
    public func bind(
        to relays: BehaviorRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Accepts every element, as an optional, into `relays`.
    public func bind(
        to relays: BehaviorRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Accepts every element into `relays`.
    public func bind(
        to relays: ReplayRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }

    /// Accepts every element, as an optional, into `relays`.
    public func bind(
        to relays: ReplayRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        bindRelays(file: file, line: line) { element in relays.forEach { $0.accept(element) } }
    }
}
