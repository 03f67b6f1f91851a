import Foundation
import RxCore

/// A value stamped with the virtual time it happened at: `Recorded(time: 210, value: .next(2))`,
/// usually written `.next(210, 2)`.
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// When.
    public let time: TestTime
    /// What.
    public let value: Value

    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    /// `next(2) @ 210`, as RxTest prints it.
    public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded {
    /// `.next(210, 2)`: element `element` at time `time`.
    public static func next<T>(_ time: TestTime, _ element: T) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .next(element))
    }

    /// `.completed(300)`.
    public static func completed<T>(_ time: TestTime, _ type: T.Type = T.self) -> Recorded<Event<T>>
    where Value == Event<T> {
        Recorded(time: time, value: .completed)
    }

    /// `.error(250, err)`.
    public static func error<T>(_ time: TestTime, _ error: Swift.Error, _ type: T.Type = T.self) -> Recorded<Event<T>>
    where Value == Event<T> {
        Recorded(time: time, value: .error(error))
    }

    /// The array of its arguments: `Recorded.events(.next(210, 2), .completed(300))`.
    public static func events<T>(_ recordedEvents: Recorded<Event<T>>...) -> [Recorded<Event<T>>]
    where Value == Event<T> {
        recordedEvents
    }

    /// The array itself.
    public static func events<T>(_ recordedEvents: [Recorded<Event<T>>]) -> [Recorded<Event<T>>]
    where Value == Event<T> {
        recordedEvents
    }
}

/// Events are equal when they are the same case with equal elements; errors are equal when they
/// have the same type and the same description (and, for `NSError`s, the same domain and code),
/// which is how RxTest compares errors that are not `Equatable`.
extension Event: Equatable where Element: Equatable {
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case let (.next(l), .next(r)): return l == r
        case let (.error(l), .error(r)): return errorsEqual(l, r)
        default: return false
        }
    }
}

/// Whether two errors count as the same in test expectations.
public func errorsEqual(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    if type(of: lhs) != type(of: rhs) { return false }
    let l = lhs as NSError, r = rhs as NSError
    return l.domain == r.domain && l.code == r.code && "\(lhs)" == "\(rhs)"
}

/// When an observable was subscribed to and when that subscription ended (`Int.max`: never).
public struct Subscription: Equatable, Hashable, CustomDebugStringConvertible, Sendable {
    /// Virtual time of the subscription.
    public let subscribe: TestTime
    /// Virtual time of the unsubscription; `Int.max` while still subscribed.
    public let unsubscribe: TestTime

    /// A subscription made at `subscribe` and never disposed.
    public init(_ subscribe: TestTime) {
        self.init(subscribe, Int.max)
    }

    /// A subscription made at `subscribe` and disposed at `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(200 : 300)`, or `(200 : Infinity)` while subscribed.
    public var debugDescription: String {
        "(\(subscribe) : \(unsubscribe == Int.max ? "Infinity" : String(unsubscribe)))"
    }
}
