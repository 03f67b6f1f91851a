// `zip` and `combineLatest` of shared sequences: `Observable`'s, shared by the strategy.

// MARK: - Collections

extension SharedSequence {
    /// The sources' elements combined by index with `resultSelector`.
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result,
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        let sources = collection.map { $0.asSharedSequence().asObservable() }
        return SharedSequence<SharingStrategy, Result>(
            Observable.zip(sources, resultSelector: resultSelector, file: file, line: line), file: file, line: line)
    }

    /// The sources' elements as arrays, by index.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, [Element]>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        let sources = collection.map { $0.asSharedSequence().asObservable() }
        return SharedSequence<SharingStrategy, [Element]>(
            Observable.zip(sources, file: file, line: line), file: file, line: line)
    }

    /// The latest elements of all sources combined by `resultSelector`, whenever one emits
    /// (once each has emitted).
    public static func combineLatest<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result,
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        let sources = collection.map { $0.asObservable() }
        return SharedSequence<SharingStrategy, Result>(
            Observable.combineLatest(sources, resultSelector: resultSelector, file: file, line: line), file: file,
            line: line)
    }

    /// The latest elements of all sources as arrays, whenever one emits (once each has emitted).
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, [Element]>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        let sources = collection.map { $0.asObservable() }
        return SharedSequence<SharingStrategy, [Element]>(
            Observable.combineLatest(sources, file: file, line: line), file: file, line: line)
    }
}

// MARK: - Two or more sources, each of its own element type

// One parameter-pack form per operator stands for RxSwift's arities 2 to 8 (and goes beyond),
// built on `Observable`'s own (so `zip` ends when every source has, as RxSwift's arity forms
// do). As in RxSwift, the sources are anything convertible to a shared sequence (a `Driver`, or a
// type of one's own such as an activity indicator) and the first two must share this strategy;
// Swift cannot yet require that of every element of a pack (same-element requirements), so the
// third and later sources are not checked for it.

extension SharedSequence {
    /// The sources' elements combined by index with `resultSelector`.
    ///
    /// ```swift
    /// let greeting = Driver.zip(names, ages) { name, age in "\(name), \(age)" }
    /// ```
    public static func zip<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, each O: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ sources: repeat each O,
        resultSelector: @escaping (O1.Element, O2.Element, repeat (each O).Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
        let source = Observable.zip(
            source1.asSharedSequence().asObservable(), source2.asSharedSequence().asObservable(),
            repeat (each sources).asSharedSequence().asObservable(), resultSelector: resultSelector, file: file,
            line: line)
        return SharedSequence(source, file: file, line: line)
    }

    /// The latest elements of all sources combined by `resultSelector`, whenever one emits
    /// (once each has emitted).
    ///
    /// ```swift
    /// let canSignUp = Driver.combineLatest(nameValid, passwordValid) { $0 && $1 }
    /// ```
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, each O: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ sources: repeat each O,
        resultSelector: @escaping (O1.Element, O2.Element, repeat (each O).Element) throws -> Element,
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
        let source = Observable.combineLatest(
            source1.asSharedSequence().asObservable(), source2.asSharedSequence().asObservable(),
            repeat (each sources).asSharedSequence().asObservable(), resultSelector: resultSelector, file: file,
            line: line)
        return SharedSequence(source, file: file, line: line)
    }
}

extension SharedSequenceConvertibleType where Element == Any {
    /// The sources' elements as tuples, by index.
    public static func zip<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, each O: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ sources: repeat each O, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, repeat (each O).Element)>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, repeat (each O).Element)>.zip(
            source1, source2, repeat each sources,
            resultSelector: { (first, second, rest: repeat (each O).Element) in (first, second, repeat each rest) },
            file: file, line: line)
    }

    /// The latest elements of all sources as tuples, whenever one emits (once each has emitted).
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, each O: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ sources: repeat each O, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, repeat (each O).Element)>
    where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, repeat (each O).Element)>.combineLatest(
            source1, source2, repeat each sources,
            resultSelector: { (first, second, rest: repeat (each O).Element) in (first, second, repeat each rest) },
            file: file, line: line)
    }
}
