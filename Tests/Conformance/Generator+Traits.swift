import RxSwift
import RxTest

typealias Inf = Infallible<Int>

/// `Single`, `Maybe`, `Completable` and `Infallible`: their creation forms and operators, and
/// the ways in and out of `Observable`.
extension Generator {
    /// An observable that comes out of a trait.
    func fromTrait(_ depth: Int) -> Piece<Obs> {
        oneOf([
            (
                3,
                {
                    let x = self.single(depth - 1); return Piece("\(x.text).asObservable()", x.value.asObservable())
                }
            ),
            (
                2,
                {
                    let x = self.maybe(depth - 1); return Piece("\(x.text).asObservable()", x.value.asObservable())
                }
            ),
            (
                2,
                {
                    let c = self.completable(depth - 1)
                    let o = self.observable(depth - 1)
                    return Piece("\(c.text).andThen(\(o.text))", c.value.andThen(o.value))
                }
            ),
            (
                1,
                {
                    let c = self.completable(depth - 1)
                    return Piece("\(c.text).asObservable()", c.value.asObservable().map(absurd))
                }
            ),
            (
                3,
                {
                    let x = self.infallible(depth - 1); return Piece("\(x.text).asObservable()", x.value.asObservable())
                }
            ),
        ])
    }

    /// The chain turned into a trait, given one of the trait's operators, and turned back.
    func toTraitAndBack(_ p: Piece<Obs>, _ depth: Int) -> Piece<Obs> {
        oneOf([
            (
                3,
                {
                    let x = self.singleOps(Piece("\(p.text).asSingle()", p.value.asSingle()), depth, atLeast: 1)
                    return Piece("\(x.text).asObservable()", x.value.asObservable())
                }
            ),
            (
                2,
                {
                    let x = self.maybeOps(Piece("\(p.text).asMaybe()", p.value.asMaybe()), depth, atLeast: 1)
                    return Piece("\(x.text).asObservable()", x.value.asObservable())
                }
            ),
            (
                3,
                {
                    let x = self.infallibleOps(self.asInfallible(p, depth), depth, atLeast: 1)
                    return Piece("\(x.text).asObservable()", x.value.asObservable())
                }
            ),
            (
                1,
                {
                    let c = self.completableOps(
                        Piece("\(p.text).ignoreElements().asCompletable()", p.value.ignoreElements().asCompletable()),
                        depth, atLeast: 1)
                    let k = self.value()
                    return Piece("\(c.text).andThen(just(\(k)))", c.value.andThen(Obs.just(k)))
                }
            ),
        ])
    }

    // MARK: - Single

    func single(_ depth: Int) -> Piece<Single<Int>> {
        budget -= 1
        let base: Piece<Single<Int>> =
            depth <= 0 || budget <= 0
            ? singleLeaf()
            : oneOf([
                (6, { self.singleLeaf() }),
                (
                    2,
                    {
                        let o = self.observable(depth - 1)
                        return Piece("\(o.text).asSingle()", o.value.asSingle())
                    }
                ),
                (
                    1,
                    {
                        let o = self.observable(depth - 1)
                        return Piece("\(o.text).toArray().map(mix)", o.value.toArray().map(mix))
                    }
                ),
                (
                    1,
                    {
                        let o = self.observable(depth - 1)
                        return Piece("\(o.text).first().map { $0 ?? -1 }", o.value.first().map { $0 ?? -1 })
                    }
                ),
                (
                    1,
                    {
                        let m = self.maybe(depth - 1)
                        let k = self.value()
                        return Piece("\(m.text).ifEmpty(default: \(k))", m.value.ifEmpty(default: k))
                    }
                ),
                (
                    1,
                    {
                        let m = self.maybe(depth - 1)
                        let s = self.single(depth - 1)
                        return Piece("\(m.text).ifEmpty(switchTo: \(s.text))", m.value.ifEmpty(switchTo: s.value))
                    }
                ),
                (
                    1,
                    {
                        let c = self.completable(depth - 1)
                        let s = self.single(depth - 1)
                        return Piece("\(c.text).andThen(\(s.text))", c.value.andThen(s.value))
                    }
                ),
                (
                    w(2, 3),
                    {
                        let arity = self.rng.pick([2, 2, 3, 4, 5, 6, 7, 8])
                        let xs = (0..<arity).map { _ in self.single(arity <= 3 ? depth - 1 : 0) }
                        let list = xs.map(\.text).joined(separator: ", ")
                        let tuple = self.rng.chance(40)
                        if self.rng.chance(20) {
                            return Piece("Single.zip([\(list)], mix)", Single.zip(xs.map(\.value), resultSelector: mix))
                        }
                        return Piece(
                            "Single.zip(\(list))" + (tuple ? ".map(mix)" : " { mix }"),
                            zippedSingles(xs.map(\.value), tuple: tuple))
                    }
                ),
            ])
        return singleOps(base, depth, atLeast: 0)
    }

    func singleLeaf() -> Piece<Single<Int>> {
        let v = value()
        let e = failure()
        let s = scheduler
        let d = ticks()
        return oneOf([
            (4, { Piece("Single.just(\(v))", Single.just(v)) }),
            (2, { Piece("Single.just(\(v), s)", Single.just(v, scheduler: s)) }),
            (1, { Piece("Single.error(E\(e.code))", Single<Int>.error(e)) }),
            (1, { Piece("Single.never()", Single<Int>.never()) }),
            (2, { Piece("Single.timer(\(d), s)", Single<Int>.timer(.seconds(d), scheduler: s)) }),
            (
                4,
                {
                    let c = self.cold(); return Piece("\(c.text).asSingle()", c.value.asSingle())
                }
            ),
            (
                2,
                {
                    let h = self.hot(); return Piece("\(h.text).take(1).asSingle()", h.value.take(1).asSingle())
                }
            ),
            (3, { self.singleCreate() }),
            (
                1,
                {
                    let tag = self.run.name("deferred")
                    let inner = self.singleLeaf()
                    let log = self.log
                    return Piece(
                        "Single.deferred(\(tag): \(inner.text))",
                        Single.deferred {
                            log.note(tag, "factory")
                            return inner.value
                        })
                }
            ),
            (
                1,
                {
                    let tag = self.run.name("using")
                    let inner = self.singleLeaf()
                    let log = self.log
                    return Piece(
                        "Single.using(\(tag), \(inner.text))",
                        Single.using({ Token(tag, log) }, primitiveSequenceFactory: { _ in inner.value }))
                }
            ),
        ])
    }

    /// `Single.create`: succeeds or fails at once, later on the scheduler, or never.
    func singleCreate() -> Piece<Single<Int>> {
        let tag = run.name("create")
        let (log, s) = (log, scheduler)
        let v = value()
        let result: Result<Int, Error> = rng.chance(75) ? .success(v) : .failure(failure())
        let after = rng.pick([0, 0, ticks()])
        let text = "Single.create(\(tag): \(after == 0 ? "at once" : "after \(after)") \(result.text))"
        return Piece(
            text,
            Single.create { observer in
                log.note(tag, "subscribe")
                if after == 0 {
                    observer(result)
                    return log.returned(tag)
                }
                let scheduled = s.scheduleRelative((), dueTime: .seconds(after)) { _ in
                    observer(result)
                    return Disposables.create()
                }
                return log.returned(tag, cancelling: scheduled)
            })
    }

    func singleOps(_ base: Piece<Single<Int>>, _ depth: Int, atLeast: Int) -> Piece<Single<Int>> {
        var piece = base
        for _ in 0..<rng.int(atLeast...2) { piece = singleOp(piece, depth) }
        return piece
    }

    func singleOp(_ p: Piece<Single<Int>>, _ depth: Int) -> Piece<Single<Int>> {
        let k = value()
        let (mapText, map) = throwing({ $0 &+ k }, "$0 + \(k)")
        let d = ticks()
        let n = rng.int(1...3)
        let s = scheduler
        return oneOf([
            (4, { Piece("\(p.text).map { \(mapText) }", p.value.map(map)) }),
            (
                w(4, 4),
                {
                    let inners = (0..<self.rng.int(1...2)).map { _ in self.single(depth - 1) }
                    let values = inners.map(\.value)
                    return Piece(
                        "\(p.text).flatMap { [\(inners.map(\.text).joined(separator: ", "))]"
                            + "[$0 % \(inners.count)].map { mix(outer, $0) } }",
                        p.value.flatMap { x in values[modulo(x, values.count)].map { mix(x, $0) } })
                }
            ),
            (2, { self.singleDo(p) }),
            (
                2,
                {
                    let other = self.single(depth - 1)
                    return Piece("\(p.text).catch { _ in \(other.text) }", p.value.catch { _ in other.value })
                }
            ),
            (1, { Piece("\(p.text).catchAndReturn(\(k))", p.value.catchAndReturn(k)) }),
            (w(2, 4), { Piece("\(p.text).retry(\(n))", p.value.retry(n)) }),
            (
                w(1, 3),
                {
                    Piece(
                        "\(p.text).retry(when: { errors in errors.take(\(n)) })",
                        p.value.retry(when: { (errors: Observable<Error>) in errors.take(n) }))
                }
            ),
            (w(1, 3), { Piece("\(p.text).timeout(\(d), s)", p.value.timeout(.seconds(d), scheduler: s)) }),
            (
                1,
                {
                    let other = self.single(depth - 1)
                    return Piece(
                        "\(p.text).timeout(\(d), other: \(other.text), s)",
                        p.value.timeout(.seconds(d), other: other.value, scheduler: s))
                }
            ),
            (w(1, 3), { Piece("\(p.text).delay(\(d), s)", p.value.delay(.seconds(d), scheduler: s)) }),
            (
                w(1, 2),
                { Piece("\(p.text).delaySubscription(\(d), s)", p.value.delaySubscription(.seconds(d), scheduler: s)) }
            ),
            (1, { Piece("\(p.text).observe(on: s)", p.value.observe(on: s)) }),
            (1, { Piece("\(p.text).subscribe(on: s)", p.value.subscribe(on: s)) }),
        ])
    }

    func singleDo(_ p: Piece<Single<Int>>) -> Piece<Single<Int>> {
        let tag = run.name("do")
        let log = log
        return Piece(
            "\(p.text).do(\(tag))",
            p.value.do(
                onSuccess: { log.note(tag, "success(\($0))") }, afterSuccess: { log.note(tag, "afterSuccess(\($0))") },
                onError: { log.note(tag, "error(\(Run.text($0)))") },
                afterError: { log.note(tag, "afterError(\(Run.text($0)))") },
                onSubscribe: { log.note(tag, "subscribe") }, onSubscribed: { log.note(tag, "subscribed") },
                onDispose: { log.note(tag, "dispose") }))
    }

    // MARK: - Maybe

    func maybe(_ depth: Int) -> Piece<Maybe<Int>> {
        budget -= 1
        let base: Piece<Maybe<Int>> =
            depth <= 0 || budget <= 0
            ? maybeLeaf()
            : oneOf([
                (6, { self.maybeLeaf() }),
                (
                    2,
                    {
                        let o = self.observable(depth - 1)
                        return Piece("\(o.text).asMaybe()", o.value.asMaybe())
                    }
                ),
                (
                    1,
                    {
                        let x = self.single(depth - 1)
                        return Piece("\(x.text).asMaybe()", x.value.asMaybe())
                    }
                ),
                (
                    1,
                    {
                        let x = self.single(depth - 1)
                        let (text, predicate) = self.predicate()
                        return Piece("\(x.text).filter { \(text) }", x.value.filter(predicate))
                    }
                ),
                (
                    1,
                    {
                        let x = self.single(depth - 1)
                        return Piece(
                            "\(x.text).compactMap { $0 % 2 == 0 ? nil : $0 }",
                            x.value.compactMap { modulo($0, 2) == 0 ? nil : $0 })
                    }
                ),
                (
                    w(2, 3),
                    {
                        let x = self.single(depth - 1)
                        let m = self.maybe(depth - 1)
                        return Piece(
                            "\(x.text).flatMapMaybe { v in \(m.text).map { mix(v, $0) } }",
                            x.value.flatMapMaybe { v in m.value.map { mix(v, $0) } })
                    }
                ),
                (
                    1,
                    {
                        let c = self.completable(depth - 1)
                        let m = self.maybe(depth - 1)
                        return Piece("\(c.text).andThen(\(m.text))", c.value.andThen(m.value))
                    }
                ),
                (
                    1,
                    {
                        let arity = self.rng.pick([2, 3, 4, 8])
                        let xs = (0..<arity).map { _ in self.maybe(arity <= 3 ? depth - 1 : 0) }
                        let list = xs.map(\.text).joined(separator: ", ")
                        let tuple = self.rng.chance(40)
                        return Piece(
                            "Maybe.zip(\(list))" + (tuple ? ".map(mix)" : " { mix }"),
                            zippedMaybes(xs.map(\.value), tuple: tuple))
                    }
                ),
            ])
        return maybeOps(base, depth, atLeast: 0)
    }

    func maybeLeaf() -> Piece<Maybe<Int>> {
        let v = value()
        let e = failure()
        let s = scheduler
        return oneOf([
            (3, { Piece("Maybe.just(\(v))", Maybe.just(v)) }),
            (1, { Piece("Maybe.just(\(v), s)", Maybe.just(v, scheduler: s)) }),
            (2, { Piece("Maybe.empty()", Maybe<Int>.empty()) }),
            (1, { Piece("Maybe.error(E\(e.code))", Maybe<Int>.error(e)) }),
            (1, { Piece("Maybe.never()", Maybe<Int>.never()) }),
            (
                4,
                {
                    let c = self.cold(); return Piece("\(c.text).asMaybe()", c.value.asMaybe())
                }
            ),
            (
                2,
                {
                    let tag = self.run.name("create")
                    let (log, s) = (self.log, self.scheduler)
                    let event: MaybeEvent<Int> = self.rng.pick([.success(v), .completed, .error(e)])
                    let after = self.rng.pick([0, 0, self.ticks()])
                    return Piece(
                        "Maybe.create(\(tag): \(after == 0 ? "at once" : "after \(after)") \(event.text))",
                        Maybe.create { observer in
                            log.note(tag, "subscribe")
                            guard after > 0 else {
                                observer(event)
                                return log.returned(tag)
                            }
                            let scheduled = s.scheduleRelative((), dueTime: .seconds(after)) { _ in
                                observer(event)
                                return Disposables.create()
                            }
                            return log.returned(tag, cancelling: scheduled)
                        })
                }
            ),
            (
                1,
                {
                    let inner = self.maybeLeaf()
                    return Piece("Maybe.deferred { \(inner.text) }", Maybe.deferred { inner.value })
                }
            ),
        ])
    }

    func maybeOps(_ base: Piece<Maybe<Int>>, _ depth: Int, atLeast: Int) -> Piece<Maybe<Int>> {
        var piece = base
        for _ in 0..<rng.int(atLeast...2) { piece = maybeOp(piece, depth) }
        return piece
    }

    func maybeOp(_ p: Piece<Maybe<Int>>, _ depth: Int) -> Piece<Maybe<Int>> {
        let k = value()
        let (mapText, map) = throwing({ $0 &+ k }, "$0 + \(k)")
        let (predicateText, predicate) = predicate()
        let d = ticks()
        let n = rng.int(1...3)
        let s = scheduler
        return oneOf([
            (3, { Piece("\(p.text).map { \(mapText) }", p.value.map(map)) }),
            (2, { Piece("\(p.text).filter { \(predicateText) }", p.value.filter(predicate)) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).compactMap { $0 % 2 == 0 ? nil : $0 }",
                        p.value.compactMap { modulo($0, 2) == 0 ? nil : $0 })
                }
            ),
            (
                3,
                {
                    let inner = self.maybe(depth - 1)
                    return Piece(
                        "\(p.text).flatMap { v in \(inner.text).map { mix(v, $0) } }",
                        p.value.flatMap { v in inner.value.map { mix(v, $0) } })
                }
            ),
            (
                1,
                {
                    let other = self.maybe(depth - 1)
                    return Piece("\(p.text).ifEmpty(switchTo: \(other.text))", p.value.ifEmpty(switchTo: other.value))
                }
            ),
            (2, { self.maybeDo(p) }),
            (
                1,
                {
                    let other = self.maybe(depth - 1)
                    return Piece("\(p.text).catch { _ in \(other.text) }", p.value.catch { _ in other.value })
                }
            ),
            (1, { Piece("\(p.text).catchAndReturn(\(k))", p.value.catchAndReturn(k)) }),
            (w(1, 3), { Piece("\(p.text).retry(\(n))", p.value.retry(n)) }),
            (
                w(1, 2),
                {
                    Piece(
                        "\(p.text).retry(when: { errors in errors.take(\(n)) })",
                        p.value.retry(when: { (errors: Observable<Error>) in errors.take(n) }))
                }
            ),
            (w(1, 3), { Piece("\(p.text).timeout(\(d), s)", p.value.timeout(.seconds(d), scheduler: s)) }),
            (w(1, 3), { Piece("\(p.text).delay(\(d), s)", p.value.delay(.seconds(d), scheduler: s)) }),
            (
                w(1, 2),
                { Piece("\(p.text).delaySubscription(\(d), s)", p.value.delaySubscription(.seconds(d), scheduler: s)) }
            ),
            (1, { Piece("\(p.text).observe(on: s)", p.value.observe(on: s)) }),
            (1, { Piece("\(p.text).subscribe(on: s)", p.value.subscribe(on: s)) }),
        ])
    }

    func maybeDo(_ p: Piece<Maybe<Int>>) -> Piece<Maybe<Int>> {
        let tag = run.name("do")
        let log = log
        return Piece(
            "\(p.text).do(\(tag))",
            p.value.do(
                onNext: { log.note(tag, "next(\($0))") }, afterNext: { log.note(tag, "afterNext(\($0))") },
                onError: { log.note(tag, "error(\(Run.text($0)))") },
                afterError: { log.note(tag, "afterError(\(Run.text($0)))") },
                onCompleted: { log.note(tag, "completed") }, afterCompleted: { log.note(tag, "afterCompleted") },
                onSubscribe: { log.note(tag, "subscribe") }, onSubscribed: { log.note(tag, "subscribed") },
                onDispose: { log.note(tag, "dispose") }))
    }

    // MARK: - Completable

    func completable(_ depth: Int) -> Piece<Completable> {
        budget -= 1
        let base: Piece<Completable> =
            depth <= 0 || budget <= 0
            ? completableLeaf()
            : oneOf([
                (5, { self.completableLeaf() }),
                (
                    2,
                    {
                        let o = self.observable(depth - 1)
                        return Piece(
                            "\(o.text).ignoreElements().asCompletable()", o.value.ignoreElements().asCompletable())
                    }
                ),
                (
                    1,
                    {
                        let x = self.single(depth - 1)
                        return Piece("\(x.text).asCompletable()", x.value.asCompletable())
                    }
                ),
                (
                    2,
                    {
                        let x = self.single(depth - 1)
                        let c = self.completable(depth - 1)
                        return Piece(
                            "\(x.text).flatMapCompletable { _ in \(c.text) }",
                            x.value.flatMapCompletable { _ in c.value })
                    }
                ),
                (
                    2,
                    {
                        let xs = (0..<self.rng.int(2...3)).map { _ in self.completable(depth - 1) }
                        let list = xs.map(\.text).joined(separator: ", ")
                        let values = xs.map(\.value)
                        return self.oneOf([
                            (1, { Piece("Completable.zip(\(list))", completableZip(values)) }),
                            (1, { Piece("Completable.zip([\(list)])", Completable.zip(values)) }),
                            (1, { Piece("Completable.concat(\(list))", completableConcat(values)) }),
                            (1, { Piece("Completable.concat([\(list)])", Completable.concat(values)) }),
                            (1, { Piece("\(xs[0].text).concat(\(xs[1].text))", values[0].concat(values[1])) }),
                            (1, { Piece("\(xs[0].text).andThen(\(xs[1].text))", values[0].andThen(values[1])) }),
                        ])
                    }
                ),
            ])
        var piece = base
        for _ in 0..<rng.int(0...1) { piece = completableOp(piece, depth) }
        return piece
    }

    func completableLeaf() -> Piece<Completable> {
        let e = failure()
        return oneOf([
            (3, { Piece("Completable.empty()", Completable.empty()) }),
            (1, { Piece("Completable.error(E\(e.code))", Completable.error(e)) }),
            (1, { Piece("Completable.never()", Completable.never()) }),
            (
                4,
                {
                    let c = self.cold()
                    return Piece("\(c.text).ignoreElements().asCompletable()", c.value.ignoreElements().asCompletable())
                }
            ),
            (
                2,
                {
                    let tag = self.run.name("create")
                    let (log, s) = (self.log, self.scheduler)
                    let event: CompletableEvent = self.rng.chance(70) ? .completed : .error(e)
                    let after = self.rng.pick([0, self.ticks()])
                    return Piece(
                        "Completable.create(\(tag): \(after == 0 ? "at once" : "after \(after)") \(event.text))",
                        Completable.create { observer in
                            log.note(tag, "subscribe")
                            guard after > 0 else {
                                observer(event)
                                return log.returned(tag)
                            }
                            let scheduled = s.scheduleRelative((), dueTime: .seconds(after)) { _ in
                                observer(event)
                                return Disposables.create()
                            }
                            return log.returned(tag, cancelling: scheduled)
                        })
                }
            ),
            (
                1,
                {
                    let inner = self.completableLeaf()
                    return Piece("Completable.deferred { \(inner.text) }", Completable.deferred { inner.value })
                }
            ),
        ])
    }

    func completableOps(_ base: Piece<Completable>, _ depth: Int, atLeast: Int) -> Piece<Completable> {
        var piece = base
        for _ in 0..<rng.int(atLeast...2) { piece = completableOp(piece, depth) }
        return piece
    }

    func completableOp(_ p: Piece<Completable>, _ depth: Int) -> Piece<Completable> {
        let d = ticks()
        let n = rng.int(1...3)
        let s = scheduler
        return oneOf([
            (
                2,
                {
                    let tag = self.run.name("do")
                    let log = self.log
                    return Piece(
                        "\(p.text).do(\(tag))",
                        p.value.do(
                            onError: { log.note(tag, "error(\(Run.text($0)))") },
                            afterError: { log.note(tag, "afterError(\(Run.text($0)))") },
                            onCompleted: { log.note(tag, "completed") },
                            afterCompleted: { log.note(tag, "afterCompleted") },
                            onSubscribe: { log.note(tag, "subscribe") }, onSubscribed: { log.note(tag, "subscribed") },
                            onDispose: { log.note(tag, "dispose") }))
                }
            ),
            (
                1,
                {
                    let other = self.completable(depth - 1)
                    return Piece("\(p.text).catch { _ in \(other.text) }", p.value.catch { _ in other.value })
                }
            ),
            (w(1, 3), { Piece("\(p.text).retry(\(n))", p.value.retry(n)) }),
            (w(1, 3), { Piece("\(p.text).timeout(\(d), s)", p.value.timeout(.seconds(d), scheduler: s)) }),
            (w(1, 3), { Piece("\(p.text).delay(\(d), s)", p.value.delay(.seconds(d), scheduler: s)) }),
            (
                1,
                { Piece("\(p.text).delaySubscription(\(d), s)", p.value.delaySubscription(.seconds(d), scheduler: s)) }
            ),
            (1, { Piece("\(p.text).observe(on: s)", p.value.observe(on: s)) }),
            (1, { Piece("\(p.text).subscribe(on: s)", p.value.subscribe(on: s)) }),
        ])
    }

    // MARK: - Infallible

    func infallible(_ depth: Int) -> Piece<Inf> {
        budget -= 1
        let base: Piece<Inf> =
            depth <= 0 || budget <= 0
            ? infallibleLeaf()
            : oneOf([
                (5, { self.infallibleLeaf() }),
                (3, { self.asInfallible(self.observable(depth - 1), depth) }),
                (
                    w(3, 4),
                    {
                        let arity = self.rng.pick([2, 2, 3, 4, 5, 6, 7, 8])
                        let xs = (0..<arity).map { _ in self.infallible(arity <= 3 ? depth - 1 : 0) }
                        let list = xs.map(\.text).joined(separator: ", ")
                        let values = xs.map(\.value)
                        let tuple = self.rng.chance(40)
                        return self.oneOf([
                            (2, { Piece("Infallible.zip(\(list)) { mix }", zippedInfallibles(values)) }),
                            (
                                2,
                                {
                                    Piece(
                                        "Infallible.combineLatest(\(list))" + (tuple ? ".map(mix)" : " { mix }"),
                                        combinedLatestInfallibles(values, tuple: tuple))
                                }
                            ),
                            (
                                1,
                                {
                                    Piece(
                                        "Infallible.combineLatest([\(list)], mix)",
                                        Inf.combineLatest(values, resultSelector: mix))
                                }
                            ),
                            (1, { Piece("Infallible.merge([\(list)])", Inf.merge(values)) }),
                            (1, { Piece("Infallible.concat([\(list)])", Inf.concat(values)) }),
                            (
                                1,
                                {
                                    // RxSwift's `merge` of a collection other than an array concatenates.
                                    Piece(
                                        "Infallible.merge(ArraySlice([\(list)]))", Inf.merge(values[...]))
                                }
                            ),
                        ])
                    }
                ),
            ])
        return infallibleOps(base, depth, atLeast: 0)
    }

    func infallibleLeaf() -> Piece<Inf> {
        let (a, b) = (value(), value())
        let s = scheduler
        return oneOf([
            (3, { Piece("Infallible.just(\(a))", Inf.just(a)) }),
            (1, { Piece("Infallible.just(\(a), s)", Inf.just(a, scheduler: s)) }),
            (1, { Piece("Infallible.of(\(a), \(b))", Inf.of(a, b)) }),
            (1, { Piece("Infallible.from([\(a), \(b)], s)", Inf.from([a, b], scheduler: s)) }),
            (1, { Piece("Infallible.empty()", Inf.empty()) }),
            (1, { Piece("Infallible.never()", Inf.never()) }),
            (5, { self.asInfallible(self.oneOf([(1, { self.cold() }), (1, { self.hot() })]), 0) }),
            (relays.isEmpty ? 0 : 2, { self.rng.pick(self.relays) }),
            (
                2,
                {
                    let tag = self.run.name("create")
                    let (log, s) = (self.log, self.scheduler)
                    let later = self.ticks()
                    return Piece(
                        "Infallible.create(\(tag): n\(a) at once, n\(b) and completed after \(later))",
                        Inf.create { observer in
                            log.note(tag, "subscribe")
                            observer(.next(a))
                            let scheduled = s.scheduleRelative((), dueTime: .seconds(later)) { _ in
                                observer(.next(b))
                                observer(.completed)
                                return Disposables.create()
                            }
                            return log.returned(tag, cancelling: scheduled)
                        })
                }
            ),
            (
                1,
                {
                    let inner = self.cold()
                    return Piece(
                        "Infallible.deferred { \(inner.text).asInfallible(onErrorJustReturn: -1) }",
                        Inf.deferred { inner.value.asInfallible(onErrorJustReturn: -1) })
                }
            ),
        ])
    }

    /// An observable made infallible, in one of the three ways.
    func asInfallible(_ p: Piece<Obs>, _ depth: Int) -> Piece<Inf> {
        let k = value()
        return oneOf([
            (
                3,
                { Piece("\(p.text).asInfallible(onErrorJustReturn: \(k))", p.value.asInfallible(onErrorJustReturn: k)) }
            ),
            (
                1,
                {
                    let other = self.infallibleLeaf()
                    return Piece(
                        "\(p.text).asInfallible(onErrorFallbackTo: \(other.text))",
                        p.value.asInfallible(onErrorFallbackTo: other.value))
                }
            ),
            (
                1,
                {
                    let other = self.infallibleLeaf()
                    return Piece(
                        "\(p.text).asInfallible(onErrorRecover: { _ in \(other.text) })",
                        p.value.asInfallible(onErrorRecover: { _ in other.value }))
                }
            ),
        ])
    }

    func infallibleOps(_ base: Piece<Inf>, _ depth: Int, atLeast: Int) -> Piece<Inf> {
        var piece = base
        for _ in 0..<rng.int(atLeast...2) { piece = infallibleOp(piece, depth) }
        return piece
    }

    func infallibleOp(_ p: Piece<Inf>, _ depth: Int) -> Piece<Inf> {
        let k = value()
        let m = rng.int(2...3)
        let n = rng.int(0...3)
        let d = ticks()
        let s = scheduler
        let behavior: TakeBehavior = rng.chance(50) ? .inclusive : .exclusive
        let b = behavior == .inclusive ? ".inclusive" : ".exclusive"
        return oneOf([
            (3, { Piece("\(p.text).map { $0 + \(k) }", p.value.map { $0 &+ k }) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).compactMap { $0 % \(m) == 0 ? nil : $0 }",
                        p.value.compactMap { modulo($0, m) == 0 ? nil : $0 })
                }
            ),
            (2, { Piece("\(p.text).filter { $0 % \(m) == 0 }", p.value.filter { modulo($0, m) == 0 }) }),
            (1, { Piece("\(p.text).scan(\(k)) { $0 + $1 }", p.value.scan(k) { $0 &+ $1 }) }),
            (1, { Piece("\(p.text).scan(into: \(k)) { $0 += $1 }", p.value.scan(into: k) { $0 = $0 &+ $1 }) }),
            (1, { Piece("\(p.text).startWith(\(k))", p.value.startWith(k)) }),
            (1, { Piece("\(p.text).distinctUntilChanged()", p.value.distinctUntilChanged()) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).distinctUntilChanged { $0 % \(m) }", p.value.distinctUntilChanged { modulo($0, m) })
                }
            ),
            (1, { Piece("\(p.text).distinctUntilChanged(at: \\.self)", p.value.distinctUntilChanged(at: \.self)) }),
            (w(1, 3), { Piece("\(p.text).debounce(\(d), s)", p.value.debounce(.seconds(d), scheduler: s)) }),
            (
                w(1, 3),
                {
                    Piece(
                        "\(p.text).throttle(\(d), s)",
                        p.value.throttle(.seconds(d), latest: behavior == .inclusive, scheduler: s))
                }
            ),
            (
                3,
                {
                    let inner = self.infallible(depth - 1)
                    let text = "{ v in \(inner.text).map { mix(v, $0) } }"
                    let select: (Int) -> Inf = { v in inner.value.map { mix(v, $0) } }
                    return self.oneOf([
                        (1, { Piece("\(p.text).flatMap \(text)", p.value.flatMap(select)) }),
                        (1, { Piece("\(p.text).flatMapLatest \(text)", p.value.flatMapLatest(select)) }),
                        (1, { Piece("\(p.text).flatMapFirst \(text)", p.value.flatMapFirst(select)) }),
                        (1, { Piece("\(p.text).concatMap \(text)", p.value.concatMap(select)) }),
                    ])
                }
            ),
            (
                1,
                {
                    let other = self.infallible(depth - 1)
                    return Piece("\(p.text).concat(\(other.text))", p.value.concat(other.value))
                }
            ),
            (
                1,
                {
                    let other = self.infallible(depth - 1)
                    return Piece("Infallible.merge(\(p.text), \(other.text))", Inf.merge(p.value, other.value))
                }
            ),
            (
                1,
                {
                    let tag = self.run.name("do")
                    let log = self.log
                    return Piece(
                        "\(p.text).do(\(tag))",
                        p.value.do(
                            onNext: { log.note(tag, "next(\($0))") }, afterNext: { log.note(tag, "afterNext(\($0))") },
                            onCompleted: { log.note(tag, "completed") },
                            afterCompleted: { log.note(tag, "afterCompleted") },
                            onSubscribe: { log.note(tag, "subscribe") }, onSubscribed: { log.note(tag, "subscribed") },
                            onDispose: { log.note(tag, "dispose") }))
                }
            ),
            (w(1, 3), { Piece("\(p.text).share(replay: \(n % 2))", p.value.share(replay: n % 2)) }),
            (2, { Piece("\(p.text).take(\(n))", p.value.take(n)) }),
            (
                1,
                {
                    let other = self.infallible(depth - 1)
                    return Piece("\(p.text).take(until: \(other.text))", p.value.take(until: other.value))
                }
            ),
            (
                1,
                {
                    let other = self.observable(depth - 1)
                    return Piece("\(p.text).take(until: \(other.text))", p.value.take(until: other.value))
                }
            ),
            (
                1,
                {
                    Piece(
                        "\(p.text).take(until: { $0 % \(m) == 0 }, behavior: \(b))",
                        p.value.take(until: { modulo($0, m) == 0 }, behavior: behavior))
                }
            ),
            (
                1,
                {
                    Piece(
                        "\(p.text).take(while: { $0 % \(m) != 0 }, behavior: \(b))",
                        p.value.take(while: { modulo($0, m) != 0 }, behavior: behavior))
                }
            ),
            (w(1, 2), { Piece("\(p.text).take(for: \(d * 5), s)", p.value.take(for: .seconds(d * 5), scheduler: s)) }),
            (1, { Piece("\(p.text).skip(while: { $0 % \(m) != 0 })", p.value.skip(while: { modulo($0, m) != 0 })) }),
            (
                1,
                {
                    let other = self.observable(depth - 1)
                    return Piece("\(p.text).skip(until: \(other.text))", p.value.skip(until: other.value))
                }
            ),
            (
                1,
                {
                    let token = Token(self.run.name("object"), self.log)
                    self.run.held.append(token)
                    return Piece(
                        "\(p.text).withUnretained(\(token.name)).map { $1 }", p.value.withUnretained(token).map { $1 })
                }
            ),
            (
                2,
                {
                    let other = self.infallible(depth - 1)
                    return self.rng.chance(50)
                        ? Piece("\(p.text).withLatestFrom(\(other.text))", p.value.withLatestFrom(other.value))
                        : Piece(
                            "\(p.text).withLatestFrom(\(other.text), mix)",
                            p.value.withLatestFrom(other.value) { mix($0, $1) })
                }
            ),
        ])
    }
}

extension Result where Success == Int, Failure == Error {
    var text: String {
        switch self {
        case .success(let v): "success(\(v))"
        case .failure(let e): "failure(\(Run.text(e)))"
        }
    }
}

extension MaybeEvent where Element == Int {
    var text: String {
        switch self {
        case .success(let v): "success(\(v))"
        case .error(let e): "error(\(Run.text(e)))"
        case .completed: "completed"
        }
    }
}

extension CompletableEvent {
    var text: String {
        switch self {
        case .error(let e): "error(\(Run.text(e)))"
        case .completed: "completed"
        }
    }
}

/// A `Never` as an `Int`: it has no value, so this is never called.
func absurd<T>(_ never: T) -> Int { fatalError("\(never)") }

// MARK: - Each arity, as written in a program

func zippedSingles(_ s: [Single<Int>], tuple: Bool) -> Single<Int> {
    switch (s.count, tuple) {
    case (2, false): Single.zip(s[0], s[1]) { mix($0, $1) }
    case (2, true): Single.zip(s[0], s[1]).map { mix($0.0, $0.1) }
    case (3, false): Single.zip(s[0], s[1], s[2]) { mix($0, $1, $2) }
    case (3, true): Single.zip(s[0], s[1], s[2]).map { mix($0.0, $0.1, $0.2) }
    case (4, false): Single.zip(s[0], s[1], s[2], s[3]) { mix($0, $1, $2, $3) }
    case (4, true): Single.zip(s[0], s[1], s[2], s[3]).map { mix($0.0, $0.1, $0.2, $0.3) }
    case (5, false): Single.zip(s[0], s[1], s[2], s[3], s[4]) { mix($0, $1, $2, $3, $4) }
    case (5, true): Single.zip(s[0], s[1], s[2], s[3], s[4]).map { mix($0.0, $0.1, $0.2, $0.3, $0.4) }
    case (6, false): Single.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { mix($0, $1, $2, $3, $4, $5) }
    case (6, true): Single.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) }
    case (7, false): Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { mix($0, $1, $2, $3, $4, $5, $6) }
    case (7, true):
        Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6) }
    case (8, false):
        Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { mix($0, $1, $2, $3, $4, $5, $6, $7) }
    case (8, true):
        Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map {
            mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7)
        }
    default: fatalError("Single.zip of \(s.count)")
    }
}

func zippedMaybes(_ s: [Maybe<Int>], tuple: Bool) -> Maybe<Int> {
    switch (s.count, tuple) {
    case (2, false): Maybe.zip(s[0], s[1]) { mix($0, $1) }
    case (2, true): Maybe.zip(s[0], s[1]).map { mix($0.0, $0.1) }
    case (3, false): Maybe.zip(s[0], s[1], s[2]) { mix($0, $1, $2) }
    case (3, true): Maybe.zip(s[0], s[1], s[2]).map { mix($0.0, $0.1, $0.2) }
    case (4, false): Maybe.zip(s[0], s[1], s[2], s[3]) { mix($0, $1, $2, $3) }
    case (4, true): Maybe.zip(s[0], s[1], s[2], s[3]).map { mix($0.0, $0.1, $0.2, $0.3) }
    case (8, false):
        Maybe.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { mix($0, $1, $2, $3, $4, $5, $6, $7) }
    case (8, true):
        Maybe.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map {
            mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7)
        }
    default: fatalError("Maybe.zip of \(s.count)")
    }
}

func zippedInfallibles(_ s: [Inf]) -> Inf {
    switch s.count {
    case 2: Infallible.zip(s[0], s[1]) { mix($0, $1) }
    case 3: Infallible.zip(s[0], s[1], s[2]) { mix($0, $1, $2) }
    case 4: Infallible.zip(s[0], s[1], s[2], s[3]) { mix($0, $1, $2, $3) }
    case 5: Infallible.zip(s[0], s[1], s[2], s[3], s[4]) { mix($0, $1, $2, $3, $4) }
    case 6: Infallible.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { mix($0, $1, $2, $3, $4, $5) }
    case 7: Infallible.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { mix($0, $1, $2, $3, $4, $5, $6) }
    case 8: Infallible.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { mix($0, $1, $2, $3, $4, $5, $6, $7) }
    default: fatalError("Infallible.zip of \(s.count)")
    }
}

func combinedLatestInfallibles(_ s: [Inf], tuple: Bool) -> Inf {
    switch (s.count, tuple) {
    case (2, false): Infallible.combineLatest(s[0], s[1]) { mix($0, $1) }
    case (2, true): Infallible.combineLatest(s[0], s[1]).map { mix($0.0, $0.1) }
    case (3, false): Infallible.combineLatest(s[0], s[1], s[2]) { mix($0, $1, $2) }
    case (3, true): Infallible.combineLatest(s[0], s[1], s[2]).map { mix($0.0, $0.1, $0.2) }
    case (4, false): Infallible.combineLatest(s[0], s[1], s[2], s[3]) { mix($0, $1, $2, $3) }
    case (4, true): Infallible.combineLatest(s[0], s[1], s[2], s[3]).map { mix($0.0, $0.1, $0.2, $0.3) }
    case (5, false): Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4]) { mix($0, $1, $2, $3, $4) }
    case (5, true): Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4]).map { mix($0.0, $0.1, $0.2, $0.3, $0.4) }
    case (6, false): Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { mix($0, $1, $2, $3, $4, $5) }
    case (6, true):
        Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map { mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) }
    case (7, false):
        Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { mix($0, $1, $2, $3, $4, $5, $6) }
    case (7, true):
        Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map {
            mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6)
        }
    case (8, false):
        Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { mix($0, $1, $2, $3, $4, $5, $6, $7) }
    case (8, true):
        Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map {
            mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7)
        }
    default: fatalError("Infallible.combineLatest of \(s.count)")
    }
}

func completableZip(_ s: [Completable]) -> Completable {
    s.count == 2 ? Completable.zip(s[0], s[1]) : Completable.zip(s[0], s[1], s[2])
}

func completableConcat(_ s: [Completable]) -> Completable {
    s.count == 2 ? Completable.concat(s[0], s[1]) : Completable.concat(s[0], s[1], s[2])
}
