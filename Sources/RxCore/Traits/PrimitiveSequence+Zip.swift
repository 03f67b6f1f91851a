/// The traits whose sequences carry an element, so that `zip` means "pair the elements":
/// `SingleTrait` and `MaybeTrait`. (`Completable.zip` waits for completions instead.)
///
/// RxSwift 6 writes each `zip` twice, once per trait; one generic form serves both here, so a
/// call has half as many overloads to choose from.
public protocol _ElementTrait {}

extension SingleTrait: _ElementTrait {}
extension MaybeTrait: _ElementTrait {}

extension PrimitiveSequenceType where Trait: _ElementTrait {
    /// The elements of all the sources combined by `resultSelector`: a `Single` succeeds once
    /// every source has; a `Maybe` is empty as soon as one source is. An empty collection gives
    /// `resultSelector([])`.
    ///
    /// ```swift
    /// Single.zip([fetchUser(1), fetchUser(2)]) { $0.map(\.name) }
    /// ```
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence(
                raw: Observable.deferred({ Observable.just(try resultSelector([])) }, file: file, line: line))
        }
        return PrimitiveSequence(
            raw: Observable.zip(
                collection.map { $0.asObservable() }, resultSelector: resultSelector, file: file, line: line))
    }

    /// The elements of all the sources as an array (`[]` for an empty collection).
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, [Element]> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty { return PrimitiveSequence(raw: Observable.just([], file: file, line: line)) }
        return PrimitiveSequence(raw: Observable.zip(collection.map { $0.asObservable() }, file: file, line: line))
    }
}

// MARK: 2

extension PrimitiveSequenceType where Trait: _ElementTrait {
    /// The sources' elements combined by `resultSelector` (see `zip(_:resultSelector:)` of a
    /// collection).
    ///
    /// ```swift
    /// Single.zip(fetchUser(id), fetchAvatar(id)) { user, avatar in Profile(user, avatar) }
    /// ```
    public static func zip<E1, E2>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        resultSelector: @escaping (E1, E2) throws -> Element, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), resultSelector: resultSelector, file: file, line: line))
    }
}

extension PrimitiveSequenceType where Trait: _ElementTrait, Element == Any {
    /// The sources' elements as a tuple.
    public static func zip<E1, E2>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, (E1, E2)> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), file: file, line: line))
    }
}

// MARK: 3

extension PrimitiveSequenceType where Trait: _ElementTrait {
    /// The sources' elements combined by `resultSelector`.
    public static func zip<E1, E2, E3>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        resultSelector: @escaping (E1, E2, E3) throws -> Element, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector,
                file: file, line: line))
    }
}

extension PrimitiveSequenceType where Trait: _ElementTrait, Element == Any {
    /// The sources' elements as a tuple.
    public static func zip<E1, E2, E3>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, (E1, E2, E3)> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), file: file, line: line))
    }
}

// MARK: 4

extension PrimitiveSequenceType where Trait: _ElementTrait {
    /// The sources' elements combined by `resultSelector`.
    public static func zip<E1, E2, E3, E4>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>,
        resultSelector: @escaping (E1, E2, E3, E4) throws -> Element, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                resultSelector: resultSelector, file: file, line: line))
    }
}

extension PrimitiveSequenceType where Trait: _ElementTrait, Element == Any {
    /// The sources' elements as a tuple.
    public static func zip<E1, E2, E3, E4>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, (E1, E2, E3, E4)> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                file: file, line: line))
    }
}

// MARK: 5

extension PrimitiveSequenceType where Trait: _ElementTrait {
    /// The sources' elements combined by `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), resultSelector: resultSelector, file: file, line: line))
    }
}

extension PrimitiveSequenceType where Trait: _ElementTrait, Element == Any {
    /// The sources' elements as a tuple.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5)> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), file: file, line: line))
    }
}

// MARK: 6

extension PrimitiveSequenceType where Trait: _ElementTrait {
    /// The sources' elements combined by `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), resultSelector: resultSelector, file: file, line: line))
    }
}

extension PrimitiveSequenceType where Trait: _ElementTrait, Element == Any {
    /// The sources' elements as a tuple.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6)> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), file: file, line: line))
    }
}

// MARK: 7

extension PrimitiveSequenceType where Trait: _ElementTrait {
    /// The sources' elements combined by `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), resultSelector: resultSelector,
                file: file, line: line))
    }
}

extension PrimitiveSequenceType where Trait: _ElementTrait, Element == Any {
    /// The sources' elements as a tuple.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7)> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), file: file, line: line))
    }
}

// MARK: 8

extension PrimitiveSequenceType where Trait: _ElementTrait {
    /// The sources' elements combined by `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>, _ source8: PrimitiveSequence<Trait, E8>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(),
                resultSelector: resultSelector, file: file, line: line))
    }
}

extension PrimitiveSequenceType where Trait: _ElementTrait, Element == Any {
    /// The sources' elements as a tuple.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>, _ source8: PrimitiveSequence<Trait, E8>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7, E8)> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(),
                file: file, line: line))
    }
}
