/// A type-erased observer: forwards every event to a closure or to another observer.
public struct AnyObserver<Element>: ObserverType {
    public typealias EventHandler = (Event<Element>) -> Void

    private let observer: EventHandler
    private let next: (Element) -> Void
    /// The trace node of the observer it stands for (0 when none).
    let targetTraceID: UInt64

    /// An observer that calls `eventHandler`.
    public init(eventHandler: @escaping EventHandler) {
        self.observer = eventHandler
        self.next = { eventHandler(.next($0)) }
        self.targetTraceID = 0
    }

    /// An observer that forwards to `observer`.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        self.observer = observer.on
        self.next = observer.onNext
        self.targetTraceID = Tracing.isOn ? traceNodeID(of: observer) : 0
    }

    public func on(_ event: Event<Element>) {
        observer(event)
    }

    public func onNext(_ element: Element) {
        next(element)
    }

    /// Itself.
    public func asObserver() -> AnyObserver<Element> { self }
}

extension AnyObserver {
    /// An observer that maps elements with `transform` and forwards them here.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver<Result> { event in self.on(event.map(transform)) }
    }
}

extension ObserverType {
    /// Type-erases this observer.
    public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }

    /// An observer that maps elements with `transform` and forwards them here.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver { event in self.on(event.map(transform)) }
    }
}
