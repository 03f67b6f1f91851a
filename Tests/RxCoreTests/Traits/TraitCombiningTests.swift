import RxCore
import RxTesting
import Testing

/// A cold `Completable` that completes after `ticks`.
private func completes(after ticks: Int, on scheduler: TestScheduler) -> Completable {
    scheduler.createColdObservable([.completed(ticks)] as [Recorded<Event<Never>>]).asCompletable()
}

/// `Single.zip`, `Maybe.zip`, `Completable.concat` and `Completable.zip`.
@Suite(.serialized, .noLeaks)
struct TraitCombiningTests {
    @Test func singleZipWaitsForEverySuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(10)]).asSingle()
        let b = scheduler.createColdObservable([.next(30, 2), .completed(30)]).asSingle()
        #expect(scheduler.start { Single.zip(a, b) { $0 + $1 } }.events == [.next(230, 3), .completed(230)])
        #expect(
            recorded { Single.zip(Single.just(1, scheduler: $0), Single.just("a")).map { "\($0)\($1)" } }
                == [.next(201, "1a"), .completed(202)])
    }

    @Test func singleZipFailsAtTheFirstFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let failing = scheduler.createColdObservable([.error(20, opTestError, Int.self)])
        let res = scheduler.start { Single.zip(slow.asSingle(), failing.asSingle()) { $0 + $1 } }
        #expect(res.events == [.error(220, opTestError)])
        #expect(slow.subscriptions == [Subscription(200, 220)])
    }

    @Test func singleZipOfEveryArity() {
        func s(_ value: Int) -> Single<Int> { .just(value) }
        var results: [[Int]] = []
        let record: (SingleEvent<[Int]>) -> Void = { event in
            if case .success(let value) = event { results.append(value) }
        }
        _ = Single.zip(s(1), s(2)) { [$0, $1] }.subscribe(record)
        _ = Single.zip(s(1), s(2), s(3)) { [$0, $1, $2] }.subscribe(record)
        _ = Single.zip(s(1), s(2), s(3), s(4)) { [$0, $1, $2, $3] }.subscribe(record)
        _ = Single.zip(s(1), s(2), s(3), s(4), s(5)) { [$0, $1, $2, $3, $4] }.subscribe(record)
        _ = Single.zip(s(1), s(2), s(3), s(4), s(5), s(6)) { [$0, $1, $2, $3, $4, $5] }.subscribe(record)
        _ = Single.zip(s(1), s(2), s(3), s(4), s(5), s(6), s(7)) { [$0, $1, $2, $3, $4, $5, $6] }.subscribe(record)
        _ = Single.zip(s(1), s(2), s(3), s(4), s(5), s(6), s(7), s(8)) { [$0, $1, $2, $3, $4, $5, $6, $7] }
            .subscribe(record)
        #expect(results == (2...8).map { Array(1...$0) })

        var tuples: [String] = []
        _ = Single.zip(s(1), Single.just("a")).subscribe(onSuccess: { tuples.append("\($0)\($1)") })
        _ = Single.zip(s(1), s(2), s(3), s(4), s(5), s(6), s(7), s(8))
            .subscribe(onSuccess: { tuples.append("\($0)\($7)") })
        #expect(tuples == ["1a", "18"])
    }

    @Test func singleZipOfACollection() {
        var results: [String] = []
        _ = Single.zip([Single.just(1), Single.just(2)]).subscribe(onSuccess: { results.append("\($0)") })
        _ = Single.zip([Single.just(1), Single.just(2)]) { $0.reduce(0, +) }.subscribe(onSuccess: {
            results.append("\($0)")
        })
        _ = Single.zip([Single<Int>]()).subscribe(onSuccess: { results.append("\($0)") })
        _ = Single.zip([Single<Int>]()) { "\($0.count) of none" }.subscribe(onSuccess: { results.append($0) })
        #expect(results == ["[1, 2]", "3", "[]", "0 of none"])
    }

    @Test func maybeZipIsEmptyWhenASourceIsEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let value = scheduler.createColdObservable([.next(30, 1), .completed(30)]).asMaybe()
        let empty = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Maybe.zip(value, empty.asMaybe()) { $0 + $1 } }
        // As in RxSwift, the empty side's completion alone does not end it: the other side's
        // element, which can never be paired, does.
        #expect(res.events == [.completed(230)])
        #expect(empty.subscriptions == [Subscription(200, 210)])

        let both = recorded { scheduler in
            Maybe.zip(
                scheduler.createColdObservable([.next(10, 1), .completed(10)]).asMaybe(),
                scheduler.createColdObservable([.next(20, 2), .completed(20)]).asMaybe()
            ).map { $0 * 10 + $1 }
        }
        #expect(both == [.next(220, 12), .completed(220)])
        #expect(recorded { _ in Maybe.zip([Maybe.just(1), Maybe.just(2)]) } == [.next(200, [1, 2]), .completed(200)])
    }

    @Test func completableConcatRunsOneAfterAnother() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Never>>])
        let second = scheduler.createColdObservable([.completed(20)] as [Recorded<Event<Never>>])
        let res = scheduler.start { Completable.concat(first.asCompletable(), second.asCompletable()) }
        #expect(res.events == [.completed(230)])
        #expect(first.subscriptions == [Subscription(200, 210)])
        #expect(second.subscriptions == [Subscription(210, 230)])
        #expect(
            recorded { completes(after: 10, on: $0).concat(completes(after: 20, on: $0)) } == [.completed(230)])
        #expect(
            recorded { Completable.concat(AnySequence([completes(after: 10, on: $0), completes(after: 20, on: $0)])) }
                == [.completed(230)])
    }

    @Test func completableConcatStopsAtAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.error(10, opTestError)] as [Recorded<Event<Never>>])
        let never = scheduler.createColdObservable([.completed(20)] as [Recorded<Event<Never>>])
        let res = scheduler.start { Completable.concat([failing.asCompletable(), never.asCompletable()]) }
        #expect(res.events == [.error(210, opTestError)])
        #expect(never.subscriptions == [])
    }

    @Test func completableZipWaitsForAllAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Never>>])
        let second = scheduler.createColdObservable([.completed(20)] as [Recorded<Event<Never>>])
        let res = scheduler.start { Completable.zip(first.asCompletable(), second.asCompletable()) }
        #expect(res.events == [.completed(220)])
        #expect(first.subscriptions == [Subscription(200, 210)])
        #expect(second.subscriptions == [Subscription(200, 220)])
        #expect(recorded { Completable.zip([completes(after: 10, on: $0)]) } == [.completed(210)])
        #expect(recorded { _ in Completable.zip(Set<Int>().map { _ in Completable.empty() }) } == [.completed(200)])

        let failing = TestScheduler(initialClock: 0)
        let error = failing.createColdObservable([.error(10, opTestError)] as [Recorded<Event<Never>>])
        let slow = failing.createColdObservable([.completed(50)] as [Recorded<Event<Never>>])
        #expect(
            failing.start { Completable.zip(slow.asCompletable(), error.asCompletable()) }.events == [
                .error(210, opTestError)
            ])
        #expect(slow.subscriptions == [Subscription(200, 210)])
    }
}
