import Foundation
import RxRelay
import RxSwift
import RxTest

typealias Obs = Observable<Int>

/// A part of a pipeline: what it is (`text`, pseudo-Swift a reader can rewrite as a test) and
/// the object itself.
struct Piece<Value> {
    let text: String
    let value: Value
    init(_ text: String, _ value: Value) {
        self.text = text
        self.value = value
    }
}

/// Builds one random pipeline from a seeded generator: sources on the run's `TestScheduler`,
/// operators over them, subjects fed at chosen times, shared observables with observers that
/// come and go. Every random choice is made here, while building, never while the pipeline runs,
/// so that an implementation's order of calls cannot change what is built.
final class Generator {
    var rng: SplitMix64
    let run: Run
    /// Favour what is likeliest to differ: time operators, sharing, retry, zip.
    let focused: Bool
    /// Nodes left to spend on this pipeline; when none are left, every input is a leaf.
    var budget: Int
    /// Observables the pipeline may subscribe to more than once (subjects, shared ones).
    var pool: [Piece<Obs>] = []
    /// Relays, for `asInfallible()`.
    var relays: [Piece<Infallible<Int>>] = []

    var scheduler: TestScheduler { run.scheduler }
    var log: Log { run.log }

    init(rng: SplitMix64, run: Run, focused: Bool) {
        self.rng = rng
        self.run = run
        self.focused = focused
        budget = focused ? self.rng.int(4...9) : self.rng.int(3...8)
    }

    /// One of `options`, each as likely as its weight; a weight of 0 is never chosen.
    func oneOf<T>(_ options: [(Int, () -> T)]) -> T {
        let total = options.reduce(0) { $0 + $1.0 }
        var roll = rng.below(total)
        for (weight, make) in options {
            if roll < weight { return make() }
            roll -= weight
        }
        fatalError("unreachable")
    }

    /// A weight: `general` in ordinary pipelines, `focus` in focused ones.
    func w(_ general: Int, _ focus: Int) -> Int { focused ? focus : general }

    // MARK: - Small random things

    func value() -> Int { rng.int(1...9) }
    func failure() -> Failure { Failure(code: rng.int(1...9)) }
    /// A duration in ticks, for time operators.
    func ticks() -> Int { rng.pick([1, 2, 5, 5, 10, 10, 15, 20, 30, 50]) }
    /// A virtual time for something scheduled absolutely (subject feeds, connections…).
    func time() -> Int { rng.int(10...70) * 10 + rng.pick([0, 0, 0, 5]) }
    func seconds(_ n: Int) -> RxTimeInterval { .seconds(n) }

    /// A closure that sometimes throws on one value: `(text, body)`.
    func throwing(_ make: @escaping (Int) -> Int, _ text: String) -> (String, (Int) throws -> Int) {
        guard rng.chance(15) else { return (text, make) }
        let bad = value()
        let error = failure()
        return (
            "$0 == \(bad) ? throw E\(error.code) : \(text)",
            { x in
                if x == bad { throw error }; return make(x)
            }
        )
    }

    func predicate() -> (String, (Int) throws -> Bool) {
        let k = rng.int(2...4)
        let r = rng.below(k)
        if rng.chance(10) {
            let bad = value()
            let error = failure()
            return (
                "$0 == \(bad) ? throw E\(error.code) : $0 % \(k) == \(r)",
                { x in
                    if x == bad { throw error }; return modulo(x, k) == r
                }
            )
        }
        return ("$0 % \(k) == \(r)", { modulo($0, k) == r })
    }

    // MARK: - Observables

    /// An observable of at most `depth` levels of nesting.
    func observable(_ depth: Int) -> Piece<Obs> {
        budget -= 1
        if depth <= 0 || budget <= 0 { return leaf() }
        if !pool.isEmpty && rng.chance(12) { return rng.pick(pool) }
        var piece = oneOf([
            (20, { self.leaf() }),
            (w(14, 14), { self.combining(depth) }),
            (w(8, 6), { self.fromTrait(depth) }),
            (w(5, 10), { self.shared(depth) }),
            (w(4, 6), { self.subject() }),
        ])
        for _ in 0..<rng.int(0...3) where budget > 0 {
            piece = unary(piece, depth)
        }
        return piece
    }

    // MARK: Leaves

    func leaf() -> Piece<Obs> {
        oneOf([
            (w(30, 40), { self.cold() }),
            (w(25, 35), { self.hot() }),
            (3, { self.justLike() }),
            (2, { Piece("empty()", Obs.empty()) }),
            (2, { Piece("never()", Obs.never()) }),
            (
                2,
                {
                    let e = self.failure(); return Piece("error(E\(e.code))", Obs.error(e))
                }
            ),
            (w(4, 6), { self.timerLike() }),
            (2, { self.generateLike() }),
            (3, { self.create() }),
            (2, { self.deferredLike() }),
            (2, { self.using() }),
            (w(3, 3), { self.subject() }),
        ])
    }

    func coldEvents() -> [Recorded<Event<Int>>] {
        var events: [Recorded<Event<Int>>] = []
        var t = rng.pick([0, 0, 5, 10])
        for _ in 0..<rng.int(0...4) {
            events.append(.next(t, value()))
            t += rng.pick([0, 5, 5, 10, 10, 20])
        }
        switch rng.below(10) {
        case 0..<5: events.append(.completed(t + rng.pick([0, 5, 10])))
        case 5..<8: events.append(.error(t + rng.pick([0, 5, 10]), failure()))
        default: break
        }
        return events
    }

    func cold() -> Piece<Obs> {
        let events = coldEvents()
        let name = run.name("cold")
        run.add(name, scheduler.createColdObservable(events))
        run.lines.append("\(name) = cold(\(Run.text(events)))")
        return Piece(name, run.testables.last!.observable.asObservable())
    }

    func hotEvents() -> [Recorded<Event<Int>>] {
        var events: [Recorded<Event<Int>>] = []
        var t = rng.int(15...25) * 10 - rng.pick([0, 0, 5])
        for _ in 0..<rng.int(0...5) {
            events.append(.next(t, value()))
            t += rng.pick([0, 5, 10, 10, 20, 30, 50])
        }
        switch rng.below(10) {
        case 0..<5: events.append(.completed(t + rng.pick([0, 10, 20])))
        case 5..<7: events.append(.error(t + rng.pick([0, 10, 20]), failure()))
        default: break
        }
        return events
    }

    func hot() -> Piece<Obs> {
        let events = hotEvents()
        let name = run.name("hot")
        run.add(name, scheduler.createHotObservable(events))
        run.lines.append("\(name) = hot(\(Run.text(events)))")
        return Piece(name, run.testables.last!.observable.asObservable())
    }

    func justLike() -> Piece<Obs> {
        let (a, b, c) = (value(), value(), value())
        let s = scheduler
        return oneOf([
            (3, { Piece("just(\(a))", Obs.just(a)) }),
            (2, { Piece("just(\(a), s)", Obs.just(a, scheduler: s)) }),
            (2, { Piece("of(\(a), \(b), \(c))", Obs.of(a, b, c)) }),
            (2, { Piece("of(\(a), \(b), s)", Obs.of(a, b, scheduler: s)) }),
            (1, { Piece("from([\(a), \(b)])", Obs.from([a, b])) }),
            (1, { Piece("from([\(a), \(b), \(c)], s)", Obs.from([a, b, c], scheduler: s)) }),
            (1, { Piece("from(optional: \(a))", Obs.from(optional: a)) }),
            (1, { Piece("from(optional: nil)", Obs.from(optional: nil)) }),
            (1, { Piece("range(\(a), \(b % 4))", Obs.range(start: a, count: b % 4)) }),
            (1, { Piece("range(\(a), \(b % 4), s)", Obs.range(start: a, count: b % 4, scheduler: s)) }),
            // `take`, or it would run for ever in one tick without the scheduler's processing delay.
            (1, { Piece("repeatElement(\(a), s).take(\(c % 4))", Obs.repeatElement(a, scheduler: s).take(c % 4)) }),
        ])
    }

    func timerLike() -> Piece<Obs> {
        let (due, period) = (ticks(), rng.pick([10, 20, 30, 50]))
        let s = scheduler
        return oneOf([
            (3, { Piece("interval(\(period), s)", Obs.interval(self.seconds(period), scheduler: s)) }),
            (2, { Piece("timer(\(due), s)", Obs.timer(self.seconds(due), scheduler: s)) }),
            (
                2,
                {
                    Piece(
                        "timer(\(due), period: \(period), s)",
                        Obs.timer(self.seconds(due), period: self.seconds(period), scheduler: s))
                }
            ),
        ])
    }

    func generateLike() -> Piece<Obs> {
        let (start, end, step) = (value(), rng.int(5...20), rng.int(1...4))
        let s = scheduler
        if rng.chance(50) {
            return Piece(
                "generate(\(start), while < \(end), s, + \(step))",
                Obs.generate(initialState: start, condition: { $0 < end }, scheduler: s, iterate: { $0 + step }))
        }
        return Piece(
            "generate(\(start), while < \(end), + \(step))",
            Obs.generate(initialState: start, condition: { $0 < end }, iterate: { $0 + step }))
    }

    /// `create`: some values at once, maybe one later on the scheduler, maybe an end; logs its
    /// subscription and disposal.
    func create() -> Piece<Obs> {
        let tag = run.name("create")
        let now = (0..<rng.int(0...2)).map { _ in value() }
        let later = rng.chance(60) ? (ticks(), value()) : nil
        let end: Event<Int>? = rng.pick([nil, .completed, .error(failure())])
        let endNow = rng.chance(40)
        let (log, s) = (log, scheduler)
        var text = "create(\(tag): now \(now)"
        if let later { text += ", after \(later.0): n\(later.1)" }
        if let end { text += ", \(endNow ? "at once" : "then") \(Run.text(end))" }
        let observable = Obs.create { observer in
            log.note(tag, "subscribe")
            for v in now { observer.onNext(v) }
            if let end, endNow { observer.on(end) }
            var scheduled: Disposable = Disposables.create()
            if let later {
                scheduled = s.scheduleRelative((), dueTime: .seconds(later.0)) { _ in
                    observer.onNext(later.1)
                    if let end, !endNow { observer.on(end) }
                    return Disposables.create()
                }
            }
            return log.returned(tag, cancelling: scheduled)
        }
        return Piece(text + ")", observable)
    }

    func deferredLike() -> Piece<Obs> {
        let tag = run.name("deferred")
        let inner = leaf()
        let log = log
        if rng.chance(25) {
            let e = failure()
            return Piece(
                "deferred(\(tag): throw E\(e.code))",
                Obs.deferred { () -> Obs in
                    log.note(tag, "factory")
                    throw e
                })
        }
        return Piece(
            "deferred(\(tag): \(inner.text))",
            Obs.deferred {
                log.note(tag, "factory")
                return inner.value
            })
    }

    func using() -> Piece<Obs> {
        let tag = run.name("using")
        let inner = leaf()
        let log = log
        return Piece(
            "using(\(tag), \(inner.text))",
            Obs.using({ Token(tag, log) }, observableFactory: { _ in inner.value }))
    }

    /// A subject or relay fed at chosen times (sometimes by a hot observable it subscribes to),
    /// with observers that subscribe and dispose at chosen times.
    func subject() -> Piece<Obs> {
        let s = scheduler
        let feed = subjectFeed()
        // Sometimes a hot observable is subscribed into it too, from a chosen time.
        let bound = rng.chance(20) ? (hot(), rng.pick([0, 100, 200, 250])) : nil
        func feedSubject<S: ObserverType>(_ subject: S) where S.Element == Int {
            for (t, event) in feed { s.scheduleAt(t) { subject.on(event) } }
            if let (hot, t) = bound { s.scheduleAt(t) { _ = hot.value.subscribe(subject) } }
        }
        func feedRelay(_ accept: @escaping (Int) -> Void) {
            for case (let t, .next(let v)) in feed { s.scheduleAt(t) { accept(v) } }
            if let (hot, t) = bound { s.scheduleAt(t) { _ = hot.value.subscribe(onNext: accept, onError: { _ in }) } }
        }
        let v = value()
        let n = rng.int(1...3)
        let (kind, observable, infallible): (String, Obs, Infallible<Int>?) = oneOf([
            (
                4,
                {
                    let x = PublishSubject<Int>(); feedSubject(x); return ("PublishSubject()", x.asObservable(), nil)
                }
            ),
            (
                3,
                {
                    let x = BehaviorSubject(value: v)
                    feedSubject(x)
                    return ("BehaviorSubject(\(v))", x.asObservable(), nil)
                }
            ),
            (
                2,
                {
                    let x = ReplaySubject<Int>.create(bufferSize: n)
                    feedSubject(x)
                    return ("ReplaySubject(bufferSize: \(n))", x.asObservable(), nil)
                }
            ),
            (
                1,
                {
                    let x = ReplaySubject<Int>.createUnbounded()
                    feedSubject(x)
                    return ("ReplaySubject.createUnbounded()", x.asObservable(), nil)
                }
            ),
            (
                2,
                {
                    let x = AsyncSubject<Int>(); feedSubject(x); return ("AsyncSubject()", x.asObservable(), nil)
                }
            ),
            (
                2,
                {
                    let x = PublishRelay<Int>()
                    feedRelay(x.accept)
                    return ("PublishRelay()", x.asObservable(), x.asInfallible())
                }
            ),
            (
                2,
                {
                    let x = BehaviorRelay(value: v)
                    feedRelay(x.accept)
                    return ("BehaviorRelay(\(v))", x.asObservable(), x.asInfallible())
                }
            ),
            (
                1,
                {
                    let x = ReplayRelay<Int>.create(bufferSize: n)
                    feedRelay(x.accept)
                    return ("ReplayRelay(bufferSize: \(n))", x.asObservable(), x.asInfallible())
                }
            ),
            (
                1,
                {
                    let x = ReplayRelay<Int>.createUnbound()
                    feedRelay(x.accept)
                    return ("ReplayRelay.createUnbound()", x.asObservable(), x.asInfallible())
                }
            ),
        ])
        let name = run.name("subject")
        if let infallible { relays.append(Piece("\(name).asInfallible()", infallible)) }
        let fed = infallible != nil ? feed.filter { $0.1.element != nil } : feed
        var line = "\(name) = \(kind) fed " + fed.map { "\($0.0):\(Run.text($0.1))" }.joined(separator: " ")
        if let (hot, t) = bound { line += ", \(hot.text) subscribed into it at \(t)" }
        run.lines.append(line)
        let piece = Piece(name, observable)
        pool.append(piece)
        sideObservers(piece)
        return piece
    }

    func subjectFeed() -> [(Int, Event<Int>)] {
        var feed = (0..<rng.int(1...5)).map { _ in (time(), Event<Int>.next(value())) }
        if rng.chance(40) { feed.append((time(), rng.chance(60) ? .completed : .error(failure()))) }
        return feed.sorted { $0.0 < $1.0 }
    }

    /// Up to three observers of `piece` that subscribe and dispose at chosen times, and log what
    /// they receive (so the order in which a subject serves its observers shows).
    func sideObservers(_ piece: Piece<Obs>) {
        for _ in 0..<rng.pick([0, 0, 1, 1, 2, 3]) {
            let name = run.name("observer")
            let observer = scheduler.createObserver(Int.self)
            run.add(name, observer)
            let start = time()
            let end = start + rng.pick([10, 50, 100, 200, 400, 600])
            run.lines.append("\(name) subscribes to \(piece.text) at \(start), disposes at \(end)")
            var subscription: Disposable?
            let logging = log.logging(name, observer)
            scheduler.scheduleAt(start) { subscription = piece.value.subscribe(logging) }
            scheduler.scheduleAt(end) { subscription?.dispose() }
        }
    }
}

/// `x mod k` in `0..<k`, for negative `x` too.
func modulo(_ x: Int, _ k: Int) -> Int { ((x % k) + k) % k }

/// Several values as one, keeping their order: `mix(3, 4)` is 34.
func mix(_ values: Int...) -> Int { mix(values) }
func mix(_ values: [Int]) -> Int { values.reduce(0) { ($0 &* 10 &+ $1) % 1_000_000_007 } }
