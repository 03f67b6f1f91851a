import RxCore
import RxTesting
import Testing

private struct Failure: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { "Failure(\(name))" }
}

/// What a trait subscription reported, in order.
private final class Log {
    var entries: [String] = []
}

@Suite(.serialized, .noLeaks)
struct SingleTests {
    @Test func createDeliversTheFirstOutcomeOnly() {
        let log = Log()
        let single = Single<Int>.create { observer in
            observer(.success(1))
            observer(.success(2))
            observer(.failure(Failure()))
            return Disposables.create { log.entries.append("handler disposed") }
        }
        _ = single.subscribe(
            onSuccess: { log.entries.append("success \($0)") }, onFailure: { log.entries.append("failure \($0)") },
            onDisposed: { log.entries.append("disposed") })
        #expect(log.entries == ["success 1", "disposed", "handler disposed"])
    }

    @Test func failureGoesToOnFailure() {
        let log = Log()
        _ = Single<Int>.error(Failure()).subscribe(
            onSuccess: { log.entries.append("success \($0)") }, onFailure: { log.entries.append("failure \($0)") })
        #expect(log.entries == ["failure Failure(boom)"])
    }

    @available(*, deprecated)
    @Test func deprecatedOnErrorSpellingStillWorks() {
        let log = Log()
        _ = Single<Int>.error(Failure()).subscribe(onSuccess: { _ in }, onError: { log.entries.append("error \($0)") })
        #expect(log.entries == ["error Failure(boom)"])
    }

    @Test func theEventClosureSeesAResult() {
        var results: [SingleEvent<Int>] = []
        _ = Single.just(3).subscribe { results.append($0) }
        #expect(results.count == 1)
        #expect((try? results.first?.get()) == 3)
    }

    @Test func asSingleChecksTheCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let one = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        // The element is held back until completion proves it was the only one.
        #expect(scheduler.start { one.asSingle() }.events == [.next(220, 1), .completed(220)])
        let s3 = TestScheduler(initialClock: 0)
        let none3 = s3.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        #expect(s3.start { none3.asSingle() }.events == [.error(220, RxError.noElements)])
        let s4 = TestScheduler(initialClock: 0)
        let two4 = s4.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
        #expect(s4.start { two4.asSingle() }.events == [.error(215, RxError.moreThanOneElement)])
        #expect(two4.subscriptions == [Subscription(200, 215)])
    }

    @Test func mapAndFlatMapChainSingles() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let ys = scheduler.createColdObservable([.next(5, "x"), .completed(5)])
        let res = scheduler.start {
            xs.asSingle().map { $0 * 10 }.flatMap { n in ys.asSingle().map { "\($0)\(n)" } }
        }
        #expect(res.events == [.next(215, "x20"), .completed(215)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(ys.subscriptions == [Subscription(210, 215)])
    }

    @Test func filterMakesAMaybe() {
        var outcomes: [String] = []
        _ = Single.just(1).filter { $0 > 5 }.subscribe(
            onSuccess: { outcomes.append("success \($0)") }, onCompleted: { outcomes.append("empty") })
        _ = Single.just(9).filter { $0 > 5 }.subscribe(
            onSuccess: { outcomes.append("success \($0)") }, onCompleted: { outcomes.append("empty") })
        #expect(outcomes == ["empty", "success 9"])
    }

    @Test func catchRetryAndCatchAndReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, Failure())] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asSingle().retry(2).catch { _ in .just(7) } }
        #expect(res.events == [.next(220, 7), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 210), Subscription(210, 220)])
        var value: Int?
        _ = Single<Int>.error(Failure()).catchAndReturn(5).subscribe(onSuccess: { value = $0 })
        #expect(value == 5)
    }

    @Test func timeoutAndDelayOnVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = Single<Int>.never()
        let res = scheduler.start { never.timeout(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.error(230, RxError.timeout)])
        let s2 = TestScheduler(initialClock: 0)
        let res2 = s2.start { Single.just(1).delay(.seconds(30), scheduler: s2) }
        // The completion arrived with the element, so it leaves one scheduling step (a tick)
        // after it, as RxSwift records it.
        #expect(res2.events == [.next(230, 1), .completed(231)])
    }

    @Test func doSeesTheSuccess() {
        var log: [String] = []
        _ = Single.just(4).do(
            onSuccess: { log.append("on \($0)") }, afterSuccess: { log.append("after \($0)") },
            onSubscribe: { log.append("subscribe") }
        ).subscribe(onSuccess: { log.append("got \($0)") })
        #expect(log == ["subscribe", "on 4", "got 4", "after 4"])
    }

    @Test func conversions() {
        var log: [String] = []
        _ = Single.just(1).asMaybe().subscribe(onSuccess: { log.append("maybe \($0)") })
        _ = Single.just(1).asCompletable().subscribe(onCompleted: { log.append("completable") })
        _ = Single.just(1).asObservable().subscribe(
            onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
        #expect(log == ["maybe 1", "completable", "next 1", "completed"])
    }
}

@Suite(.serialized, .noLeaks)
struct MaybeTests {
    @Test func createSendsSuccessEmptyOrError() {
        var log: [String] = []
        let record: (String) -> Void = { log.append($0) }
        _ = Maybe<Int>.create { observer in
            observer(.success(1)); observer(.completed); return Disposables.create()
        }
        .subscribe(
            onSuccess: { record("success \($0)") }, onError: { record("error \($0)") },
            onCompleted: { record("completed") })
        _ = Maybe<Int>.create { observer in
            observer(.completed); return Disposables.create()
        }
        .subscribe(
            onSuccess: { record("success \($0)") }, onError: { record("error \($0)") },
            onCompleted: { record("completed") })
        _ = Maybe<Int>.create { observer in
            observer(.error(Failure())); return Disposables.create()
        }
        .subscribe(
            onSuccess: { record("success \($0)") }, onError: { record("error \($0)") },
            onCompleted: { record("completed") })
        #expect(log == ["success 1", "completed", "error Failure(boom)"])
    }

    @Test func asMaybeAllowsEmptyButNotTwo() {
        let scheduler = TestScheduler(initialClock: 0)
        let none = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        #expect(scheduler.start { none.asMaybe() }.events == [.completed(220)])
        let s2 = TestScheduler(initialClock: 0)
        let two = s2.createHotObservable([.next(210, 1), .next(215, 2)])
        #expect(s2.start { two.asMaybe() }.events == [.error(215, RxError.moreThanOneElement)])
    }

    /// The traits' `flatMap` forms are `Observable.flatMap`, as in RxSwift: a source that
    /// succeeds while being subscribed still hands its element to an inner that ends later.
    @Test func flatMapOfASynchronousSuccessWaitsForTheInner() {
        /// Runs `make` against an inner that succeeds with 5 at 10 ticks; its events and the
        /// inner's subscriptions.
        func run<Element>(
            _ make: @escaping (TestableObservable<Int>) -> Observable<Element>
        ) -> ([Recorded<Event<Element>>], [Subscription]) {
            let scheduler = TestScheduler(initialClock: 0)
            let ys = scheduler.createColdObservable([.next(10, 5), .completed(10)])
            return (scheduler.start { make(ys) }.events, ys.subscriptions)
        }
        let single = run { ys in Single.just(1).flatMap { x in ys.asSingle().map { $0 + x } }.asObservable() }
        #expect(single.0 == [.next(210, 6), .completed(210)])
        #expect(single.1 == [Subscription(200, 210)])
        let maybe = run { ys in Single.just(2).flatMapMaybe { x in ys.asMaybe().map { $0 * x } }.asObservable() }
        #expect(maybe.0 == [.next(210, 10), .completed(210)])
        let ofMaybe = run { ys in Maybe.just(2).flatMap { x in ys.asMaybe().map { $0 - x } }.asObservable() }
        #expect(ofMaybe.0 == [.next(210, 3), .completed(210)])
        let completable = run { ys in
            Single.just(1).flatMapCompletable { _ in ys.asSingle().asCompletable() }.asObservable()
        }
        #expect(completable.0 == [.completed(210)])
        #expect(completable.1 == [Subscription(200, 210)])
    }

    @Test func flatMapOfEmptyStaysEmptyAndIfEmptyGivesADefault() {
        var log: [String] = []
        _ = Maybe<Int>.empty().flatMap { Maybe.just($0 + 1) }.subscribe(
            onSuccess: { log.append("s \($0)") }, onCompleted: { log.append("empty") })
        _ = Maybe.just(1).flatMap { Maybe.just($0 + 1) }.subscribe(
            onSuccess: { log.append("s \($0)") }, onCompleted: { log.append("empty") })
        _ = Maybe<Int>.empty().ifEmpty(default: 9).subscribe(onSuccess: { log.append("d \($0)") })
        #expect(log == ["empty", "s 2", "d 9"])
    }
}

@Suite(.serialized, .noLeaks)
struct CompletableTests {
    @Test func createAndSubscribe() {
        var log: [String] = []
        _ = Completable.create { observer in
            observer(.completed); observer(.error(Failure())); return Disposables.create()
        }
        .subscribe(
            onCompleted: { log.append("completed") }, onError: { log.append("error \($0)") },
            onDisposed: { log.append("disposed") })
        _ = Completable.error(Failure()).subscribe(
            onCompleted: { log.append("completed") }, onError: { log.append("error \($0)") })
        #expect(log == ["completed", "disposed", "error Failure(boom)"])
    }

    @Test func andThenRunsTheSecondAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(5, 1), .completed(10)])
        let second = scheduler.createColdObservable([.next(5, "done"), .completed(5)])
        let res = scheduler.start { first.ignoreElements().asCompletable().andThen(second.asSingle()) }
        #expect(res.events == [.next(215, "done"), .completed(215)])
        #expect(first.subscriptions == [Subscription(200, 210)])
        #expect(second.subscriptions == [Subscription(210, 215)])
    }

    @Test func andThenSkipsTheSecondAfterAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.error(10, Failure())] as [Recorded<Event<Int>>])
        let second = scheduler.createColdObservable([.next(5, 1), .completed(5)])
        let res = scheduler.start { first.ignoreElements().asCompletable().andThen(second.asObservable()) }
        #expect(res.events == [.error(210, Failure())])
        #expect(second.subscriptions.isEmpty)
    }

    @Test func andThenChainsCompletablesAndMaybes() {
        var log: [String] = []
        _ = Completable.empty().andThen(Completable.empty()).andThen(Maybe.just(3))
            .subscribe(onSuccess: { log.append("s \($0)") }, onCompleted: { log.append("c") })
        #expect(log == ["s 3"])
    }

    @Test func disposingDuringTheFirstNeverStartsTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.completed(100)] as [Recorded<Event<Int>>])
        let second = scheduler.createColdObservable([.next(5, 1)])
        let res = scheduler.start(disposed: 250) {
            first.ignoreElements().asCompletable().andThen(second.asObservable())
        }
        #expect(res.events.isEmpty)
        #expect(first.subscriptions == [Subscription(200, 250)])
        #expect(second.subscriptions.isEmpty)
    }
}
