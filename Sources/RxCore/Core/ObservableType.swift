/// Anything that can be turned into an `Observable` (step3 of 001).
public protocol ObservableConvertibleType {
    /// The type of the elements of the sequence.
    associatedtype Element

    /// The `Observable` this value stands for.
    func asObservable() -> Observable<Element>
}

/// A sequence that can be subscribed to (step2 of 001).
public protocol ObservableType: ObservableConvertibleType {
    /// Subscribes `observer`; the returned disposable ends the subscription.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    /// Wraps any `ObservableType` into an `Observable`.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}
