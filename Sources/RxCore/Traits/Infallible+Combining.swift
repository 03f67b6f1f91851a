// `combineLatest` and `zip` of `Infallible`s: each is the `Observable` operator of the same name
// (one `CombineLatest` or `Zip` node in a trace). RxSwift has them for two to eight sources, one
// copy per arity; here one generic form takes any number from two.

extension InfallibleType {
    /// The latest element of each source, combined by `resultSelector` whenever one emits,
    /// once all have.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(
            Observable.combineLatest(
                collection.map { $0.asObservable() }, resultSelector: resultSelector, file: file, line: line))
    }

    /// The latest element of each source as an array, whenever one emits, once all have.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<[Element]> where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible(Observable.combineLatest(collection.map { $0.asObservable() }, file: file, line: line))
    }
}

extension InfallibleType {
    /// The latest element of each source, combined by `resultSelector` whenever one emits, once
    /// all have.
    @inlinable
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, each I: InfallibleType>(
        _ source1: I1, _ source2: I2, _ source: repeat each I,
        resultSelector: @escaping (I1.Element, I2.Element, repeat (each I).Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), repeat (each source).asObservable(),
                resultSelector: resultSelector, file: file, line: line))
    }

    /// The sources' elements combined by `resultSelector`, pairwise by index; completes when
    /// every source has.
    @inlinable
    public static func zip<I1: InfallibleType, I2: InfallibleType, each I: InfallibleType>(
        _ source1: I1, _ source2: I2, _ source: repeat each I,
        resultSelector: @escaping (I1.Element, I2.Element, repeat (each I).Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), repeat (each source).asObservable(),
                resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The latest element of each source as a tuple, whenever one emits, once all have.
    @inlinable
    public static func combineLatest<each I: InfallibleType>(
        _ source: repeat each I, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(repeat (each I).Element)> {
        Infallible(Observable.combineLatest(repeat (each source).asObservable(), file: file, line: line))
    }

    /// The sources' elements as tuples, pairwise by index (RxAnatomy addition: RxSwift's
    /// `Infallible.zip` has only the form with a result selector).
    @inlinable
    public static func zip<each I: InfallibleType>(
        _ source: repeat each I, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(repeat (each I).Element)> {
        Infallible(Observable.zip(repeat (each source).asObservable(), file: file, line: line))
    }
}
