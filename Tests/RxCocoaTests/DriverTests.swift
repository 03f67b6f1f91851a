import Foundation
import RxCocoa
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct DriverTests {
    // MARK: - Sharing

    /// One subscription to the source while anyone listens; a late subscriber first gets the
    /// latest element (replay 1); after everyone left, a new subscriber starts the source anew.
    @Test(arguments: [true, false]) func sharesOneSubscriptionAndReplaysTheLatest(failing: Bool) {
        let scheduler = TestScheduler(initialClock: 0)
        let observer1 = scheduler.createObserver(Int.self)
        let observer2 = scheduler.createObserver(Int.self)
        let observer3 = scheduler.createObserver(Int.self)
        var disposable1: Disposable!
        var disposable2: Disposable!
        var disposable3: Disposable!
        let end: Recorded<Event<Int>> = failing ? .error(50, testError) : .completed(50)
        let cold = scheduler.createColdObservable([.next(10, 0), .next(20, 1), .next(30, 2), .next(40, 3), end])
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = cold.asDriver(onErrorJustReturn: -1)
            scheduler.scheduleAt(200) { disposable1 = driver.asObservable().subscribe(observer1) }
            scheduler.scheduleAt(225) { disposable2 = driver.asObservable().subscribe(observer2) }
            scheduler.scheduleAt(235) { disposable1.dispose() }
            scheduler.scheduleAt(260) { disposable2.dispose() }
            scheduler.scheduleAt(260) { disposable3 = driver.asObservable().subscribe(observer3) }
            scheduler.scheduleAt(285) { disposable3.dispose() }
            scheduler.start()
        }
        #expect(observer1.events == [.next(211, 0), .next(221, 1), .next(231, 2)])
        let ending: [Recorded<Event<Int>>] = failing ? [.next(251, -1), .completed(251)] : [.completed(251)]
        #expect(observer2.events == [.next(225, 1), .next(231, 2), .next(241, 3)] + ending)
        #expect(observer3.events == [.next(271, 0), .next(281, 1)])
        #expect(cold.subscriptions == [Subscription(200, 250), Subscription(260, 285)])
    }

    // MARK: - Making drivers

    @Test func asDriverOnErrorJustReturn() {
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            return (xs.asDriver(onErrorJustReturn: -1), [xs])
        }
        let expected: [Recorded<Event<Int>>] = [
            .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(251, -1), .completed(251),
        ]
        #expect(run.first == expected)
        #expect(run.second == expected)
        #expect(run.sources == [[Subscription(200, 250)]])
    }

    /// The replacement is itself a Driver: `just` delivers on the sharing scheduler, a tick later.
    @Test func asDriverOnErrorDriveWith() {
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            return (xs.asDriver(onErrorDriveWith: .just(-1)), [xs])
        }
        let expected: [Recorded<Event<Int>>] = [
            .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(252, -1), .completed(252),
        ]
        #expect(run.first == expected)
        #expect(run.second == expected)
        #expect(run.sources == [[Subscription(200, 250)]])
    }

    @Test func asDriverOnErrorRecover() {
        var errors: [String] = []
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            return (
                xs.asDriver(onErrorRecover: {
                    errors.append("\($0)"); return .of(-1, -2)
                }), [xs]
            )
        }
        let expected: [Recorded<Event<Int>>] = [
            .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(252, -1), .next(253, -2),
            .completed(254),
        ]
        #expect(run.first == expected)
        #expect(run.second == expected)
        #expect(errors == ["TestError"])
        #expect(run.sources == [[Subscription(200, 250)]])
    }

    @Test func aCompletingSourceCompletesTheDriver() {
        let run = runTwice { scheduler in
            let xs = completingSource(scheduler)
            return (xs.asDriver(onErrorJustReturn: -1), [xs])
        }
        #expect(run.first == [.next(206, 10), .next(216, 20), .next(236, 30), .completed(246)])
        #expect(run.second == run.first)
        #expect(run.sources == [[Subscription(200, 245)]])
    }

    /// An Infallible needs no replacement; its own `onErrorJustReturn` completes at once, which
    /// the Driver delivers a tick after the element.
    @Test func infallibleAsDriver() {
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            return (xs.asInfallible(onErrorJustReturn: -1).asDriver(), [xs])
        }
        let expected: [Recorded<Event<Int>>] = [
            .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(251, -1), .completed(252),
        ]
        #expect(run.first == expected)
        #expect(run.second == expected)
        #expect(run.sources == [[Subscription(200, 250)]])
    }

    @Test func behaviorRelayAsDriverStartsWithTheCurrentValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let relay = BehaviorRelay(value: 0)
        var subscriptions: [Disposable] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = relay.asDriver()
            scheduler.scheduleAt(200) { subscriptions.append(driver.drive(observer)) }
            scheduler.scheduleAt(210) { relay.accept(1) }
            scheduler.scheduleAt(215) { subscriptions.append(driver.drive(late)) }
            scheduler.scheduleAt(220) { relay.accept(2) }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
        }
        #expect(observer.events == [.next(201, 0), .next(211, 1), .next(221, 2)])
        #expect(late.events == [.next(215, 1), .next(221, 2)])
    }

    @Test func asDriverOfADriverIsItself() {
        let driver = Driver.just(1)
        #expect(driver.asDriver().asObservable() === driver.asObservable())
        #expect(driver.asSharedSequence().asObservable() === driver.asObservable())
    }

    // MARK: - drive

    @Test func driveSendsEveryEventToEachObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = Driver.of(1, 2)
            scheduler.scheduleAt(200) {
                _ = driver.drive(first, second)
                _ = driver.drive(optional)
            }
            scheduler.start()
        }
        #expect(first.events == [.next(201, 1), .next(202, 2), .completed(203)])
        #expect(second.events == first.events)
        #expect(optional.events == [.next(201, 1), .next(202, 2), .completed(203)])
    }

    /// `Driver.just(1)` leaves its element type open; an observer of `Int?` settles it.
    @Test func driveAnOptionalObserverIsNotAmbiguous() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int?.self)
        SharingScheduler.mock(scheduler: scheduler) {
            scheduler.scheduleAt(200) { _ = Driver.just(1).drive(observer) }
            scheduler.start()
        }
        #expect(observer.events == [.next(201, 1), .completed(201)])
    }

    @Test func driveRelays() {
        let scheduler = TestScheduler(initialClock: 0)
        let behavior = (BehaviorRelay(value: 0), BehaviorRelay(value: 0))
        let optionalBehavior = (BehaviorRelay<Int?>(value: nil), BehaviorRelay<Int?>(value: nil))
        let replay = (ReplayRelay<Int>.create(bufferSize: 3), ReplayRelay<Int>.create(bufferSize: 3))
        let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 3)
        let replayed = scheduler.createObserver(Int.self)
        let replayedOptional = scheduler.createObserver(Int?.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = Driver.of(1, 2)
            scheduler.scheduleAt(200) {
                _ = driver.drive(behavior.0, behavior.1)
                _ = driver.drive(optionalBehavior.0, optionalBehavior.1)
                _ = driver.drive(replay.0, replay.1)
                _ = driver.drive(optionalReplay)
            }
            scheduler.scheduleAt(300) {
                _ = replay.1.subscribe(replayed)
                _ = optionalReplay.subscribe(replayedOptional)
            }
            scheduler.start()
        }
        let values: [Int] = [behavior.0.value, behavior.1.value]
        let optionalValues: [Int?] = [optionalBehavior.0.value, optionalBehavior.1.value]
        #expect(values == [2, 2])
        #expect(optionalValues == [2, 2])
        // A relay never completes: the Driver's completion does not reach it.
        #expect(replayed.events == [.next(300, 1), .next(300, 2)])
        #expect(replayedOptional.events == [.next(300, 1), .next(300, 2)])
    }

    @Test func driveClosures() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = Driver.of(1, 2)
            scheduler.scheduleAt(200) {
                _ = driver.drive(
                    onNext: { log.append("next \($0) at \(scheduler.clock)") },
                    onCompleted: { log.append("completed at \(scheduler.clock)") },
                    onDisposed: { log.append("disposed at \(scheduler.clock)") })
            }
            scheduler.start()
        }
        #expect(log == ["next 1 at 201", "next 2 at 202", "completed at 203", "disposed at 203"])
    }

    /// `drive()` keeps the Driver's work going with nobody listening.
    @Test func driveWithNothingStillSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        var seen: [Int] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: -1).do(onNext: { seen.append($0) })
            scheduler.scheduleAt(200) { _ = driver.drive() }
            scheduler.start()
        }
        #expect(seen == [1])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    /// `drive(_:)` with a function of the observable (a custom binder), plain and curried.
    @Test func driveBinderFunctions() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = Driver.just(7)
            func doubled(_ source: Observable<Int>) -> Observable<Int> { source.map { $0 * 2 } }
            func offset(_ source: Observable<Int>) -> (Int) -> Disposable {
                { amount in source.map { $0 + amount }.subscribe(observer) }
            }
            scheduler.scheduleAt(200) {
                _ = driver.drive(doubled).subscribe(observer)
                _ = driver.drive(offset, curriedArgument: 100)
            }
            scheduler.start()
        }
        #expect(observer.events == [.next(201, 14), .completed(201), .next(201, 107), .completed(201)])
    }

    @Test(arguments: [true, false]) func driveWithAnObject(failing: Bool) {
        final class Owner { let name = "owner" }
        let scheduler = TestScheduler(initialClock: 0)
        var owner: Owner? = Owner()
        weak var released: Owner?
        released = owner
        var log: [String] = []
        let end: Recorded<Event<Int>> = failing ? .error(40, testError) : .completed(40)
        let cold = scheduler.createColdObservable([.next(10, 0), .next(20, 1), .next(30, 2), end])
        SharingScheduler.mock(scheduler: scheduler) {
            _ = cold.asDriver(onErrorJustReturn: -1).drive(
                with: owner!, onNext: { log.append("\($0.name) \($1)") },
                onCompleted: { log.append("\($0.name) done") },
                onDisposed: { log.append("\($0.name) disposed") })
            scheduler.start()
        }
        let ending = failing ? ["owner -1", "owner done", "owner disposed"] : ["owner done", "owner disposed"]
        #expect(log == ["owner 0", "owner 1", "owner 2"] + ending)
        owner = nil
        #expect(released == nil, "drive(with:) holds its object weakly")
    }

    @Test func driveWithAnObjectThatIsGoneCallsNothing() {
        final class Owner {}
        let scheduler = TestScheduler(initialClock: 0)
        var owner: Owner? = Owner()
        var calls = 0
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(240)])
        SharingScheduler.mock(scheduler: scheduler) {
            _ = xs.asDriver(onErrorJustReturn: -1).drive(
                with: owner!, onNext: { _, _ in calls += 1 }, onCompleted: { _ in calls += 100 },
                onDisposed: { _ in calls += 1000 })
            scheduler.scheduleAt(220) { owner = nil }
            scheduler.start()
        }
        #expect(calls == 1)
    }

    // MARK: - Synchronous subscriptions on the main thread

    /// On the main thread `MainScheduler` runs at once: relays driven by synchronous Drivers
    /// update in the order the code drives them (RxCocoa's test of the same name).
    @MainActor @Test func drivingOrderOfSynchronousSubscriptions() {
        func sampleDriver(_ item: String) -> Driver<String> {
            Observable.create { observer in
                observer.onNext(item)
                observer.onCompleted()
                return Disposables.create()
            }
            .asDriver(onErrorJustReturn: "")
        }
        var disposeBag = DisposeBag()
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(String.self)
        let relay = BehaviorRelay(value: "initial")
        relay.asDriver().drive(observer).disposed(by: disposeBag)
        sampleDriver("first").drive(relay).disposed(by: disposeBag)
        sampleDriver("second").drive(relay).disposed(by: disposeBag)
        Observable.just("third").bind(to: relay).disposed(by: disposeBag)
        disposeBag = DisposeBag()
        #expect(observer.events == [.next(0, "initial"), .next(0, "first"), .next(0, "second"), .next(0, "third")])
    }

    @MainActor @Test func nestedDriversDeliverSynchronouslyOnTheMainThread() {
        var latest: Int?
        let state = BehaviorSubject(value: 1)
        let subscription = state.asDriver(onErrorJustReturn: 0)
            .flatMapLatest { x in Driver.just(x * 2) }
            .flatMapLatest { y in Observable.just(y).asDriver(onErrorJustReturn: -1) }
            .flatMapLatest { y in Observable.just(y).asDriver(onErrorDriveWith: .empty()) }
            .flatMapLatest { y in Observable.just(y).asDriver(onErrorRecover: { _ in .empty() }) }
            .drive(onNext: { latest = $0 })
        subscription.dispose()
        #expect(latest == 2)
    }

    /// Off the main thread, a Driver hands its events to the main queue: built and subscribed
    /// on a background queue, it still delivers every element there.
    @Test func deliversOnTheMainQueueWhenSubscribedFromAnotherThread() async {
        let received = Collected<(Int, Bool)>()
        let subject = PublishSubject<Int>()
        let driver = subject.asDriver(onErrorJustReturn: -1)
        let subscription = SingleAssignmentDisposable()
        DispatchQueue.global().async {
            subscription.setDisposable(driver.drive(onNext: { received.append(($0, MainScheduler.isOnMainQueue)) }))
            subject.onNext(1)
            subject.onNext(2)
            subject.onError(testError)
        }
        let done = await eventually { received.all.count == 3 }
        #expect(done)
        #expect(received.all.map(\.0) == [1, 2, -1])
        #expect(received.all.allSatisfy { $0.1 }, "every element is delivered on the main queue")
        subscription.dispose()
    }
}
