import Foundation

/// The `rx` namespace: reactive extensions of `Base` live in `extension Reactive where Base: …`,
/// apart from `Base`'s own members (000/003's `button.rx.tap`).
///
/// ```swift
/// final class Model: ReactiveCompatible { var title = "" }
/// extension Reactive where Base: Model {
///     var shout: Binder<String> { Binder(base) { model, text in model.title = text.uppercased() } }
/// }
/// names.bind(to: model.rx.title)   // a Binder for any writable property of a class
/// names.bind(to: model.rx.shout)
/// ```
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The extended value.
    public let base: Base

    public init(_ base: Base) {
        self.base = base
    }

    /// A `Binder` that sets the property at `keyPath` of a class base, on the main scheduler.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property>
    where Base: AnyObject {
        Binder(base) { base, value in base[keyPath: keyPath] = value }
    }
}

/// Types that get the `rx` namespace.
public protocol ReactiveCompatible {
    /// The type the extensions extend.
    associatedtype ReactiveBase

    /// Static reactive extensions.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// Reactive extensions of this value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // Lets `rx` be mutated through the namespace, as in RxSwift.
        set {}
    }

    public var rx: Reactive<Self> {
        get { Reactive(self) }
        set {}
    }
}

extension NSObject: ReactiveCompatible {}
