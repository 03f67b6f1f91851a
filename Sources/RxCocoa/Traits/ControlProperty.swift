/// Something that is a `ControlProperty`: observable (the control's value) and observer (what
/// sets it).
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// This property as a `ControlProperty`.
    func asControlProperty() -> ControlProperty<Element>
}

/// A property of a control, both ways: subscribing gives its current value and each change the
/// user makes (not changes made by code); sending it elements sets the property. It never
/// fails, completes when the control goes away and subscribes on the main thread
/// (`ConcurrentMainScheduler`). A `UITextField`'s `rx.text` is one; on Linux, where there is no
/// UIKit, a headless control or a view model's input makes its own:
///
/// ```swift
/// let text = BehaviorRelay<String?>(value: "")
/// let property = ControlProperty(values: text.asObservable(), valueSink: Binder(text) { $0.accept($1) })
/// property.orEmpty.subscribe(onNext: { print($0) })   // "" then each new text
/// ```
///
/// The sharing and replay of the current value are the `values` sequence's to give (a control's
/// `rx.text` is built on one that does): `ControlProperty` adds only the main-thread subscription.
public struct ControlProperty<PropertyType>: ControlPropertyType {
    public typealias Element = PropertyType

    let values: Observable<PropertyType>
    let valueSink: AnyObserver<PropertyType>

    /// A property whose values come from `values` and whose setter is `valueSink`.
    public init<Values: ObservableType, Sink: ObserverType>(
        values: Values, valueSink: Sink
    ) where Element == Values.Element, Element == Sink.Element {
        self.values = values.subscribe(on: ConcurrentMainScheduler.instance)
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the property's values.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The values after the first (the user's changes, without the value at subscription).
    public var changed: ControlEvent<PropertyType> {
        ControlEvent(events: values.skip(1))
    }

    /// The property's values as an observable.
    public func asObservable() -> Observable<Element> {
        values
    }

    /// Itself.
    public func asControlProperty() -> ControlProperty<Element> {
        self
    }

    /// Sets the property on `.next` and passes `.completed` on; an error is a programming
    /// mistake (a binding must not fail): it traps in debug builds and is printed in release.
    public func on(_ event: Event<Element>) {
        switch event {
        case .error(let error): bindingError(error)
        case .next, .completed: valueSink.on(event)
        }
    }
}

extension ControlPropertyType where Element == String? {
    /// The text with `nil` read as `""`, both ways (what `rx.text.orEmpty` gives).
    public var orEmpty: ControlProperty<String> {
        let original: ControlProperty<String?> = asControlProperty()
        let values: Observable<String> = original.values.map { $0 ?? "" }
        let valueSink: AnyObserver<String> = original.valueSink.mapObserver { $0 }
        return ControlProperty<String>(values: values, valueSink: valueSink)
    }
}

extension ControlProperty {
    /// This property as a `Driver` (it cannot fail; an error traps in debug builds).
    public func asDriver(file: StaticString = #fileID, line: UInt = #line) -> Driver<Element> {
        asDriver(onErrorRecover: unexpectedError, file: file, line: line)
    }
}

/// What a binding does with an error: traps in debug builds, prints in release (as RxCocoa).
func bindingError(_ error: Swift.Error) {
    let message = "Binding error: \(error)"
    #if DEBUG
    fatalError(message)
    #else
    print(message)
    #endif
}

/// The recovery of a conversion from a source that cannot fail (a control property or event):
/// an error means a broken promise, which traps in debug builds; in release the result ends.
func unexpectedError<Strategy, Element>(_ error: Swift.Error) -> SharedSequence<Strategy, Element> {
    #if DEBUG
    fatalError("Somehow a shared sequence received an error from a source that shouldn't fail: \(error)")
    #else
    return SharedSequence.empty()
    #endif
}
