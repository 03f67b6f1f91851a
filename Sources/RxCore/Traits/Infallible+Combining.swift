// `combineLatest` and `zip` of `Infallible`s, two to eight of them: each is the `Observable`
// operator of the same name (one `CombineLatest` or `Zip` node in a trace).

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

// MARK: combineLatest, 2

extension InfallibleType {
    /// The latest element of each source, combined by `resultSelector` whenever one emits, once all have.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1, _ source2: I2, resultSelector: @escaping (I1.Element, I2.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The latest element of each source as a tuple, whenever one emits, once all have.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1, _ source2: I2, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element)> {
        Infallible(Observable.combineLatest(source1.asObservable(), source2.asObservable(), file: file, line: line))
    }
}

// MARK: combineLatest, 3

extension InfallibleType {
    /// The latest element of each source, combined by `resultSelector` whenever one emits, once all have.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
        _ source1: I1, _ source2: I2, _ source3: I3,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector,
                file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The latest element of each source as a tuple, whenever one emits, once all have.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
        _ source1: I1, _ source2: I2, _ source3: I3, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element)> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), file: file, line: line))
    }
}

// MARK: combineLatest, 4

extension InfallibleType {
    /// The latest element of each source, combined by `resultSelector` whenever one emits, once all have.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType>(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element, I4.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The latest element of each source as a tuple, whenever one emits, once all have.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType>(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element)> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                file: file, line: line))
    }
}

// MARK: combineLatest, 5

extension InfallibleType {
    /// The latest element of each source, combined by `resultSelector` whenever one emits, once all have.
    public static func combineLatest<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The latest element of each source as a tuple, whenever one emits, once all have.
    public static func combineLatest<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element)> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), file: file, line: line))
    }
}

// MARK: combineLatest, 6

extension InfallibleType {
    /// The latest element of each source, combined by `resultSelector` whenever one emits, once all have.
    public static func combineLatest<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6,
        resultSelector:
            @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The latest element of each source as a tuple, whenever one emits, once all have.
    public static func combineLatest<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element)> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), file: file, line: line))
    }
}

// MARK: combineLatest, 7

extension InfallibleType {
    /// The latest element of each source, combined by `resultSelector` whenever one emits, once all have.
    public static func combineLatest<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType, I7: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6, _ source7: I7,
        resultSelector:
            @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element) throws ->
            Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), resultSelector: resultSelector,
                file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The latest element of each source as a tuple, whenever one emits, once all have.
    public static func combineLatest<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType, I7: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6, _ source7: I7,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element)> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), file: file, line: line))
    }
}

// MARK: combineLatest, 8

extension InfallibleType {
    /// The latest element of each source, combined by `resultSelector` whenever one emits, once all have.
    public static func combineLatest<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType, I7: InfallibleType, I8: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6, _ source7: I7,
        _ source8: I8,
        resultSelector:
            @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element, I8.Element)
            throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(),
                resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The latest element of each source as a tuple, whenever one emits, once all have.
    public static func combineLatest<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType, I7: InfallibleType, I8: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6, _ source7: I7,
        _ source8: I8, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element, I8.Element)> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(),
                file: file, line: line))
    }
}

// MARK: zip, 2

extension InfallibleType {
    /// The sources' elements combined by `resultSelector`, pairwise by index.
    public static func zip<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1, _ source2: I2, resultSelector: @escaping (I1.Element, I2.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1, _ source2: I2, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element)> {
        Infallible(Observable.zip(source1.asObservable(), source2.asObservable(), file: file, line: line))
    }
}

// MARK: zip, 3

extension InfallibleType {
    /// The sources' elements combined by `resultSelector`, pairwise by index.
    public static func zip<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
        _ source1: I1, _ source2: I2, _ source3: I3,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector,
                file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
        _ source1: I1, _ source2: I2, _ source3: I3, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element)> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), file: file, line: line))
    }
}

// MARK: zip, 4

extension InfallibleType {
    /// The sources' elements combined by `resultSelector`, pairwise by index.
    public static func zip<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType>(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element, I4.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType>(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element)> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                file: file, line: line))
    }
}

// MARK: zip, 5

extension InfallibleType {
    /// The sources' elements combined by `resultSelector`, pairwise by index.
    public static func zip<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element)> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), file: file, line: line))
    }
}

// MARK: zip, 6

extension InfallibleType {
    /// The sources' elements combined by `resultSelector`, pairwise by index.
    public static func zip<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6,
        resultSelector:
            @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element)> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), file: file, line: line))
    }
}

// MARK: zip, 7

extension InfallibleType {
    /// The sources' elements combined by `resultSelector`, pairwise by index.
    public static func zip<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType, I7: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6, _ source7: I7,
        resultSelector:
            @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element) throws ->
            Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), resultSelector: resultSelector,
                file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType, I7: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6, _ source7: I7,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element)> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), file: file, line: line))
    }
}

// MARK: zip, 8

extension InfallibleType {
    /// The sources' elements combined by `resultSelector`, pairwise by index.
    public static func zip<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType, I7: InfallibleType, I8: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6, _ source7: I7,
        _ source8: I8,
        resultSelector:
            @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element, I8.Element)
            throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(),
                resultSelector: resultSelector, file: file, line: line))
    }
}

extension InfallibleType where Element == Any {
    /// The sources' elements as tuples, pairwise by index.
    public static func zip<
        I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType,
        I6: InfallibleType, I7: InfallibleType, I8: InfallibleType
    >(
        _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6, _ source7: I7,
        _ source8: I8, file: StaticString = #fileID, line: UInt = #line
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element, I8.Element)> {
        Infallible(
            Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
                source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(),
                file: file, line: line))
    }
}
