import Foundation
import RxCocoa
import RxTesting
import Testing

/// Each operator on a `Driver` or `Signal` built from a failing hot source (1, 2, 2, 3, error at
/// 250): two subscribers see the same events, delivered on the sharing scheduler (one tick
/// after the source), and the source is subscribed once, until it fails.
@Suite(.serialized, .noLeaks)
struct SharedSequenceOperatorTests {
    /// Runs `operator` on `failingSource(…).asDriver(onErrorJustReturn: -1)`; checks the two
    /// subscribers agree and the source was subscribed once, from 200 to 250.
    private func driverEvents<Result>(
        _ apply: (Driver<Int>) -> SharedSequence<DriverSharingStrategy, Result>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Recorded<Event<Result>>] where Result: Equatable {
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            return (apply(xs.asDriver(onErrorJustReturn: -1)), [xs])
        }
        #expect(run.first == run.second, "both subscribers see the same events", sourceLocation: sourceLocation)
        #expect(run.sources == [[Subscription(200, 250)]], sourceLocation: sourceLocation)
        return run.first
    }

    // MARK: - Transforming and filtering

    @Test func map() {
        #expect(
            driverEvents { $0.map { $0 * 10 } } == [
                .next(211, 10), .next(221, 20), .next(231, 20), .next(241, 30), .next(251, -10), .completed(251),
            ])
    }

    @Test func compactMap() {
        #expect(
            driverEvents { $0.compactMap { $0 == 2 ? nil : $0 } } == [
                .next(211, 1), .next(241, 3), .next(251, -1), .completed(251),
            ])
    }

    @Test func filter() {
        #expect(
            driverEvents { $0.filter { $0 != 2 } } == [.next(211, 1), .next(241, 3), .next(251, -1), .completed(251)])
    }

    @Test func scan() {
        #expect(
            driverEvents { $0.scan(0, accumulator: +) } == [
                .next(211, 1), .next(221, 3), .next(231, 5), .next(241, 8), .next(251, 7), .completed(251),
            ])
    }

    @Test func skip() {
        #expect(driverEvents { $0.skip(2) } == [.next(231, 2), .next(241, 3), .next(251, -1), .completed(251)])
    }

    /// The prepended element comes at subscription, not through the scheduler.
    @Test func startWith() {
        #expect(
            driverEvents { $0.startWith(0) } == [
                .next(200, 0), .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(251, -1),
                .completed(251),
            ])
    }

    // MARK: - distinctUntilChanged, every form

    @Test func distinctUntilChanged() {
        let expected: [Recorded<Event<Int>>] = [
            .next(211, 1), .next(221, 2), .next(241, 3), .next(251, -1), .completed(251),
        ]
        #expect(driverEvents { $0.distinctUntilChanged() } == expected)
        #expect(driverEvents { $0.distinctUntilChanged { $0 } } == expected)
        #expect(driverEvents { $0.distinctUntilChanged { $0 == $1 } } == expected)
        #expect(driverEvents { $0.distinctUntilChanged({ $0 }, comparer: { $0 == $1 }) } == expected)
    }

    @Test func distinctUntilChangedByKeyOrComparer() {
        #expect(
            driverEvents { $0.distinctUntilChanged { $0 / 2 } } == [
                .next(211, 1), .next(221, 2), .next(251, -1), .completed(251),
            ])
        #expect(
            driverEvents { $0.distinctUntilChanged { $0 + 1 == $1 } } == [
                .next(211, 1), .next(241, 3), .next(251, -1), .completed(251),
            ])
        #expect(
            driverEvents { $0.distinctUntilChanged({ $0 % 2 }, comparer: ==) } == [
                .next(211, 1), .next(221, 2), .next(241, 3), .next(251, -1), .completed(251),
            ])
    }

    // MARK: - Time, on the sharing scheduler

    @Test func delay() {
        #expect(
            driverEvents { $0.delay(.seconds(5)) } == [
                .next(216, 1), .next(226, 2), .next(236, 2), .next(246, 3), .next(256, -1), .completed(257),
            ])
    }

    @Test func debounce() {
        #expect(driverEvents { $0.debounce(.seconds(15)) } == [.next(251, -1), .completed(251)])
    }

    @Test func throttle() {
        #expect(
            driverEvents { $0.throttle(.seconds(15)) } == [
                .next(211, 1), .next(226, 2), .next(241, 2), .next(256, -1), .completed(256),
            ])
        #expect(
            driverEvents { $0.throttle(.seconds(15), latest: false) } == [
                .next(211, 1), .next(231, 2), .next(251, -1), .completed(251),
            ])
    }

    // MARK: - Side effects

    @Test func debugPassesEverythingOn() {
        #expect(
            driverEvents { $0.debug("driver", trimOutput: true) } == [
                .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(251, -1), .completed(251),
            ])
    }

    /// `do` is shared too: two subscribers, one `onSubscribe`, each element seen once.
    @Test func doEveryForm() {
        var log: [String] = []
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let xs = failingSource(scheduler)
        var subscriptions: [Disposable] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: -1).do(
                onNext: { log.append("next \($0) at \(scheduler.clock)") }, afterNext: { log.append("after \($0)") },
                onCompleted: { log.append("completed at \(scheduler.clock)") },
                afterCompleted: { log.append("after completed") },
                onSubscribe: { log.append("subscribe at \(scheduler.clock)") },
                onSubscribed: { log.append("subscribed") },
                onDispose: { log.append("dispose at \(scheduler.clock)") })
            scheduler.scheduleAt(200) {
                subscriptions.append(driver.drive(first))
                subscriptions.append(driver.drive(second))
            }
            scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
        }
        #expect(
            first.events == [
                .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(251, -1), .completed(251),
            ])
        #expect(second.events == first.events)
        #expect(
            log.prefix(13) == [
                "subscribe at 200", "subscribed", "next 1 at 211", "after 1", "next 2 at 221", "after 2",
                "next 2 at 231", "after 2", "next 3 at 241", "after 3", "next -1 at 251", "after -1",
                "completed at 251",
            ])
        // `afterCompleted` before `onDispose`, as RxCocoa: `share(replay: 1)` while connected
        // leaves the finished source to end its own subscription (RxCocoa's dedicated operator).
        #expect(Array(log.suffix(2)) == ["after completed", "dispose at 251"])
        #expect(log.count == 15)
    }

    @Test func doSingleForms() {
        var nexts: [Int] = []
        var completions = 0
        #expect(
            driverEvents { $0.do(onNext: { nexts.append($0) }).do(onCompleted: { completions += 1 }) } == [
                .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(251, -1), .completed(251),
            ])
        #expect(nexts == [1, 2, 2, 3, -1])
        #expect(completions == 1)
    }

    // MARK: - asInfallible

    /// Out to an `Infallible` and back to a Driver: the second `asDriver` hops to the scheduler
    /// again, one more tick.
    @Test func asInfallible() {
        #expect(
            driverEvents { $0.asInfallible().asDriver() } == [
                .next(212, 1), .next(222, 2), .next(232, 2), .next(242, 3), .next(252, -1), .completed(253),
            ])
    }

    // MARK: - Flattening

    /// Each element `v` of the source maps to an inner sequence: `v*100` after 3 ticks,
    /// `v*100+1` after 12, completed after 14 (on a failure the outer Driver returns 9).
    private func flattened<Sharing>(
        _ apply: (Driver<Int>, @escaping (Int) -> Observable<Int>) -> SharedSequence<Sharing, Int>
    ) -> [Recorded<Event<Int>>] {
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            let inner = { (value: Int) in
                scheduler.createColdObservable([
                    .next(3, value * 100), .next(12, value * 100 + 1), .completed(14),
                ]).asObservable()
            }
            return (apply(xs.asDriver(onErrorJustReturn: 9), inner), [xs])
        }
        #expect(run.first == run.second)
        #expect(run.sources == [[Subscription(200, 250)]])
        return run.first
    }

    @Test func flatMapMergesEveryInner() {
        let events = flattened { driver, inner in
            driver.flatMap { inner($0).asSignal(onErrorJustReturn: -1) }
        }
        #expect(
            events == [
                .next(215, 100), .next(224, 101), .next(225, 200), .next(234, 201), .next(235, 200), .next(244, 201),
                .next(245, 300), .next(254, 301), .next(255, 900), .next(264, 901), .completed(266),
            ])
    }

    @Test func mergeOfInnerSequences() {
        let merged = flattened { driver, inner in driver.map { inner($0).asSignal(onErrorJustReturn: -1) }.merge() }
        let flatMapped = flattened { driver, inner in driver.flatMap { inner($0).asSignal(onErrorJustReturn: -1) } }
        #expect(merged == flatMapped)
    }

    @Test func flatMapLatestFollowsTheLatestInner() {
        let events = flattened { driver, inner in
            driver.flatMapLatest { inner($0).asDriver(onErrorJustReturn: -1) }
        }
        #expect(
            events == [
                .next(215, 100), .next(225, 200), .next(235, 200), .next(245, 300), .next(255, 900), .next(264, 901),
                .completed(266),
            ])
        let switched = flattened { driver, inner in
            driver.map { inner($0).asSignal(onErrorJustReturn: -1) }.switchLatest()
        }
        #expect(switched == events)
    }

    @Test func flatMapFirstIgnoresElementsWhileAnInnerRuns() {
        let events = flattened { driver, inner in
            driver.flatMapFirst { inner($0).asDriver(onErrorJustReturn: -1) }
        }
        #expect(
            events == [
                .next(215, 100), .next(224, 101), .next(235, 200), .next(244, 201), .next(255, 900), .next(264, 901),
                .completed(266),
            ])
    }

    @Test func mergeMaxConcurrentOneQueuesTheInners() {
        let events = flattened { driver, inner in
            driver.map { inner($0).asSignal(onErrorJustReturn: -1) }.merge(maxConcurrent: 1)
        }
        #expect(
            events == [
                .next(215, 100), .next(224, 101), .next(230, 200), .next(239, 201), .next(245, 200), .next(254, 201),
                .next(260, 300), .next(269, 301), .next(275, 900), .next(284, 901), .completed(286),
            ])
    }

    // MARK: - merge and concat of several

    private func two<Result>(
        _ apply: (Driver<Int>, Driver<Int>) -> Driver<Result>, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (events: [Recorded<Event<Result>>], subscriptions: [[Subscription]]) where Result: Equatable {
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            let ys = completingSource(scheduler)
            return (apply(xs.asDriver(onErrorJustReturn: -1), ys.asDriver(onErrorJustReturn: -2)), [xs, ys])
        }
        #expect(run.first == run.second, sourceLocation: sourceLocation)
        return (run.first, run.sources)
    }

    @Test func mergeEveryForm() {
        let expected: [Recorded<Event<Int>>] = [
            .next(206, 10), .next(211, 1), .next(216, 20), .next(221, 2), .next(231, 2), .next(236, 30),
            .next(241, 3), .next(251, -1), .completed(251),
        ]
        let subscriptions = [[Subscription(200, 250)], [Subscription(200, 245)]]
        let variadic = two { Driver.merge($0, $1) }
        let array = two { Driver.merge([$0, $1]) }
        let collection = two { Driver.merge(AnyCollection([$0, $1])) }
        for run in [variadic, array, collection] {
            #expect(run.events == expected)
            #expect(run.subscriptions == subscriptions)
        }
    }

    /// The second source is subscribed when the first completes (at 246, a tick after its
    /// source): the failing one's elements before that are gone (hot).
    @Test func concatEveryForm() {
        let expected: [Recorded<Event<Int>>] = [
            .next(206, 10), .next(216, 20), .next(236, 30), .next(251, -1), .completed(251),
        ]
        let sequence = two { Driver.concat(AnySequence([$1, $0])) }
        let collection = two { Driver.concat([$1, $0]) }
        for run in [sequence, collection] {
            #expect(run.events == expected)
            #expect(run.subscriptions == [[Subscription(246, 250)], [Subscription(200, 245)]])
        }
    }

    // MARK: - withLatestFrom

    @Test func withLatestFrom() {
        let combined = two { $0.withLatestFrom($1) { $0 * 1000 + $1 } }
        #expect(
            combined.events == [
                .next(211, 1010), .next(221, 2020), .next(231, 2020), .next(241, 3030), .next(251, -970),
                .completed(251),
            ])
        let latest = two { $0.withLatestFrom($1) }
        #expect(
            latest.events == [
                .next(211, 10), .next(221, 20), .next(231, 20), .next(241, 30), .next(251, 30), .completed(251),
            ])
        #expect(latest.subscriptions == [[Subscription(200, 250)], [Subscription(200, 245)]])
    }

    /// A Signal's taps sampling a Driver's state, as a signup form does.
    @Test func signalWithLatestFromADriver() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(String.self)
        let taps = scheduler.createHotObservable([.next(215, ()), .next(240, ())])
        let names = scheduler.createHotObservable([.next(210, "a"), .next(230, "ab")])
        var subscription: Disposable?
        SharingScheduler.mock(scheduler: scheduler) {
            let state = names.asDriver(onErrorJustReturn: "")
            let submitted: Signal<String> = taps.asSignal(onErrorJustReturn: ()).withLatestFrom(state)
            scheduler.scheduleAt(200) { subscription = submitted.emit(to: observer) }
            scheduler.scheduleAt(300) { subscription?.dispose() }
            scheduler.start()
        }
        #expect(observer.events == [.next(216, "a"), .next(241, "ab")])
    }
}
