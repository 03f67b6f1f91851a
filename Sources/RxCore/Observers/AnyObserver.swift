/// A type-erased observer: forwards every event to a closure or to another observer.
public struct AnyObserver<Element>: ObserverType, TraceStandIn {
    public typealias EventHandler = (Event<Element>) -> Void

    private let observer: EventHandler
    private let next: (Element) -> Void
    /// The trace node of the observer it stands for (0 when none).
    let targetTraceID: UInt64
    /// Whether that observer records its own events.
    let targetRecordsEvents: Bool
    /// Whether that observer checks its own `on` calls for overlaps.
    let targetChecksOwnOn: Bool

    /// An observer that calls `eventHandler`.
    public init(eventHandler: @escaping EventHandler) {
        self.observer = eventHandler
        self.next = { eventHandler(.next($0)) }
        self.targetTraceID = 0
        self.targetRecordsEvents = false
        self.targetChecksOwnOn = false
    }

    /// An observer that forwards to `observer`.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        self.observer = observer.on
        self.next = observer.onNext
        if Tracing.isOn {
            self.targetTraceID = traceNodeID(of: observer)
            self.targetRecordsEvents = traceRecordsOwnEvents(observer)
            self.targetChecksOwnOn = traceChecksOwnOn(observer)
        } else {
            self.targetTraceID = 0
            self.targetRecordsEvents = false
            self.targetChecksOwnOn = false
        }
    }

    var traceTargetID: UInt64 { targetTraceID }
    var traceTargetRecordsOwnEvents: Bool { targetRecordsEvents }
    var traceTargetChecksOwnOn: Bool { targetChecksOwnOn }

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
