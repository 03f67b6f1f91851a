import Foundation
import RxSwift
import RxTest

/// The operators of one source: `piece.operator(…)`, other inputs drawn at `depth - 1`.
extension Generator {
    func unary(_ p: Piece<Obs>, _ depth: Int) -> Piece<Obs> {
        oneOf([
            (8, { self.transform(p) }),
            (7, { self.filtering(p) }),
            (w(6, 4), { self.aggregate(p) }),
            (w(7, 6), { self.flatten(p, depth) }),
            (w(5, 4), { self.withOther(p, depth) }),
            (w(8, 16), { self.timed(p, depth) }),
            (w(5, 10), { self.errors(p, depth) }),
            (w(3, 8), { self.sharing(p, depth) }),
            (4, { self.doLog(p) }),
            (w(4, 3), { self.toTraitAndBack(p, depth) }),
        ])
    }

    // MARK: map and friends

    func transform(_ p: Piece<Obs>) -> Piece<Obs> {
        let k = value()
        let (mapText, map) = throwing({ $0 &+ k }, "$0 + \(k)")
        let token = Token(run.name("object"), log)
        return oneOf([
            (6, { Piece("\(p.text).map { \(mapText) }", p.value.map(map)) }),
            (
                2,
                {
                    Piece(
                        "\(p.text).compactMap { $0 % 3 == 0 ? nil : $0 * \(k) }",
                        p.value.compactMap { modulo($0, 3) == 0 ? nil : $0 &* k })
                }
            ),
            (2, { Piece("\(p.text).scan(\(k)) { $0 + $1 }", p.value.scan(k) { $0 &+ $1 }) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).scan(into: \(k)) { $0 = $0 * 2 + $1 }",
                        p.value.scan(into: k) { $0 = ($0 &* 2 &+ $1) % 100_000 })
                }
            ),
            (1, { Piece("\(p.text).startWith(\(k))", p.value.startWith(k)) }),
            (1, { Piece("\(p.text).startWith(\(k), \(k + 1))", p.value.startWith(k, k + 1)) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).enumerated().map { mix($0.index, $0.element) }",
                        p.value.enumerated().map { mix($0.index, $0.element) })
                }
            ),
            (
                1,
                {
                    Piece(
                        "\(p.text).materialize().map { n→value, e→-1, c→-2 }",
                        p.value.materialize().map { event -> Int in
                            switch event {
                            case .next(let v): v
                            case .error: -1
                            case .completed: -2
                            }
                        })
                }
            ),
            (1, { Piece("\(p.text).materialize().dematerialize()", p.value.materialize().dematerialize()) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).map { Data(json of $0, $0 == \(k) gives bad json) }.decode(Int.self, JSONDecoder())",
                        p.value.map { Data(($0 == k ? "x" : "\($0)").utf8) }.decode(
                            type: Int.self, decoder: JSONDecoder()))
                }
            ),
            (
                1,
                {
                    // The object is let go at a chosen time: the next element then completes.
                    let release = self.time()
                    let slot = self.run.held.count
                    self.run.held.append(token)
                    self.scheduler.scheduleAt(release) { self.run.held[slot] = nil }
                    return Piece(
                        "\(p.text).withUnretained(\(token.name) released at \(release)).map { $1 }",
                        p.value.withUnretained(token).map { $1 })
                }
            ),
            (
                1,
                {
                    self.run.held.append(token)
                    return Piece(
                        "\(p.text).withUnretained(\(token.name)) { $1 + 1 }",
                        p.value.withUnretained(token) { _, x in x &+ 1 })
                }
            ),
        ])
    }

    // MARK: Filtering and conditions

    func filtering(_ p: Piece<Obs>) -> Piece<Obs> {
        let (predicateText, predicate) = predicate()
        let n = rng.int(0...3)
        let k = value()
        let behavior: TakeBehavior = rng.chance(50) ? .inclusive : .exclusive
        let b = behavior == .inclusive ? ".inclusive" : ".exclusive"
        return oneOf([
            (5, { Piece("\(p.text).filter { \(predicateText) }", p.value.filter(predicate)) }),
            (2, { Piece("\(p.text).distinctUntilChanged()", p.value.distinctUntilChanged()) }),
            (1, { Piece("\(p.text).distinctUntilChanged { $0 / 3 }", p.value.distinctUntilChanged { $0 / 3 }) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).distinctUntilChanged { abs($0 - $1) < 2 }",
                        p.value.distinctUntilChanged { abs($0 - $1) < 2 })
                }
            ),
            (
                1,
                {
                    Piece(
                        "\(p.text).distinctUntilChanged({ $0 % 4 }, comparer: ==)",
                        p.value.distinctUntilChanged({ modulo($0, 4) }, comparer: { $0 == $1 }))
                }
            ),
            (1, { Piece("\(p.text).distinctUntilChanged(at: \\.self)", p.value.distinctUntilChanged(at: \.self)) }),
            (1, { Piece("\(p.text).element(at: \(n))", p.value.element(at: n)) }),
            (1, { Piece("\(p.text).first().map { $0 ?? -1 }", p.value.first().asObservable().map { $0 ?? -1 }) }),
            (1, { Piece("\(p.text).single()", p.value.single()) }),
            (1, { Piece("\(p.text).single { \(predicateText) }", p.value.single(predicate)) }),
            (3, { Piece("\(p.text).take(\(n))", p.value.take(n)) }),
            (1, { Piece("\(p.text).takeLast(\(n))", p.value.takeLast(n)) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).take(until: { \(predicateText) }, behavior: \(b))",
                        p.value.take(until: predicate, behavior: behavior))
                }
            ),
            (
                1,
                {
                    Piece(
                        "\(p.text).take(while: { \(predicateText) }, behavior: \(b))",
                        p.value.take(while: predicate, behavior: behavior))
                }
            ),
            (2, { Piece("\(p.text).skip(\(n))", p.value.skip(n)) }),
            (1, { Piece("\(p.text).skip(while: { \(predicateText) })", p.value.skip(while: predicate)) }),
            (1, { Piece("\(p.text).ifEmpty(default: \(k))", p.value.ifEmpty(default: k)) }),
            (
                1,
                {
                    let other = self.leaf()
                    return Piece("\(p.text).ifEmpty(switchTo: \(other.text))", p.value.ifEmpty(switchTo: other.value))
                }
            ),
            (
                1,
                {
                    Piece(
                        "\(p.text).ignoreElements().asCompletable().andThen(just(\(k)))",
                        p.value.ignoreElements().asCompletable().andThen(Obs.just(k)))
                }
            ),
        ])
    }

    // MARK: toArray, reduce, buffer, window, groupBy

    func aggregate(_ p: Piece<Obs>) -> Piece<Obs> {
        let k = value()
        let s = scheduler
        let (span, count) = (rng.pick([10, 20, 30, 50]), rng.int(1...4))
        return oneOf([
            (2, { Piece("\(p.text).toArray().map(mix)", p.value.toArray().map(mix).asObservable()) }),
            (2, { Piece("\(p.text).reduce(\(k), +)", p.value.reduce(k, accumulator: { $0 &+ $1 })) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).reduce(\(k), +, mapResult: { $0 * 2 })",
                        p.value.reduce(k, accumulator: { $0 &+ $1 }, mapResult: { $0 &* 2 }))
                }
            ),
            (
                2,
                {
                    Piece(
                        "\(p.text).buffer(timeSpan: \(span), count: \(count), s).map(mix)",
                        p.value.buffer(timeSpan: .seconds(span), count: count, scheduler: s).map(mix))
                }
            ),
            (
                2,
                {
                    let windows = p.value.window(timeSpan: .seconds(span), count: count, scheduler: s)
                    return self.oneOf([
                        (
                            1,
                            {
                                Piece(
                                    "\(p.text).window(timeSpan: \(span), count: \(count), s)"
                                        + ".flatMap { $0.toArray() }.map(mix)",
                                    windows.flatMap { $0.toArray() }.map(mix))
                            }
                        ),
                        (
                            1,
                            {
                                Piece(
                                    "\(p.text).window(timeSpan: \(span), count: \(count), s).enumerated()"
                                        + ".flatMap { w in w.element.map { mix(w.index, $0) } }",
                                    windows.enumerated().flatMap { w in w.element.map { mix(w.index, $0) } })
                            }
                        ),
                        (
                            1,
                            {
                                Piece(
                                    "\(p.text).window(timeSpan: \(span), count: \(count), s).concat()",
                                    windows.concat())
                            }
                        ),
                    ])
                }
            ),
            (
                2,
                {
                    let m = self.rng.int(2...3)
                    return Piece(
                        "\(p.text).groupBy { $0 % \(m) }.flatMap { g in g.map { mix(g.key, $0) } }",
                        p.value.groupBy { modulo($0, m) }.flatMap { g in g.map { mix(g.key, $0) } })
                }
            ),
            (
                1,
                {
                    let m = self.rng.int(2...3)
                    return Piece(
                        "\(p.text).groupBy { $0 % \(m) }.flatMap { g in g.take(1) }",
                        p.value.groupBy { modulo($0, m) }.flatMap { g in g.take(1) })
                }
            ),
        ])
    }

    // MARK: flatMap and friends

    /// `flatMap`-like operators whose selector picks one of one to three inner observables by the
    /// outer value and tags the inner values with it.
    func flatten(_ p: Piece<Obs>, _ depth: Int) -> Piece<Obs> {
        let inners = (0..<rng.int(1...3)).map { _ in observable(depth - 1) }
        let k = inners.count
        let values = inners.map(\.value)
        let bad = rng.chance(10) ? (value(), failure()) : nil
        let select: (Int) throws -> Obs = { x in
            if let bad, x == bad.0 { throw bad.1 }
            return values[modulo(x, k)].map { mix(x, $0) }
        }
        var inner = "[\(inners.map(\.text).joined(separator: ", "))][$0 % \(k)].map { mix(outer, $0) }"
        if let bad { inner = "$0 == \(bad.0) ? throw E\(bad.1.code) : " + inner }
        let n = rng.int(1...2)
        return oneOf([
            (4, { Piece("\(p.text).flatMap { \(inner) }", p.value.flatMap(select)) }),
            (2, { Piece("\(p.text).flatMapFirst { \(inner) }", p.value.flatMapFirst(select)) }),
            (w(3, 5), { Piece("\(p.text).flatMapLatest { \(inner) }", p.value.flatMapLatest(select)) }),
            (2, { Piece("\(p.text).concatMap { \(inner) }", p.value.concatMap(select)) }),
            (1, { Piece("\(p.text).map { \(inner) }.merge()", p.value.map(select).merge()) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).map { \(inner) }.merge(maxConcurrent: \(n))",
                        p.value.map(select).merge(maxConcurrent: n))
                }
            ),
            (1, { Piece("\(p.text).map { \(inner) }.concat()", p.value.map(select).concat()) }),
            (w(2, 3), { Piece("\(p.text).map { \(inner) }.switchLatest()", p.value.map(select).switchLatest()) }),
        ])
    }

    // MARK: Operators with a second source

    func withOther(_ p: Piece<Obs>, _ depth: Int) -> Piece<Obs> {
        let o = observable(depth - 1)
        let k = value()
        return oneOf([
            (2, { Piece("\(p.text).withLatestFrom(\(o.text))", p.value.withLatestFrom(o.value)) }),
            (2, { Piece("\(p.text).withLatestFrom(\(o.text), mix)", p.value.withLatestFrom(o.value) { mix($0, $1) }) }),
            (2, { Piece("\(p.text).take(until: \(o.text))", p.value.take(until: o.value)) }),
            (2, { Piece("\(p.text).skip(until: \(o.text))", p.value.skip(until: o.value)) }),
            (2, { Piece("\(p.text).sample(\(o.text))", p.value.sample(o.value)) }),
            (1, { Piece("\(p.text).sample(\(o.text), defaultValue: \(k))", p.value.sample(o.value, defaultValue: k)) }),
            (2, { Piece("\(p.text).concat(\(o.text))", p.value.concat(o.value)) }),
            (w(2, 4), { Piece("\(p.text).amb(\(o.text))", p.value.amb(o.value)) }),
            (
                w(1, 2),
                {
                    // A second source that ends while it is subscribed (`just`, `of`, `from`…).
                    let other = self.justLike()
                    return Piece("\(p.text).amb(\(other.text))", p.value.amb(other.value))
                }
            ),
        ])
    }

    // MARK: Time

    func timed(_ p: Piece<Obs>, _ depth: Int) -> Piece<Obs> {
        let d = ticks()
        let s = scheduler
        let latest = rng.chance(50)
        return oneOf([
            (4, { Piece("\(p.text).delay(\(d), s)", p.value.delay(.seconds(d), scheduler: s)) }),
            (
                2,
                { Piece("\(p.text).delaySubscription(\(d), s)", p.value.delaySubscription(.seconds(d), scheduler: s)) }
            ),
            (2, { Piece("\(p.text).timeout(\(d), s)", p.value.timeout(.seconds(d), scheduler: s)) }),
            (
                1,
                {
                    let other = self.observable(depth - 1)
                    return Piece(
                        "\(p.text).timeout(\(d), other: \(other.text), s)",
                        p.value.timeout(.seconds(d), other: other.value, scheduler: s))
                }
            ),
            (3, { Piece("\(p.text).debounce(\(d), s)", p.value.debounce(.seconds(d), scheduler: s)) }),
            (
                3,
                {
                    Piece(
                        "\(p.text).throttle(\(d), latest: \(latest), s)",
                        p.value.throttle(.seconds(d), latest: latest, scheduler: s))
                }
            ),
            (1, { Piece("\(p.text).take(for: \(d * 5), s)", p.value.take(for: .seconds(d * 5), scheduler: s)) }),
            (1, { Piece("\(p.text).skip(\(d * 5), s)", p.value.skip(.seconds(d * 5), scheduler: s)) }),
            (2, { Piece("\(p.text).observe(on: s)", p.value.observe(on: s)) }),
            (2, { Piece("\(p.text).subscribe(on: s)", p.value.subscribe(on: s)) }),
        ])
    }

    // MARK: Errors

    func errors(_ p: Piece<Obs>, _ depth: Int) -> Piece<Obs> {
        let k = value()
        let n = rng.int(1...4)
        return oneOf([
            (
                3,
                {
                    let other = self.observable(depth - 1)
                    return Piece("\(p.text).catch { _ in \(other.text) }", p.value.catch { _ in other.value })
                }
            ),
            (2, { Piece("\(p.text).catchAndReturn(\(k))", p.value.catchAndReturn(k)) }),
            (
                1,
                {
                    let other = self.observable(depth - 1)
                    return Piece(
                        "Observable.catch(sequence: [\(p.text), \(other.text)])",
                        Obs.catch(sequence: [p.value, other.value]))
                }
            ),
            (4, { Piece("\(p.text).retry(\(n))", p.value.retry(n)) }),
            (1, { self.retryForever(p) }),
            (3, { self.retryWhen(p) }),
        ])
    }

    /// `retry()`, over a source that gives up after 20 subscriptions (completing), so that a
    /// source failing at once cannot loop for ever.
    func retryForever(_ p: Piece<Obs>) -> Piece<Obs> {
        let limit = rng.pick([3, 20])
        let count = Counter()
        let guarded = Obs.deferred { () -> Obs in
            count.value += 1
            return count.value > limit ? .empty() : p.value
        }
        return Piece("deferred(\(p.text) for \(limit) subscriptions, then empty()).retry()", guarded.retry())
    }

    /// `retry(when:)` with a notifier that always ends: after a count, a delay, or an error.
    func retryWhen(_ p: Piece<Obs>) -> Piece<Obs> {
        let n = rng.int(1...3)
        let d = ticks()
        let s = scheduler
        let typed = rng.chance(40)
        let (text, handler): (String, (Observable<Error>) -> Obs) = oneOf([
            (3, { ("errors.take(\(n)).map { _ in 0 }", { $0.take(n).map { _ in 0 } }) }),
            (
                2,
                {
                    (
                        "errors.take(\(n)).delay(\(d), s).map { _ in 0 }",
                        { $0.take(n).delay(.seconds(d), scheduler: s).map { _ in 0 } }
                    )
                }
            ),
            (
                2,
                {
                    (
                        "errors.enumerated().flatMap { $0.index < \(n) ? timer(\(d), s) : error($0.element) }",
                        {
                            $0.enumerated().flatMap { pair -> Obs in
                                pair.index < n ? Obs.timer(.seconds(d), scheduler: s) : Obs.error(pair.element)
                            }
                        }
                    )
                }
            ),
            (
                1,
                {
                    (
                        "errors.scan(0) { n, _ in n + 1 }.take(while: < \(n + 1))",
                        { $0.scan(0) { count, _ in count + 1 }.take(while: { $0 < n + 1 }) }
                    )
                }
            ),
        ])
        if typed {
            // The typed form: a notifier of `Failure`s (another error type fails the sequence).
            return Piece(
                "\(p.text).retry(when: { (errors: Observable<Failure>) in \(text) })",
                p.value.retry(when: { (errors: Observable<Failure>) in handler(errors.map { $0 as Error }) }))
        }
        return Piece("\(p.text).retry(when: { errors in \(text) })", p.value.retry(when: handler))
    }

    // MARK: do

    func doLog(_ p: Piece<Obs>) -> Piece<Obs> {
        let tag = run.name("do")
        let log = log
        func maybe<T>(_ make: T) -> T? { rng.chance(50) ? make : nil }
        let onNext = maybe { (x: Int) in log.note(tag, "next(\(x))") }
        let afterNext = maybe { (x: Int) in log.note(tag, "afterNext(\(x))") }
        let onError = maybe { (e: Error) in log.note(tag, "error(\(Run.text(e)))") }
        let afterError = maybe { (e: Error) in log.note(tag, "afterError(\(Run.text(e)))") }
        let onCompleted = maybe { log.note(tag, "completed") }
        let afterCompleted = maybe { log.note(tag, "afterCompleted") }
        let onSubscribe = maybe { log.note(tag, "subscribe") }
        let onSubscribed = maybe { log.note(tag, "subscribed") }
        let onDispose = maybe { log.note(tag, "dispose") }
        let bad = rng.chance(10) ? (value(), failure()) : nil
        let throwingNext: ((Int) throws -> Void)? =
            bad.map { bad in
                { x in
                    onNext?(x)
                    if x == bad.0 { throw bad.1 }
                }
            } ?? onNext
        var text = "\(p.text).do(\(tag)"
        if let bad { text += ", onNext throws E\(bad.1.code) on \(bad.0)" }
        return Piece(
            text + ")",
            p.value.do(
                onNext: throwingNext, afterNext: afterNext, onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted, onSubscribe: onSubscribe,
                onSubscribed: onSubscribed, onDispose: onDispose))
    }
}

final class Counter {
    var value = 0
}
