import RxCore
import RxTesting
import Testing

/// The order of side effects at one virtual time, as RxSwift 6 has it: which subscription is
/// disposed first, and whether before or after the terminal event is passed on. Each test
/// records the events, the subscriptions and a log of what the closures did.
@Suite(.serialized, .noLeaks)
struct DisposalOrderTests {
    // MARK: - The merge family

    /// RxSwift keeps the inner subscriptions in a `CompositeDisposable`, whose `Bag` disposes
    /// in insertion order.
    @Test func flatMapDisposesItsInnerSubscriptionsOldestFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let res = scheduler.start(disposed: 300) {
            Observable.of(1, 2, 3).flatMap { log.endless("i\($0)", Int.self) }
        }
        #expect(res.events == [])
        #expect(
            log.entries == [
                "200:i1.subscribe", "200:i2.subscribe", "200:i3.subscribe",
                "300:i1.dispose", "300:i2.dispose", "300:i3.dispose",
            ])
    }

    /// An inner that ends leaves the list wherever it is (the newest one here), and the next
    /// inner joins at the end.
    @Test func flatMapKeepsTheOrderWhenTheNewestInnerEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .next(240, 2)])
        let inners = [
            scheduler.createColdObservable([Recorded<Event<Int>>]()),
            scheduler.createColdObservable([.completed(10, Int.self)]),
            scheduler.createColdObservable([Recorded<Event<Int>>]()),
        ]
        let res = scheduler.start(disposed: 300) {
            xs.flatMap { i in inners[i].do(onDispose: { log("i\(i).dispose") }) }
        }
        #expect(res.events == [])
        #expect(
            inners.map(\.subscriptions) == [
                [Subscription(210, 300)], [Subscription(220, 230)], [Subscription(240, 300)],
            ])
        #expect(log.entries == ["230:i1.dispose", "300:i0.dispose", "300:i2.dispose"])
    }

    /// RxSwift's `MergeSink` disposes the finished outer subscription, then passes on
    /// `completed` when no inner runs.
    @Test func flatMapDisposesItsFinishedSourceBeforePassingOnCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start {
            xs.do(onDispose: { log("outer.dispose") }).flatMap { Observable.just($0) }
                .do(onCompleted: { log("completed") })
        }
        #expect(res.events == [.next(210, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(log.entries == ["250:outer.dispose", "250:completed"])
    }

    /// RxSwift's `MergeLimitedSink` (`concatMap`, `merge(maxConcurrent:)`, `concat()`) passes on
    /// `completed` first and disposes the outer subscription with everything else.
    @Test func concatMapPassesOnCompletedBeforeDisposingItsSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start {
            xs.do(onDispose: { log("outer.dispose") }).concatMap { Observable.just($0) }
                .do(onCompleted: { log("completed") })
        }
        #expect(res.events == [.next(210, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(log.entries == ["250:completed", "250:outer.dispose"])
    }

    /// RxSwift's `SwitchSink` disposes the finished outer subscription first too.
    @Test func flatMapLatestDisposesItsFinishedSourceBeforePassingOnCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start {
            xs.do(onDispose: { log("outer.dispose") }).flatMapLatest { Observable.just($0) }
                .do(onCompleted: { log("completed") })
        }
        #expect(res.events == [.next(210, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(log.entries == ["250:outer.dispose", "250:completed"])
    }

    /// Static `merge` ends only once every source is subscribed, even when they all complete
    /// while being subscribed.
    @Test func staticMergeCompletesAfterSubscribingEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let res = scheduler.start {
            Observable.merge(log.synchronous("a", 1), log.synchronous("b", 2)).do(onCompleted: { log("completed") })
        }
        #expect(res.events == [.next(200, 1), .next(200, 2), .completed(200)])
        #expect(
            log.entries == [
                "200:a.subscribe", "200:a.returns", "200:a.dispose",
                "200:b.subscribe", "200:b.returns", "200:b.dispose", "200:completed",
            ])
    }

    // MARK: - Static concat

    /// RxSwift's `ConcatSink` replaces the finished source's subscription before subscribing the
    /// next, and after the last passes on `completed` before disposing it.
    @Test func staticConcatPassesOnCompletedBeforeDisposingTheLastSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start {
            Observable.concat([
                xs.do(onDispose: { log("xs.dispose") }), ys.do(onDispose: { log("ys.dispose") }),
            ]).do(onCompleted: { log("completed") })
        }
        #expect(res.events == [.next(210, 1), .next(260, 2), .completed(270)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(250, 270)])
        #expect(log.entries == ["250:xs.dispose", "270:completed", "270:ys.dispose"])
    }

    /// A last source that completes while being subscribed ends the concatenation once its
    /// `subscribe` has returned.
    @Test func staticConcatEndsAfterTheSubscribeOfASynchronousLastSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let res = scheduler.start {
            Observable.concat([log.synchronous("a", 1), log.synchronous("b", 2)])
                .do(onCompleted: { log("completed") })
        }
        #expect(res.events == [.next(200, 1), .next(200, 2), .completed(200)])
        #expect(
            log.entries == [
                "200:a.subscribe", "200:a.returns", "200:a.dispose",
                "200:b.subscribe", "200:b.returns", "200:b.dispose", "200:completed",
            ])
    }

    // MARK: - andThen

    /// RxSwift's `ConcatCompletableSink` subscribes what follows, then replaces the
    /// completable's subscription with it (a `SerialDisposable`).
    @Test func andThenSubscribesTheNextSourceBeforeDisposingTheCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let completable = scheduler.createColdObservable([.completed(5, Never.self)])
        let ys = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start {
            completable.asCompletable().do(onDispose: { log("completable.dispose") })
                .andThen(
                    Observable.deferred {
                        log("factory")
                        return ys.asObservable()
                    })
        }
        #expect(res.events == [.next(215, 1), .completed(225)])
        #expect(completable.subscriptions == [Subscription(200, 205)])
        #expect(ys.subscriptions == [Subscription(205, 225)])
        #expect(log.entries == ["205:factory", "205:completable.dispose"])
    }

    /// With a next source that ends while being subscribed, the completable's subscription goes
    /// when the whole sequence ends, still after the next source ran.
    @Test func andThenOfASynchronousSourceDisposesTheCompletableAfterIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let completable = scheduler.createColdObservable([.completed(5, Never.self)])
        let res = scheduler.start {
            completable.asCompletable().do(onDispose: { log("completable.dispose") })
                .andThen(log.synchronous("next", 7))
        }
        #expect(res.events == [.next(205, 7), .completed(205)])
        #expect(completable.subscriptions == [Subscription(200, 205)])
        #expect(
            log.entries == ["205:next.subscribe", "205:completable.dispose", "205:next.returns", "205:next.dispose"])
    }

    @Test func andThenPassesOnTheCompletablesErrorWithoutTheNextSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let completable = scheduler.createColdObservable([.error(5, opTestError, Never.self)])
        let res = scheduler.start {
            completable.asCompletable().andThen(log.synchronous("next", 7))
        }
        #expect(res.events == [.error(205, opTestError)])
        #expect(completable.subscriptions == [Subscription(200, 205)])
        #expect(log.entries == [])
    }

    // MARK: - Operators that leave the source's end to the source

    /// RxSwift's `ObserveOnSink` only queues the error, so the `do` above it finishes
    /// (`afterError`) before its own sink disposes it.
    @Test func observeOnLeavesTheFailedSourceToEndItself() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, opTestError)])
        let res = scheduler.start {
            xs.do(afterError: { _ in log("afterError") }, onDispose: { log("dispose") }).observe(on: scheduler)
        }
        #expect(res.events == [.next(211, 1), .error(221, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(log.entries == ["220:afterError", "220:dispose"])
    }

    /// RxSwift's `share(replay: 0 or 1)` while connected (`ShareWhileConnected`,
    /// `ShareReplay1WhileConnected`) does not dispose a source that ended.
    @Test(arguments: [0, 1]) func shareLeavesTheFailedSourceToEndItself(replay: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, opTestError)])
        let res = scheduler.start {
            xs.do(afterError: { _ in log("afterError") }, onDispose: { log("dispose") }).share(replay: replay)
        }
        #expect(res.events == [.next(210, 1), .error(220, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(log.entries == ["220:afterError", "220:dispose"])
    }

    /// `multicast` (and so `publish`, `replay` and `share` of a larger replay or kept forever)
    /// disposes the source before its subject hears of the end, as RxSwift's `Connection` does.
    @Test func publishDisposesTheFailedSourceBeforePassingOnItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, opTestError)])
        let res = scheduler.start {
            xs.do(afterError: { _ in log("afterError") }, onDispose: { log("dispose") }).publish().refCount()
        }
        #expect(res.events == [.next(210, 1), .error(220, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(log.entries == ["220:dispose", "220:afterError"])
    }

    /// A second subscriber after the shared source failed starts a new subscription to it.
    @Test func shareSubscribesAgainAfterTheSourceFailed() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, opTestError)])
        let shared = xs.do(onDispose: { log("dispose") }).share(replay: 1)
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(a)) }
        scheduler.scheduleAt(300) { subscriptions.append(shared.subscribe(b)) }
        scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        #expect(a.events == [.next(210, 1), .error(220, opTestError)])
        #expect(b.events == [.next(310, 1), .error(320, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
        #expect(log.entries == ["220:dispose", "320:dispose"])
    }

    // MARK: - Two sources

    /// RxSwift's `TakeUntilSink` returns `Disposables.create(sourceSubscription, other)`.
    @Test func takeUntilDisposesTheSourceBeforeTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = SideEffectLog(scheduler)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let other = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start(disposed: 300) {
            xs.do(onDispose: { log("source.dispose") }).take(until: other.do(onDispose: { log("other.dispose") }))
        }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(other.subscriptions == [Subscription(200, 300)])
        #expect(log.entries == ["300:source.dispose", "300:other.dispose"])
    }
}
