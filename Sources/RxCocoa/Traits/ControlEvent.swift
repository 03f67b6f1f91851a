/// Something that is a `ControlEvent`.
public protocol ControlEventType: ObservableType {
    /// This event as a `ControlEvent`.
    func asControlEvent() -> ControlEvent<Element>
}

/// Events of a control (a button's taps, a field's "editing ended"): no value at subscription,
/// never fails, completes when the control goes away, subscribes on the main thread
/// (`ConcurrentMainScheduler`). On Linux a headless control or a test makes its own:
///
/// ```swift
/// let taps = PublishRelay<Void>()
/// let tap = ControlEvent(events: taps.asObservable())
/// tap.asSignal().emit(onNext: { print("tapped") })
/// ```
public struct ControlEvent<PropertyType>: ControlEventType {
    public typealias Element = PropertyType

    let events: Observable<PropertyType>

    /// An event whose occurrences are `events`' elements.
    public init<Ev: ObservableType>(events: Ev) where Ev.Element == Element {
        self.events = events.subscribe(on: ConcurrentMainScheduler.instance)
    }

    /// Subscribes `observer` to the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events as an observable.
    public func asObservable() -> Observable<Element> {
        events
    }

    /// Itself.
    public func asControlEvent() -> ControlEvent<Element> {
        self
    }

    /// The events as an `Infallible` (they cannot fail; an error would end it).
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }

    /// The events as a `Driver` (they cannot fail; an error traps in debug builds).
    public func asDriver(file: StaticString = #fileID, line: UInt = #line) -> Driver<Element> {
        asDriver(onErrorRecover: unexpectedError, file: file, line: line)
    }

    /// The events as a `Signal` (they cannot fail; an error traps in debug builds).
    public func asSignal(file: StaticString = #fileID, line: UInt = #line) -> Signal<Element> {
        asSignal(onErrorRecover: unexpectedError, file: file, line: line)
    }
}
