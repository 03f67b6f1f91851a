import Foundation
import RxCocoa
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct SignalTests {
    // MARK: - Sharing

    /// One subscription to the source while anyone listens; a late subscriber gets only what
    /// comes after (no replay).
    @Test(arguments: [true, false]) func sharesOneSubscriptionWithoutReplay(failing: Bool) {
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
            let signal = cold.asSignal(onErrorJustReturn: -1)
            scheduler.scheduleAt(200) { disposable1 = signal.asObservable().subscribe(observer1) }
            scheduler.scheduleAt(225) { disposable2 = signal.asObservable().subscribe(observer2) }
            scheduler.scheduleAt(235) { disposable1.dispose() }
            scheduler.scheduleAt(260) { disposable2.dispose() }
            scheduler.scheduleAt(260) { disposable3 = signal.asObservable().subscribe(observer3) }
            scheduler.scheduleAt(285) { disposable3.dispose() }
            scheduler.start()
        }
        #expect(observer1.events == [.next(211, 0), .next(221, 1), .next(231, 2)])
        let ending: [Recorded<Event<Int>>] = failing ? [.next(251, -1), .completed(251)] : [.completed(251)]
        #expect(observer2.events == [.next(231, 2), .next(241, 3)] + ending)
        #expect(observer3.events == [.next(271, 0), .next(281, 1)])
        #expect(cold.subscriptions == [Subscription(200, 250), Subscription(260, 285)])
    }

    // MARK: - Making signals

    @Test func asSignalOnErrorJustReturn() {
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            return (xs.asSignal(onErrorJustReturn: -1), [xs])
        }
        let expected: [Recorded<Event<Int>>] = [
            .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(251, -1), .completed(251),
        ]
        #expect(run.first == expected)
        #expect(run.second == expected)
        #expect(run.sources == [[Subscription(200, 250)]])
    }

    @Test func asSignalOnErrorSignalWith() {
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            return (xs.asSignal(onErrorSignalWith: .just(-1)), [xs])
        }
        let expected: [Recorded<Event<Int>>] = [
            .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(252, -1), .completed(252),
        ]
        #expect(run.first == expected)
        #expect(run.second == expected)
        #expect(run.sources == [[Subscription(200, 250)]])
    }

    @Test func asSignalOnErrorRecover() {
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            return (xs.asSignal(onErrorRecover: { _ in .empty() }), [xs])
        }
        let expected: [Recorded<Event<Int>>] = [
            .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .completed(252),
        ]
        #expect(run.first == expected)
        #expect(run.second == expected)
        #expect(run.sources == [[Subscription(200, 250)]])
    }

    @Test func publishRelayAsSignalHasNoCurrentValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let relay = PublishRelay<Int>()
        var subscriptions: [Disposable] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = relay.asSignal()
            scheduler.scheduleAt(200) { subscriptions.append(signal.emit(to: observer)) }
            scheduler.scheduleAt(210) { relay.accept(1) }
            scheduler.scheduleAt(215) { subscriptions.append(signal.emit(to: late)) }
            scheduler.scheduleAt(220) { relay.accept(2) }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
        }
        #expect(observer.events == [.next(211, 1), .next(221, 2)])
        #expect(late.events == [.next(221, 2)])
    }

    @Test func asSignalOfASignalIsItself() {
        let signal = Signal.just(1)
        #expect(signal.asSignal().asObservable() === signal.asObservable())
    }

    // MARK: - emit

    @Test func emitToObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        let inferred = scheduler.createObserver(Int?.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = Signal.of(1, 2)
            scheduler.scheduleAt(200) {
                _ = signal.emit(to: first, second)
                _ = signal.emit(to: optional)
                _ = Signal.just(1).emit(to: inferred)
            }
            scheduler.start()
        }
        #expect(first.events == [.next(201, 1), .next(202, 2), .completed(203)])
        #expect(second.events == first.events)
        #expect(optional.events == [.next(201, 1), .next(202, 2), .completed(203)])
        #expect(inferred.events == [.next(201, 1), .completed(201)])
    }

    @Test func emitToRelays() {
        let scheduler = TestScheduler(initialClock: 0)
        let behavior = (BehaviorRelay(value: 0), BehaviorRelay(value: 0))
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let publish = (PublishRelay<Int>(), PublishRelay<Int>())
        let optionalPublish = PublishRelay<Int?>()
        let replay = ReplayRelay<Int>.create(bufferSize: 3)
        let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 3)
        let published = scheduler.createObserver(Int.self)
        let publishedOptional = scheduler.createObserver(Int?.self)
        let replayed = scheduler.createObserver(Int.self)
        let replayedOptional = scheduler.createObserver(Int?.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = Signal.of(1, 2)
            scheduler.scheduleAt(100) {
                _ = publish.1.subscribe(published)
                _ = optionalPublish.subscribe(publishedOptional)
            }
            scheduler.scheduleAt(200) {
                _ = signal.emit(to: behavior.0, behavior.1)
                _ = signal.emit(to: optionalBehavior)
                _ = signal.emit(to: publish.0, publish.1)
                _ = signal.emit(to: optionalPublish)
                _ = signal.emit(to: replay)
                _ = signal.emit(to: optionalReplay)
            }
            scheduler.scheduleAt(300) {
                _ = replay.subscribe(replayed)
                _ = optionalReplay.subscribe(replayedOptional)
            }
            scheduler.start()
        }
        let values: [Int] = [behavior.0.value, behavior.1.value]
        let optionalValue: Int? = optionalBehavior.value
        #expect(values == [2, 2])
        #expect(optionalValue == 2)
        #expect(published.events == [.next(201, 1), .next(202, 2)])
        #expect(publishedOptional.events == [.next(201, 1), .next(202, 2)])
        #expect(replayed.events == [.next(300, 1), .next(300, 2)])
        #expect(replayedOptional.events == [.next(300, 1), .next(300, 2)])
    }

    @Test func emitClosuresAndEmitWithNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = Signal.of(1, 2)
            scheduler.scheduleAt(200) {
                _ = signal.emit(
                    onNext: { log.append("next \($0) at \(scheduler.clock)") },
                    onCompleted: { log.append("completed at \(scheduler.clock)") },
                    onDisposed: { log.append("disposed at \(scheduler.clock)") })
                _ = xs.asSignal(onErrorJustReturn: -1).do(onNext: { log.append("seen \($0)") }).emit()
            }
            scheduler.start()
        }
        #expect(log == ["next 1 at 201", "next 2 at 202", "completed at 203", "disposed at 203", "seen 1"])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test(arguments: [true, false]) func emitWithAnObject(failing: Bool) {
        final class Owner { let name = "owner" }
        let scheduler = TestScheduler(initialClock: 0)
        var owner: Owner? = Owner()
        weak var released: Owner?
        released = owner
        var log: [String] = []
        let end: Recorded<Event<Int>> = failing ? .error(40, testError) : .completed(40)
        let cold = scheduler.createColdObservable([.next(10, 0), .next(20, 1), .next(30, 2), end])
        SharingScheduler.mock(scheduler: scheduler) {
            _ = cold.asSignal(onErrorJustReturn: -1).emit(
                with: owner!, onNext: { log.append("\($0.name) \($1)") },
                onCompleted: { log.append("\($0.name) done") },
                onDisposed: { log.append("\($0.name) disposed") })
            scheduler.start()
        }
        let ending = failing ? ["owner -1", "owner done", "owner disposed"] : ["owner done", "owner disposed"]
        #expect(log == ["owner 0", "owner 1", "owner 2"] + ending)
        owner = nil
        #expect(released == nil, "emit(with:) holds its object weakly")
    }

    // MARK: - withUnretained

    /// A Signal may pair its elements with an object held weakly; once the object is gone the
    /// Signal completes, and the source is let go.
    @Test func withUnretainedCompletesOnceTheObjectIsGone() {
        final class Owner { let name = "o" }
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(String.self)
        let tuples = scheduler.createObserver(String.self)
        var owner: Owner? = Owner()
        let xs = failingSource(scheduler)
        var subscriptions: [Disposable] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = xs.asSignal(onErrorJustReturn: -1)
            let named = signal.withUnretained(owner!) { "\($0.name)\($1)" }
            let paired = signal.withUnretained(owner!).map { "\($0.0.name)\($0.1)" }
            scheduler.scheduleAt(200) {
                subscriptions.append(named.emit(to: observer))
                subscriptions.append(paired.emit(to: tuples))
            }
            scheduler.scheduleAt(225) { owner = nil }
            scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
        }
        #expect(observer.events == [.next(211, "o1"), .next(221, "o2"), .completed(231)])
        #expect(tuples.events == observer.events)
        #expect(xs.subscriptions == [Subscription(200, 231)])
    }
}
