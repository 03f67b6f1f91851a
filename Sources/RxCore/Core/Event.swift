/// One thing a sequence says: an element, an error, or that it completed.
///
/// Sequence grammar: `next* (error | completed)?`.
@frozen
public enum Event<Element> {
    /// The next element.
    case next(Element)
    /// The sequence failed; nothing follows.
    case error(Swift.Error)
    /// The sequence finished; nothing follows.
    case completed
}

extension Event: CustomDebugStringConvertible {
    /// `next(32)`, `error(…)`, `completed`: as RxSwift 6 prints events.
    public var debugDescription: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

extension Event {
    /// Is `completed` or `error`.
    public var isStopEvent: Bool {
        if case .next = self { return false }
        return true
    }

    /// The issue tracker's spelling of `isStopEvent`.
    public var isStopObservable: Bool { isStopEvent }

    /// The element of a `next` event.
    public var element: Element? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error of an `error` event.
    public var error: Swift.Error? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// Is `completed`.
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Maps the element; a throwing transform turns into an `error` event.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        do {
            switch self {
            case .next(let element): return .next(try transform(element))
            case .error(let error): return .error(error)
            case .completed: return .completed
            }
        } catch {
            return .error(error)
        }
    }

    /// The kind, for traces.
    public var traceKind: TraceEventKind {
        switch self {
        case .next: return .next
        case .error: return .error
        case .completed: return .completed
        }
    }

    /// What a trace records of this event: the element's description, or the error's.
    public var traceValue: String? {
        switch self {
        case .next(let value): return traceDescription(value)
        case .error(let error): return String(describing: error)
        case .completed: return nil
        }
    }
}

/// `String(describing:)`, with the common element types described without the runtime's
/// conformance lookups (a metadata comparison instead): tracing describes every element.
@inline(__always)
func traceDescription<Value>(_ value: Value) -> String {
    if Value.self == Int.self { return String(unsafeBitCast(value, to: Int.self)) }
    if Value.self == String.self { return unsafeBitCast(value, to: String.self) }
    if Value.self == Double.self { return unsafeBitCast(value, to: Double.self).description }
    if Value.self == Bool.self { return unsafeBitCast(value, to: Bool.self) ? "true" : "false" }
    return String(describing: value)
}

/// Something that can be turned into an `Event` (used by `dematerialize`).
public protocol EventConvertible {
    associatedtype Element
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    public var event: Event<Element> { self }
}
