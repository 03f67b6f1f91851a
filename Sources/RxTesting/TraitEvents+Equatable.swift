import RxCore

// What the traits' subscribers receive, compared as RxTest compares them: equal elements, or
// errors that `errorsEqual` calls the same.

extension MaybeEvent: Equatable where Element: Equatable {
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case let (.success(l), .success(r)): return l == r
        case let (.error(l), .error(r)): return errorsEqual(l, r)
        default: return false
        }
    }
}

extension CompletableEvent: Equatable {
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case let (.error(l), .error(r)): return errorsEqual(l, r)
        default: return false
        }
    }
}

/// `SingleEvent` is `Result<Element, Swift.Error>`, which cannot be `Equatable` (the standard
/// library's conformance needs an `Equatable` failure type), so it gets the operators alone:
/// `#expect(events == [.success(1)])`.
public func == <Element: Equatable>(lhs: SingleEvent<Element>, rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case let (.success(l), .success(r)): return l == r
    case let (.failure(l), .failure(r)): return errorsEqual(l, r)
    default: return false
    }
}

public func != <Element: Equatable>(lhs: SingleEvent<Element>, rhs: SingleEvent<Element>) -> Bool {
    !(lhs == rhs)
}

/// Lists of `SingleEvent`s, element by element.
public func == <Element: Equatable>(lhs: [SingleEvent<Element>], rhs: [SingleEvent<Element>]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 == $1 }
}

public func != <Element: Equatable>(lhs: [SingleEvent<Element>], rhs: [SingleEvent<Element>]) -> Bool {
    !(lhs == rhs)
}
