import Foundation
import RxCore
import RxTesting
import Synchronization
import Testing

@Suite(.serialized, .noLeaks)
struct CreationTests {
    @Test func createSendsWhatTheHandlerSends() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposedAt: TestTime?
        let res = scheduler.start {
            Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onNext(2)
                return Disposables.create { disposedAt = scheduler.clock }
            }
        }
        #expect(res.events == [.next(200, 1), .next(200, 2)])
        #expect(disposedAt == 1000)
    }

    @Test func createStopsAfterTheFirstStopEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(TestError())
                observer.onNext(2)
                observer.onCompleted()
                return Disposables.create()
            }
        }
        #expect(res.events == [.next(200, 1), .error(200, TestError())])
    }

    @Test func createDisposedEarlyDropsLaterEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 250) {
            Observable<Int>.create { observer in
                let a = scheduler.scheduleRelative((), dueTime: .seconds(30)) { _ in
                    observer.onNext(1); return Disposables.create()
                }
                let b = scheduler.scheduleRelative((), dueTime: .seconds(80)) { _ in
                    observer.onNext(2); return Disposables.create()
                }
                return Disposables.create(a, b)
            }
        }
        #expect(res.events == [.next(230, 1)])
    }

    @Test func just() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.start { Observable.just(42) }.events == [.next(200, 42), .completed(200)])
        let onScheduler = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.just(1, scheduler: scheduler)
        }
        #expect(onScheduler.events == [.next(1201, 1), .completed(1202)])
    }

    @Test func ofAndFromArray() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(
            scheduler.start { Observable.of(1, 2, 3) }.events == [
                .next(200, 1), .next(200, 2), .next(200, 3), .completed(200),
            ])
        #expect(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { Observable.from([4, 5]) }.events
                == [.next(1200, 4), .next(1200, 5), .completed(1200)])
    }

    @Test func ofOnATestSchedulerTakesOneTickPerElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3, scheduler: scheduler) }
        #expect(res.events == [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
    }

    @Test func ofDisposedMidwayStops() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) { Observable.of(1, 2, 3, 4, scheduler: scheduler) }
        #expect(res.events == [.next(201, 1), .next(202, 2)])
    }

    @Test func fromSequenceAndOptional() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(
            scheduler.start { Observable.from(stride(from: 0, to: 6, by: 2)) }.events
                == [.next(200, 0), .next(200, 2), .next(200, 4), .completed(200)])
        #expect(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { Observable.from(optional: 5) }.events
                == [.next(1200, 5), .completed(1200)])
        #expect(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { Observable<Int>.from(optional: nil) }
                .events
                == [.completed(2200)])
        #expect(
            scheduler.start(created: 3100, subscribed: 3200, disposed: 4000) {
                Observable.from(optional: 6, scheduler: scheduler)
            }.events
                == [.next(3201, 6), .completed(3202)])
    }

    @Test func emptyNeverError() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.start { Observable<Int>.empty() }.events == [.completed(200)])
        #expect(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { Observable<Int>.never() }.events.isEmpty)
        #expect(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { Observable<Int>.error(TestError()) }
                .events
                == [.error(2200, TestError())])
    }

    @Test func deferredCallsTheFactoryPerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        var calls = 0
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let deferred = Observable<Int>.deferred {
            calls += 1
            return xs.asObservable()
        }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(200) { deferred.subscribe(first).disposed(by: bag) }
        scheduler.scheduleAt(300) { deferred.subscribe(second).disposed(by: bag) }
        #expect(calls == 0)
        scheduler.start()
        #expect(calls == 2)
        #expect(first.events == [.next(210, 1), .completed(220)])
        #expect(second.events == [.next(310, 1), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
    }

    @Test func deferredFactoryThatThrowsFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.deferred { throw TestError("factory") } }
        #expect(res.events == [.error(200, TestError("factory"))])
    }

    @Test func range() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(
            scheduler.start { Observable.range(start: 5, count: 3) }.events == [
                .next(200, 5), .next(200, 6), .next(200, 7), .completed(200),
            ])
        #expect(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { Observable.range(start: 0, count: 0) }
                .events == [.completed(1200)])
        #expect(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
                Observable.range(start: Int8(126), count: 2)
            }.events
                == [.next(2200, 126), .next(2200, 127), .completed(2200)])
    }

    @Test func repeatElementStopsWhenDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 205) { Observable.repeatElement("x", scheduler: scheduler) }
        #expect(res.events == [.next(201, "x"), .next(202, "x"), .next(203, "x"), .next(204, "x")])
    }

    /// `take(3)` by hand: inside a trampoline, `subscribe` returns before the first element,
    /// so the subscriber can dispose itself after the third.
    @Test func repeatElementTakenByAManualDispose() {
        let got = Collected<Int>()
        var subscription: Disposable?
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            subscription = Observable.repeatElement(7).subscribe(onNext: { value in
                got.append(value)
                if got.count == 3 { subscription?.dispose() }
            })
            return Disposables.create()
        }
        #expect(got.all == [7, 7, 7])
        subscription = nil
    }

    @Test func generate() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 }) }
        #expect(res.events == [.next(200, 1), .next(200, 3), .next(200, 9), .completed(200)])
        let timed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.generate(initialState: 0, condition: { $0 < 2 }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        #expect(timed.events == [.next(1201, 0), .next(1202, 1), .completed(1203)])
    }

    @Test func generateFailsWhenConditionOrIterateThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let badCondition = scheduler.start {
            Observable.generate(
                initialState: 0,
                condition: { x -> Bool in
                    if x == 1 { throw TestError("condition") }; return true
                }, iterate: { $0 + 1 })
        }
        #expect(badCondition.events == [.next(200, 0), .error(200, TestError("condition"))])
        let badIterate = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.generate(
                initialState: 0, condition: { _ in true }, iterate: { _ -> Int in throw TestError("iterate") })
        }
        #expect(badIterate.events == [.next(1200, 0), .error(1200, TestError("iterate"))])
    }

    @Test func interval() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        #expect(res.events == (0...6).map { .next(300 + 100 * $0, $0) })
    }

    @Test func intervalHonoursTheResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        let res = scheduler.start(disposed: 260) { Observable<Int>.interval(.seconds(2), scheduler: scheduler) }
        #expect(res.events == [.next(220, 0), .next(240, 1)])
    }

    @Test func timerOnceAndPeriodic() {
        let scheduler = TestScheduler(initialClock: 0)
        let once = scheduler.start { Observable<Int>.timer(.seconds(300), scheduler: scheduler) }
        #expect(once.events == [.next(500, 0), .completed(500)])
        let periodic = scheduler.start(created: 1100, subscribed: 1200, disposed: 1500) {
            Observable<Int>.timer(.seconds(50), period: .seconds(100), scheduler: scheduler)
        }
        #expect(periodic.events == [.next(1250, 0), .next(1350, 1), .next(1450, 2)])
    }

    /// RxSwift's periodic ticks on a virtual scheduler queue the next tick before the work of
    /// this one runs, so the next tick comes before what that work scheduled for the same time:
    /// each new inner sequence here replaces the one before just as its element was due, and
    /// only the last inner's element gets through.
    @Test func intervalQueuesTheNextTickBeforeRunningThisOne() {
        let scheduler = TestScheduler(initialClock: 0)
        var inners: [TestableObservable<String>] = []
        let res = scheduler.start {
            Observable<Int>.interval(.seconds(10), scheduler: scheduler).take(3).flatMapLatest { i in
                let inner = scheduler.createColdObservable([.next(10, "inner \(i)"), .completed(20)])
                inners.append(inner)
                return inner
            }
        }
        #expect(res.events == [.next(240, "inner 2"), .completed(250)])
        #expect(
            inners.map(\.subscriptions) == [
                [Subscription(210, 220)], [Subscription(220, 230)], [Subscription(230, 250)],
            ])
    }

    /// On a concurrent scheduler, a tick that comes while the previous one's work still runs
    /// waits for it: the work never runs twice at once.
    @Test func periodicWorkNeverOverlapsOnAConcurrentScheduler() {
        let scheduler = GlobalQueueScheduler()
        let running = Atomic(0)
        let overlapped = Atomic(false)
        let runs = Atomic(0)
        let subscription = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(1)) {
            state in
            if running.wrappingAdd(1, ordering: .relaxed).newValue > 1 { overlapped.store(true, ordering: .relaxed) }
            Thread.sleep(forTimeInterval: 0.005)
            running.wrappingSubtract(1, ordering: .relaxed)
            runs.wrappingAdd(1, ordering: .relaxed)
            return state + 1
        }
        // Until three ticks' work has run (each tick comes while the last one's work still sleeps),
        // waiting at most 5 s: on a loaded machine a fixed 50 ms could see only one.
        let deadline = Date().addingTimeInterval(5)
        while runs.load(ordering: .relaxed) < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        subscription.dispose()
        Thread.sleep(forTimeInterval: 0.02)
        #expect(overlapped.load(ordering: .relaxed) == false)
        #expect(runs.load(ordering: .relaxed) >= 3)
    }

    /// A scheduler without a periodic timer of its own, so `schedulePeriodic` is the default one,
    /// on Dispatch's concurrent global queue.
    final class GlobalQueueScheduler: SchedulerType {
        var now: RxTime { Date() }

        func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
            scheduleRelative(state, dueTime: .nanoseconds(0), action: action)
        }

        func scheduleRelative<StateType>(
            _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
        ) -> Disposable {
            let cancelled = BooleanDisposable()
            DispatchQueue.global().asyncAfter(deadline: .now() + dueTime) {
                if !cancelled.isDisposed { _ = action(state) }
            }
            return cancelled
        }
    }

    @Test func timerDisposedBeforeItFiresSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 300) { Observable<Int>.timer(.seconds(300), scheduler: scheduler) }
        #expect(res.events.isEmpty)
    }
}
