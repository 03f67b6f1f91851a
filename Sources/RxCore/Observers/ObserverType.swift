/// Something that receives a sequence's events.
public protocol ObserverType {
    /// The type of the elements it receives.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)

    /// Receives one element: the same as `on(.next(element))`, which is what the default
    /// does. The core's own observers implement it directly, so elements travel without
    /// being wrapped in an `Event` at every hop (docs/architecture.md, "Generic metadata").
    func onNext(_ element: Element)

    /// Receives the end: the same as `on(.completed)`, which is what the default does. Observers
    /// that end many short subscriptions (`flatMap`'s inner observers) implement it directly,
    /// for the same reason as `onNext`.
    func onCompleted()
}

extension ObserverType {
    /// Sends `.next(element)`.
    public func onNext(_ element: Element) { on(.next(element)) }

    /// Sends `.completed`.
    public func onCompleted() { on(.completed) }

    /// Sends `.error(error)`.
    public func onError(_ error: Swift.Error) { on(.error(error)) }
}
