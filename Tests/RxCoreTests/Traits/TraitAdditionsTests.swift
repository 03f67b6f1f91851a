import RxCore
import RxTesting
import Testing

private final class Owner {}

/// The trait operators RxSwift 6 has beside `zip`: `compactMap`, `timer`, `Maybe.just` on a
/// scheduler, `subscribe(with:)`, and `asCompletable()` of an `Observable<Never>`.
@Suite(.serialized, .noLeaks)
struct TraitAdditionsTests {
    @Test func compactMapMakesAMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.start { Single.just("4").compactMap { Int($0) } }.events == [.next(200, 4), .completed(200)])
        let empty = TestScheduler(initialClock: 0)
        #expect(empty.start { Single.just("x").compactMap { Int($0) } }.events == [.completed(200)])
        let maybe = TestScheduler(initialClock: 0)
        #expect(maybe.start { Maybe.just("5").compactMap { Int($0) } }.events == [.next(200, 5), .completed(200)])
        let failing = TestScheduler(initialClock: 0)
        #expect(
            failing.start { Maybe.just(1).compactMap { _ -> Int? in throw opTestError } }.events
                == [.error(200, opTestError)])
    }

    @Test func timersFireOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(
            scheduler.start { Single<Int>.timer(.seconds(30), scheduler: scheduler) }.events
                == [.next(230, 0), .completed(230)])
        let maybe = TestScheduler(initialClock: 0)
        #expect(
            maybe.start { Maybe<Int64>.timer(.seconds(5), scheduler: maybe) }.events
                == [.next(205, 0), .completed(205)])
    }

    @Test func maybeJustOnAScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(
            scheduler.start { Maybe.just(1, scheduler: scheduler) }.events == [.next(201, 1), .completed(202)])
    }

    @Test func subscribeWithAnObject() {
        let owner = Owner()
        var log: [String] = []
        _ = Single.just(1).subscribe(
            with: owner, onSuccess: { object, value in log.append("success \(value) \(object === owner)") },
            onDisposed: { _ in log.append("disposed") })
        _ = Single<Int>.error(opTestError).subscribe(
            with: owner, onFailure: { _, error in log.append("failure \(error)") })
        _ = Maybe<Int>.empty().subscribe(with: owner, onCompleted: { _ in log.append("maybe completed") })
        _ = Maybe.just(2).subscribe(with: owner, onSuccess: { _, value in log.append("maybe \(value)") })
        _ = Maybe<Int>.error(opTestError).subscribe(with: owner, onError: { _, _ in log.append("maybe error") })
        _ = Completable.empty().subscribe(with: owner, onCompleted: { _ in log.append("completable completed") })
        _ = Completable.error(opTestError).subscribe(with: owner, onError: { _, _ in log.append("completable error") })
        #expect(
            log == [
                "success 1 true", "disposed", "failure OpTestError(op)", "maybe completed", "maybe 2", "maybe error",
                "completable completed", "completable error",
            ])
    }

    @Test func subscribeWithAnObjectThatIsGoneCallsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        var owner: Owner? = Owner()
        var calls = 0
        let single = Single<Int>.timer(.seconds(10), scheduler: scheduler)
        let subscription = single.subscribe(
            with: owner!, onSuccess: { _, _ in calls += 1 }, onDisposed: { _ in calls += 1 })
        owner = nil
        scheduler.start()
        #expect(calls == 0)
        subscription.dispose()
    }

    @Test func onlyObservablesOfNeverBecomeCompletables() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        // `Observable<Never>`'s `asCompletable()` and `Completable`'s `create` infer their types.
        let completable = xs.ignoreElements().asCompletable()
        #expect(scheduler.start { completable }.events == [.completed(250)])
        var done = false
        _ = Completable.create { observer in
            observer(.completed)
            return Disposables.create()
        }.subscribe(onCompleted: { done = true })
        #expect(done)
    }
}
