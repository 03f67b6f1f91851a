/// One of RxSwift's own bugs, which RxAnatomy does not reproduce; `docs/compatibility.md` names
/// each, and `ConformanceTests` checks that it still does.
enum RxSwiftBug: String, CaseIterable {
    /// `amb` whose losing source terminates while being subscribed disposes the winner
    /// (`Amb.swift`: the right observer is made with the left subscription as its `cancel`).
    case ambDisposesWinner
    /// `Infallible.merge` of a collection that is not an array concatenates (its body calls
    /// `concat`).
    case infallibleMergeConcatenates

    /// Words of `docs/compatibility.md` that name the bug.
    var documentedAs: String {
        switch self {
        case .ambDisposesWinner: "`Amb.swift`"
        case .infallibleMergeConcatenates:
            "RxSwift's `Infallible.merge` of a collection that is not an array concatenates"
        }
    }
}

/// A difference the drop-in is still to fix (issue 21, on its way on branch `dropin`). Temporary:
/// once a fix lands, its pipelines match RxSwift, the check calls their entries stale, and they
/// are deleted from `pending` below.
enum PendingFix: String, CaseIterable {
    /// Work scheduled at an absolute virtual time (`scheduleAt`, `start`, a cold observable's
    /// offsets) runs a tick late when that time is the current clock.
    case virtualTime = "virtual time"
    /// `zip` of 2 to 8 sources completes before every source has.
    case zip = "zip of 2-8"
    /// `interval` and periodic `timer` run a tick's work before scheduling the next tick.
    case periodicTicks = "periodic ticks"
    /// A subject delivers in subscription order, not to a reused first slot first.
    case deliveryOrder = "subject delivery order"
    /// `retry(when:)` after a synchronous failure makes one attempt too many.
    case retryWhen = "retry(when:) after a synchronous failure"
    /// A trait's `flatMap` of a source that succeeds synchronously loses the element.
    case traitFlatMap = "trait flatMap of a synchronous success"
    /// `retry(n)`'s last error reaches the observer before the source's subscribe returned.
    case retryLastError = "retry(n)'s last error"
}

/// Pipelines whose outcome may differ from RxSwift's, and why.
struct KnownDifferences {
    /// A pipeline on which RxSwift shows one of its bugs: RxAnatomy's lines where they differ.
    struct Excuse {
        var bug: RxSwiftBug
        var rxAnatomy: [String]
    }

    var rxSwiftBugs: [String: Excuse] = [:]
    var pending: [String: PendingFix] = [:]

    /// The differences of the committed golden data (`Golden/`).
    static let current = KnownDifferences(rxSwiftBugs: [:], pending: [:])
}
