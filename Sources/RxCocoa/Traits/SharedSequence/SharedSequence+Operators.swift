// RxCocoa's operators on `Driver` and `Signal`: each is the `Observable` operator of the same
// name, shared by the strategy, so a shared sequence stays one that cannot fail, delivers on
// the sharing scheduler and shares. Their closures do not throw: a shared sequence cannot fail.

// MARK: - Transforming and filtering

extension SharedSequenceConvertibleType {
    /// Transforms each element.
    public func map<Result>(
        _ selector: @escaping (Element) -> Result, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().map(selector, file: file, line: line), file: file, line: line)
    }

    /// Transforms each element, dropping the `nil`s.
    public func compactMap<Result>(
        _ selector: @escaping (Element) -> Result?, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().compactMap(selector, file: file, line: line), file: file, line: line)
    }

    /// Keeps the elements for which `predicate` holds.
    public func filter(
        _ predicate: @escaping (Element) -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().filter(predicate, file: file, line: line), file: file, line: line)
    }

    /// Each intermediate result of `accumulator`, starting from `seed`.
    public func scan<A>(
        _ seed: A, accumulator: @escaping (A, Element) -> A, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, A> {
        SharedSequence(
            asObservable().scan(seed, accumulator: accumulator, file: file, line: line), file: file, line: line)
    }

    /// Drops the first `count` elements.
    public func skip(
        _ count: Int, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<
        SharingStrategy, Element
    > {
        SharedSequence(asObservable().skip(count, file: file, line: line), file: file, line: line)
    }

    /// `element` first, then the sequence.
    public func startWith(
        _ element: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().startWith(element, file: file, line: line), file: file, line: line)
    }
}

// MARK: - distinctUntilChanged

extension SharedSequenceConvertibleType where Element: Equatable {
    /// Drops elements equal to the one before.
    public func distinctUntilChanged(
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<
        SharingStrategy, Element
    > {
        SharedSequence(
            asObservable().distinctUntilChanged({ $0 }, comparer: { $0 == $1 }, file: file, line: line), file: file,
            line: line)
    }
}

extension SharedSequenceConvertibleType {
    /// Drops elements whose key equals the previous element's.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping (Element) -> Key, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            asObservable().distinctUntilChanged(keySelector, comparer: { $0 == $1 }, file: file, line: line),
            file: file, line: line)
    }

    /// Drops elements that `comparer` calls equal to the previous one.
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            asObservable().distinctUntilChanged({ $0 }, comparer: comparer, file: file, line: line), file: file,
            line: line)
    }

    /// Drops elements whose key `comparer` calls equal to the previous element's.
    public func distinctUntilChanged<K>(
        _ keySelector: @escaping (Element) -> K, comparer: @escaping (K, K) -> Bool, file: StaticString = #fileID,
        line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            asObservable().distinctUntilChanged(keySelector, comparer: comparer, file: file, line: line), file: file,
            line: line)
    }
}

// MARK: - Flattening

extension SharedSequenceConvertibleType {
    /// Merges the shared sequences `selector` makes of each element.
    ///
    /// ```swift
    /// let details: Driver<Detail> = selection.flatMap { id in api.detail(id).asDriver(onErrorDriveWith: .empty()) }
    /// ```
    public func flatMap<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMap(selector, file: file, line: line), file: file, line: line)
    }

    /// Follows only the shared sequence made of the latest element.
    public func flatMapLatest<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapLatest(selector, file: file, line: line), file: file, line: line)
    }

    /// Ignores elements while the shared sequence made of an earlier one is still running.
    public func flatMapFirst<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapFirst(selector, file: file, line: line), file: file, line: line)
    }
}

extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType {
    /// Follows only the latest inner shared sequence.
    public func switchLatest(
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<
        Element.SharingStrategy, Element.Element
    > {
        let source = asObservable().map({ $0.asSharedSequence() }, file: file, line: line)
        return SharedSequence(source.switchLatest(file: file, line: line), file: file, line: line)
    }

    /// Merges the inner shared sequences.
    public func merge(
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<
        Element.SharingStrategy, Element.Element
    > {
        let source = asObservable().map({ $0.asSharedSequence() }, file: file, line: line)
        return SharedSequence(source.merge(file: file, line: line), file: file, line: line)
    }

    /// Merges the inner shared sequences, at most `maxConcurrent` of them subscribed at once.
    public func merge(
        maxConcurrent: Int, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<Element.SharingStrategy, Element.Element> {
        let source = asObservable().map({ $0.asSharedSequence() }, file: file, line: line)
        return SharedSequence(
            source.merge(maxConcurrent: maxConcurrent, file: file, line: line), file: file, line: line)
    }
}

// MARK: - Merging and concatenating

extension SharedSequenceConvertibleType {
    /// The elements of all `sources` as they come.
    public static func merge<Collection: Swift.Collection>(
        _ sources: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            Observable.merge(sources.map { $0.asObservable() }, file: file, line: line), file: file, line: line)
    }

    /// The elements of all `sources` as they come.
    public static func merge(
        _ sources: [SharedSequence<SharingStrategy, Element>], file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            Observable.merge(sources.map { $0.asObservable() }, file: file, line: line), file: file, line: line)
    }

    /// The elements of all `sources` as they come.
    ///
    /// ```swift
    /// let taps: Signal<Void> = Signal.merge(okTaps, cancelTaps)
    /// ```
    public static func merge(
        _ sources: SharedSequence<SharingStrategy, Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            Observable.merge(sources.map { $0.asObservable() }, file: file, line: line), file: file, line: line)
    }
}

extension SharedSequence {
    /// Each sequence after the one before has completed.
    public static func concat<Sequence: Swift.Sequence>(
        _ sequence: Sequence, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> where Sequence.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            Observable.concat(sequence.lazy.map { $0.asObservable() }, file: file, line: line), file: file, line: line)
    }

    /// Each sequence after the one before has completed.
    public static func concat<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            Observable.concat(collection.map { $0.asObservable() }, file: file, line: line), file: file, line: line)
    }
}

// MARK: - withLatestFrom

extension SharedSequenceConvertibleType {
    /// Each element combined by `resultSelector` with the latest of `second`, once it has one.
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType, ResultType>(
        _ second: SecondO, resultSelector: @escaping (Element, SecondO.Element) -> ResultType,
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, ResultType> where SecondO.SharingStrategy == SharingStrategy {
        SharedSequence(
            asObservable().withLatestFrom(
                second.asSharedSequence(), resultSelector: resultSelector, file: file, line: line), file: file,
            line: line)
    }

    /// The latest element of `second` at each element of this sequence, once it has one.
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType>(
        _ second: SecondO, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, SecondO.Element> {
        SharedSequence(
            asObservable().withLatestFrom(second.asSharedSequence(), file: file, line: line), file: file, line: line)
    }
}

// MARK: - Side effects

extension SharedSequenceConvertibleType {
    /// Calls the closures as events pass (there is no `onError`: a shared sequence cannot fail).
    public func `do`(
        onNext: ((Element) -> Void)? = nil, afterNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil, onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        let source = asObservable().do(
            onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, file: file, line: line)
        return SharedSequence(source, file: file, line: line)
    }

    /// Prints the subscription's events (see `ObservableType.debug`).
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function
    ) -> SharedSequence<SharingStrategy, Element> {
        let source = asObservable().debug(
            identifier, trimOutput: trimOutput, file: file, line: line, function: function)
        return SharedSequence(source, file: file, line: line)
    }
}

// MARK: - Time

extension SharedSequenceConvertibleType {
    /// The first element of each `dueTime` window and, with `latest`, the window's last one at
    /// its end; on the sharing scheduler.
    public func throttle(
        _ dueTime: RxTimeInterval, latest: Bool = true, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        let source = asObservable().throttle(
            dueTime, latest: latest, scheduler: SharingStrategy.scheduler, file: file, line: line)
        return SharedSequence(source, file: file, line: line)
    }

    /// An element once `dueTime` has passed without another; on the sharing scheduler.
    public func debounce(
        _ dueTime: RxTimeInterval, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        let source = asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler, file: file, line: line)
        return SharedSequence(source, file: file, line: line)
    }

    /// Every event `dueTime` later, on the sharing scheduler.
    public func delay(
        _ dueTime: RxTimeInterval, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        let source = asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler, file: file, line: line)
        return SharedSequence(source, file: file, line: line)
    }
}

// MARK: - withUnretained

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Each element with `obj`, held weakly; completes once `obj` is gone.
    ///
    /// ```swift
    /// taps.withUnretained(self).emit(onNext: { owner, _ in owner.save() })
    /// ```
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out, file: StaticString = #fileID,
        line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Out> {
        SharedSequence(
            asObservable().withUnretained(obj, resultSelector: resultSelector, file: file, line: line), file: file,
            line: line)
    }

    /// Each element paired with `obj`, held weakly; completes once `obj` is gone.
    public func withUnretained<Object: AnyObject>(
        _ obj: Object, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, (Object, Element)> {
        withUnretained(obj, resultSelector: { ($0, $1) }, file: file, line: line)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    // A Driver replays its latest element, `obj` with it: RxCocoa makes these unavailable.
    @available(*, unavailable, message: "withUnretained is unavailable for Driver: use drive(with:onNext:…)")
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out
    ) -> SharedSequence<SharingStrategy, Out> {
        SharedSequence(asObservable().withUnretained(obj, resultSelector: resultSelector), file: #fileID, line: #line)
    }

    @available(*, unavailable, message: "withUnretained is unavailable for Driver: use drive(with:onNext:…)")
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        SharedSequence(asObservable().withUnretained(obj, resultSelector: { ($0, $1) }), file: #fileID, line: #line)
    }
}
