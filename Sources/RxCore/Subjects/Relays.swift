/// A `PublishSubject` that only ever carries elements: it cannot fail or complete.
public final class PublishRelay<Element>: ObservableType {
    private let subject: PublishSubject<Element>

    public init(file: StaticString = #fileID, line: UInt = #line) {
        subject = PublishSubject(file: file, line: line)
    }

    /// Sends `event` to the subscribers.
    public func accept(_ event: Element) { subject.onNext(event) }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { subject.hasObservers }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    public func asObservable() -> Observable<Element> { subject.asObservable() }
}

/// A `BehaviorSubject` that only ever carries elements: it has a `value` and cannot fail or
/// complete (RxSwift's replacement for `Variable`).
public final class BehaviorRelay<Element>: ObservableType {
    private let subject: BehaviorSubject<Element>

    public init(value: Element, file: StaticString = #fileID, line: UInt = #line) {
        subject = BehaviorSubject(value: value, file: file, line: line)
    }

    /// Sets the value and sends it to the subscribers.
    public func accept(_ event: Element) { subject.onNext(event) }

    /// The current value.
    public var value: Element {
        // A relay never fails and is never disposed, so `value()` cannot throw here.
        try! subject.value()
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { subject.hasObservers }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    public func asObservable() -> Observable<Element> { subject.asObservable() }
}
