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

// MARK: the sources as arguments

extension PrimitiveSequenceType where Trait: _ElementTrait {
    /// The sources' elements combined by `resultSelector` (see `zip(_:resultSelector:)` of a
    /// collection). Two to eight sources in RxSwift; any number from two here.
    ///
    /// ```swift
    /// Single.zip(fetchUser(id), fetchAvatar(id)) { user, avatar in Profile(user, avatar) }
    /// ```
    @inlinable
    public static func zip<E1, E2, each E>(
        _ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>,
        _ source: repeat PrimitiveSequence<Trait, each E>,
        resultSelector: @escaping (E1, E2, repeat each E) throws -> Element, file: StaticString = #fileID,
        line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), repeat (each source).asObservable(),
                resultSelector: resultSelector, file: file, line: line))
    }
}

extension PrimitiveSequenceType where Trait: _ElementTrait, Element == Any {
    /// The sources' elements as a tuple.
    @inlinable
    public static func zip<each E>(
        _ source: repeat PrimitiveSequence<Trait, each E>, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, (repeat each E)> {
        PrimitiveSequence(raw: Observable.zip(repeat (each source).asObservable(), file: file, line: line))
    }
}
