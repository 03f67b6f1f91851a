import RxCocoa
import RxSwift

// Extensions of the kind libraries and apps add to Driver and Signal, written against
// RxCocoa's protocols: they compile against RxAnatomy's RxCocoa unchanged.

/// Something that may hold a value, so a Driver of optionals can be unwrapped.
public protocol OptionalType {
    associatedtype Wrapped
    var optional: Wrapped? { get }
}

extension Optional: OptionalType {
    public var optional: Wrapped? { self }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy, Element: OptionalType {
    /// The values, without the `nil`s (built on `SharedSequence.flatMap`).
    public func filterNil() -> Driver<Element.Wrapped> {
        flatMap { element -> Driver<Element.Wrapped> in
            guard let value = element.optional else { return Driver.empty() }
            return Driver.just(value)
        }
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Drives a `PublishRelay`, which RxCocoa's `drive` does not take.
    public func drive(_ relay: PublishRelay<Element>) -> Disposable {
        drive(onNext: { relay.accept($0) })
    }

    /// The elements as strings, for a label.
    public func describe() -> Driver<String> {
        map { "\($0)" }
    }
}

extension SharedSequence {
    /// `Void` for each element: a tap that carries nothing.
    public func mapToVoid() -> SharedSequence<SharingStrategy, Void> {
        map { _ in () }
    }
}

/// A refinement that names Drivers, for functions that take "any Driver-like thing".
public protocol DriverConvertible: SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {}

extension SharedSequence: DriverConvertible where SharingStrategy == DriverSharingStrategy {}

extension ActivityIndicator: DriverConvertible {}

/// Whether all of `sources` are true, for anything that converts to a Driver of `Bool`.
public func allTrue<Source: DriverConvertible>(_ sources: [Source]) -> Driver<Bool> where Source.Element == Bool {
    Driver.combineLatest(sources.map { $0.asDriver() }) { $0.allSatisfy { $0 } }
}

infix operator ~> : DefaultPrecedence

/// `driver ~> observer`: drives, as some apps spell it.
public func ~> <Source: SharedSequenceConvertibleType, Observer: ObserverType>(
    source: Source, observer: Observer
) -> Disposable where Source.SharingStrategy == DriverSharingStrategy, Source.Element == Observer.Element {
    source.asDriver().drive(observer)
}
