import RxCore

/// The error operator tests send and expect.
struct OpTestError: Error, Equatable, CustomStringConvertible {
    var name = "op"
    var description: String { "OpTestError(\(name))" }
}

let opTestError = OpTestError()

/// Collects what a plain (non-virtual-time) subscription received, for re-entrancy tests.
final class EventLog<Element> {
    var events: [Event<Element>] = []
    var elements: [Element] { events.compactMap { $0.element } }
    var isCompleted: Bool { events.last?.isCompleted ?? false }
}
