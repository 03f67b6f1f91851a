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

/// A `ReplaySubject` that only ever carries elements: new subscribers get the last elements
/// first, and it cannot fail or complete.
public final class ReplayRelay<Element>: ObservableType {
    private let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) {
        self.subject = subject
    }

    /// A relay that replays the last `bufferSize` elements to each new subscriber.
    public static func create(
        bufferSize: Int, file: StaticString = #fileID, line: UInt = #line
    ) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.create(bufferSize: bufferSize, file: file, line: line))
    }

    /// A relay that replays every element it ever got (RxSwift spells it `createUnbound`).
    public static func createUnbound(file: StaticString = #fileID, line: UInt = #line) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.createUnbounded(file: file, line: line))
    }

    /// Sends `event` to the subscribers and keeps it for later ones.
    public func accept(_ event: Element) { subject.onNext(event) }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    public func asObservable() -> Observable<Element> { subject.asObservable() }

    /// The relay as an `Infallible` (a relay cannot fail).
    public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}
