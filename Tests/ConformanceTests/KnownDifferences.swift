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

/// A difference the drop-in is still to fix. Temporary: once a fix lands, its pipelines match
/// RxSwift, the check calls their entries stale, and they are deleted from `pending` below (and
/// the case with them when none is left).
enum PendingFix: String, CaseIterable {
    // Named in issue 21, being fixed on branch `dropin`:

    /// `zip` of 2 to 8 sources completes before every source has (only the collection form ends
    /// early in RxSwift).
    case zip = "zip of 2-8"
    /// A trait's `flatMap` (`flatMapMaybe`, `flatMapCompletable`) of a source that succeeds
    /// synchronously loses the element; RxSwift builds them on `Observable.flatMap`, which also
    /// keeps the source until its completion.
    case traitFlatMap = "trait flatMap"
    /// `retry(when:)` after a synchronous failure makes one attempt too many.
    case retryWhen = "retry(when:) after a synchronous failure"
    /// `retry(n)`'s last error reaches the observer before the source's subscribe returned.
    case retryLastError = "retry(n)'s last error"
    /// `interval` and periodic `timer` run a tick's work before scheduling the next tick.
    case periodicTicks = "periodic ticks"
    /// A subject (or hot observable) serves its observers in subscription order, not a new
    /// observer in a freed first slot first.
    case deliveryOrder = "subject delivery order"

    // Found by this check, not in issue 21 (docs/reliability.md):

    /// At one virtual time, subscriptions are disposed on the other side of the terminal event
    /// than in RxSwift: `zip` and `combineLatest` dispose a source that ends before acting on its
    /// end (and `retry` and the traits' `flatMap` appear here too, with their fixes above).
    case sideEffectOrder = "order of disposal at one time"
    /// `AsyncSubject` sends its last element to every observer, then the completion to every
    /// observer; RxAnatomy sends both to one observer, then both to the next.
    case asyncSubject = "AsyncSubject's delivery"
}

/// Pipelines whose outcome may differ from RxSwift's, and why.
struct KnownDifferences {
    /// A pipeline on which RxSwift shows one of its bugs: RxAnatomy's lines where they differ.
    struct Excuse {
        var bug: RxSwiftBug
        var rxAnatomy: [String]

        init(bug: RxSwiftBug, rxAnatomy: [String]) {
            self.bug = bug
            self.rxAnatomy = rxAnatomy
        }

        /// RxAnatomy's lines as one text, a line each.
        init(_ bug: RxSwiftBug, _ lines: String) {
            self.init(bug: bug, rxAnatomy: lines.split(separator: "\n").map(String.init))
        }
    }

    var rxSwiftBugs: [String: Excuse] = [:]
    var pending: [String: PendingFix] = [:]

    init(rxSwiftBugs: [String: Excuse] = [:], pending: [String: PendingFix] = [:]) {
        self.rxSwiftBugs = rxSwiftBugs
        self.pending = pending
    }

    /// `pendingByFix`: for each fix, its pipelines' ids separated by spaces or lines.
    init(rxSwiftBugs: [String: Excuse], pendingByFix: [PendingFix: String]) {
        self.rxSwiftBugs = rxSwiftBugs
        for (fix, ids) in pendingByFix {
            for id in ids.split(whereSeparator: \.isWhitespace) { pending[String(id)] = fix }
        }
    }

    /// The differences of the committed golden data (`Golden/`), as RxAnatomy prints them today.
    /// Pending: the fixes of issue 21 still to land and the check's own findings.
    static let current = KnownDifferences(
        rxSwiftBugs: [
            "g1251": Excuse(
                .infallibleMergeConcatenates,
                """
                > main: 200:n5 200:n9 200:n6 201:n3
                > cold2 subscriptions: 201-1000 202-1000
                > log: 200:main.n5 200:main.n9 200:main.n6 201:main.n3
                """),
            "g1276": Excuse(
                .infallibleMergeConcatenates,
                """
                > main: 150:n16 155:n13 160:n12 175:n10
                > cold0 subscriptions: 150-175
                > cold1 subscriptions: 150-152
                > hot0 subscriptions: 150-152
                > log: 150:create0.subscribe 150:create0.returns 150:create2.subscribe 150:create2.returns\
                 150:create1.subscribe 150:create1.returns 150:do0.subscribe 150:do0.next(7)\
                 150:do0.afterNext(7) 150:do0.completed 150:do0.afterCompleted 150:do0.subscribed\
                 150:do0.dispose 150:create1.dispose 150:create2.dispose 150:main.n16 155:main.n13\
                 155:create0.dispose 160:main.n12 175:main.n10
                """),
            "g1491": Excuse(
                .infallibleMergeConcatenates,
                """
                > cold2 subscriptions: 200-700
                > cold3 subscriptions: 200-215
                > hot4 subscriptions: 200-215
                > cold5 subscriptions: 200-220
                """),
            "g1517": Excuse(
                .infallibleMergeConcatenates,
                """
                > main: 200:c
                > cold1 subscriptions: 200-200
                > cold2 subscriptions: 200-200
                > cold3 subscriptions: 200-200
                > hot0 subscriptions: 200-200
                > cold4 subscriptions: 200-200
                > cold5 subscriptions: 200-200
                > cold6 subscriptions: 200-200
                > log: 200:create0.subscribe 200:main.c 200:create0.returns 200:create0.dispose\
                 200:create1.subscribe 200:create1.returns 200:create1.dispose
                """),
            "g1701": Excuse(
                .infallibleMergeConcatenates,
                """
                > cold1 subscriptions: 200-210
                """),
            "g2383": Excuse(
                .infallibleMergeConcatenates,
                """
                > main: 265:n83 285:n164 295:n246
                > cold0 subscriptions: 260-1000
                > cold1 subscriptions: 260-295
                > log: 260:create0.subscribe 260:create0.returns 265:main.n83 275:create0.dispose 285:main.n164\
                 295:main.n246
                """),
            "g2855": Excuse(
                .ambDisposesWinner,
                """
                > log: 200:create0.subscribe 200:main.n9 200:create0.returns 300:create0.dispose
                """),
            "f50": Excuse(
                .ambDisposesWinner,
                """
                > main: 200:n3 315:n3 680:c
                > log: 200:main.n3 260:observer0.n3 315:main.n3 475:observer2.n3 475:observer2.n3\
                 560:observer1.n3 560:observer1.n3 680:main.c 680:using0.dispose 680:observer2.c
                """),
            "f389": Excuse(
                .infallibleMergeConcatenates,
                """
                > main: 200:n1 200:n8 201:n11 202:n13 210:n9 210:n-1 225:n49 245:n19 255:n79 305:n19 325:n29
                > hot1 subscriptions: 200-360
                > cold0 subscriptions: 200-210
                > hot2 subscriptions: 200-250
                > log: 200:create0.subscribe 200:create0.returns 200:main.n1 200:main.n8 201:main.n11\
                 202:create0.dispose 202:main.n13 210:main.n9 210:main.n-1 225:main.n49 245:main.n19\
                 255:main.n79 305:main.n19 325:main.n29
                """),
        ],
        pendingByFix: [
            .traitFlatMap: """
            g33 g289 g539 g644 g710 g930 g1017 g1066 g1073 g1205 g1298 g1479 g1665 g1677 g1818 g1826 g2014
            g2250 g2292 g2492 g2516 g2728 g2825 g2842 g2853 g2976 g3251 g3261 g3657 g3660 g3790 g3818 g3829
            g3933 f68 f351
            """,
            .retryWhen: """
            g586 g620 g2432 g3760 f596
            """,
            .retryLastError: """
            g154 g303 g909 g1781 g2170 g2258 g3227 g3633
            """,
            .periodicTicks: """
            g634
            """,
            .deliveryOrder: """
            g52 g196 g369 g685 g1731 g1868 g1870 g2089 g2463 g2764 g2914 g3058 g3077 g3434 g3700 g3819 g3835
            f135 f143 f369 f471
            """,
            .sideEffectOrder: """
            g218 g224 g365 g618 g760 g827 g913 g1119 g1211 g1268 g1280 g1753 g1799 g1834 g1843 g1911 g1969 g1981
            g2145 g2404 g2437 g2453 g2798 g3042 g3269 g3300 g3553 g3604 g3874 g3930 g3987 f311 f397 f437
            """,
            .asyncSubject: """
            f41
            """,
        ])
}
