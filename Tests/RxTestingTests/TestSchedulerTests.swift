import Foundation
import RxCore
import RxTesting
import Testing

struct TestError: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { "TestError(\(name))" }
}

@Suite(.serialized, .noLeaks)
struct TestSchedulerTests {
    @Test func hotObservableDeliversAtAbsoluteTimesInsideTheWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .completed(300), .next(310, 4),
        ])
        let res = scheduler.start { xs.map { $0 * 10 } }
        #expect(res.events == [.next(210, 20), .next(220, 30), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func hotObservableDisposedEarlyRecordsTheUnsubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let res = scheduler.start(disposed: 250) { xs }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func coldObservableTimesAreOffsetsFromSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .error(20, TestError())])
        let res = scheduler.start { xs.map { $0 } }
        #expect(res.events == [.next(210, "a"), .error(220, TestError())])
        // The sink disposes its upstream on the error.
        #expect(xs.subscriptions == [Subscription(200, 220)])
        // `start` subscribes through `asObservable()`, whose `create` sink lets go at the stop
        // event, as in RxTest.
        let wrapped = scheduler.createColdObservable([.next(10, "b"), .completed(20)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { wrapped }
        #expect(res2.events == [.next(1210, "b"), .completed(1220)])
        #expect(wrapped.subscriptions == [Subscription(1200, 1220)])
        // Subscribed directly, nothing disposes early: the window closes at disposal.
        let direct = scheduler.createColdObservable([.next(10, "c"), .completed(20)])
        let observer = scheduler.createObserver(String.self)
        var subscription: Disposable?
        scheduler.scheduleAt(2100) { subscription = direct.subscribe(observer) }
        scheduler.scheduleAt(2200) { subscription?.dispose() }
        scheduler.start()
        #expect(observer.events == [.next(2110, "c"), .completed(2120)])
        #expect(direct.subscriptions == [Subscription(2100, 2200)])
    }

    @Test func hotIsSharedColdStartsOverPerSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
        let cold = scheduler.createColdObservable([.next(10, 1), .next(40, 2)])
        let hotLate = scheduler.createObserver(Int.self)
        let coldLate = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(220) {
            hot.subscribe(hotLate).disposed(by: bag)
            cold.subscribe(coldLate).disposed(by: bag)
        }
        scheduler.start()
        #expect(hotLate.events == [.next(240, 2)])
        #expect(coldLate.events == [.next(230, 1), .next(260, 2)])
        #expect(hot.subscriptions == [Subscription(220)])
        #expect(cold.subscriptions == [Subscription(220)])
    }

    @Test func startUsesTheDefaultTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        var createdAt: TestTime?
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { () -> Observable<Int> in
            createdAt = scheduler.clock
            return xs.asObservable()
        }
        #expect(createdAt == TestScheduler.Defaults.created)
        #expect(res.events.isEmpty)
        #expect(xs.subscriptions == [Subscription(TestScheduler.Defaults.subscribed, TestScheduler.Defaults.disposed)])
        #expect(scheduler.clock == 1000)
    }

    @Test func simulatedProcessingDelayMovesWorkDueNowOneTick() {
        let delayed = TestScheduler(initialClock: 0)
        let immediate = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        #expect(delayed.start { Observable.just(1, scheduler: delayed) }.events == [.next(201, 1), .completed(202)])
        #expect(
            immediate.start { Observable.just(1, scheduler: immediate) }.events == [.next(200, 1), .completed(200)])
    }

    /// Absolute times are never moved (RxTest's `scheduleAt` is `scheduleAbsoluteVirtual`, which
    /// does not call `adjustScheduledTime`): a time in the past runs next, at the current clock.
    @Test func scheduleAtInThePastRunsNextAtTheCurrentClock() {
        let scheduler = TestScheduler(initialClock: 0)
        let times = Collected<TestTime>()
        scheduler.scheduleAt(50) {
            scheduler.scheduleAt(10) { times.append(scheduler.clock) }
            times.append(scheduler.clock)
        }
        scheduler.start()
        #expect(times.all == [50, 50])
    }

    /// Only relative scheduling is moved one tick: `schedule` (due now) from work running at 50
    /// runs at 51, while `scheduleAt(50)` asked for at 50 runs at 50, after the work before it.
    @Test func onlyRelativeSchedulingIsMovedOneTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let ran = Collected<String>()
        scheduler.scheduleAt(50) {
            _ = scheduler.schedule(()) { _ in
                ran.append("schedule at \(scheduler.clock)")
                return Disposables.create()
            }
            _ = scheduler.scheduleRelative((), dueTime: .seconds(0)) { _ in
                ran.append("scheduleRelative(0) at \(scheduler.clock)")
                return Disposables.create()
            }
            _ = scheduler.scheduleRelativeVirtual((), dueTime: 0) { _ in
                ran.append("scheduleRelativeVirtual(0) at \(scheduler.clock)")
                return Disposables.create()
            }
            scheduler.scheduleAt(50) { ran.append("scheduleAt(50) at \(scheduler.clock)") }
        }
        scheduler.start()
        #expect(
            ran.all == [
                "scheduleRelativeVirtual(0) at 50", "scheduleAt(50) at 50", "schedule at 51",
                "scheduleRelative(0) at 51",
            ])
    }

    /// `start(created: 0, subscribed: 0, …)` creates and subscribes at 0: all three are absolute
    /// times, the current clock included. Work due at the same time runs in the order it was
    /// scheduled, so the hot event at 0 (scheduled when `xs` was made) runs before the subscription.
    @Test func startAtTheCurrentClockRunsThen() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(0, 1), .next(5, 2), .completed(10)])
        var createdAt: TestTime?
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 20) { () -> Observable<Int> in
            createdAt = scheduler.clock
            return xs.asObservable()
        }
        #expect(createdAt == 0)
        #expect(res.events == [.next(5, 2), .completed(10)])
        #expect(xs.subscriptions == [Subscription(0, 10)])
    }

    /// A cold observable's offset 0 is delivered at the subscription's own tick.
    @Test func coldOffsetZeroIsDeliveredAtTheSubscriptionTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(0, "a"), .next(5, "b"), .completed(5)])
        let res = scheduler.start { xs }
        #expect(res.events == [.next(200, "a"), .next(205, "b"), .completed(205)])
        #expect(xs.subscriptions == [Subscription(200, 205)])
    }

    @Test func clockAndNowFollowTheResolution() {
        let scheduler = TestScheduler(initialClock: 20, resolution: 0.5)
        #expect(scheduler.clock == 20)
        #expect(scheduler.now == Date(timeIntervalSince1970: 10))
        var ranAt: TestTime?
        _ = scheduler.scheduleRelative((), dueTime: .seconds(3)) { _ in
            ranAt = scheduler.clock; return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(500)) { _ in Disposables.create() }
        scheduler.start()
        #expect(ranAt == 26, "3 s at 0.5 s per tick is 6 ticks")
    }

    @Test func observerRecordsEventsAfterTheStopEventToo() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(10) { observer.onCompleted() }
        scheduler.scheduleAt(20) { observer.onNext(1) }
        scheduler.start()
        #expect(observer.events == [.completed(10), .next(20, 1)])
    }

    @Test func descriptions() {
        #expect(Subscription(200, 300).debugDescription == "(200 : 300)")
        #expect(Subscription(200).debugDescription == "(200 : Infinity)")
        #expect(Recorded<Event<Int>>.next(210, 2).debugDescription == "next(2) @ 210")
        #expect(Recorded.events(.next(1, "a"), .completed(2)) == [.next(1, "a"), .completed(2)])
    }

    @Test func recordedEqualityIncludesTheTime() {
        #expect(Recorded<Event<Int>>.next(210, 2) != .next(211, 2))
        #expect(Recorded<Event<Int>>.error(210, TestError()) == .error(210, TestError()))
        #expect(Recorded<Event<Int>>.error(210, TestError("a")) != .error(210, TestError("b")))
        #expect(errorsEqual(NSError(domain: "d", code: 1), NSError(domain: "d", code: 1)))
        #expect(!errorsEqual(NSError(domain: "d", code: 1), NSError(domain: "d", code: 2)))
    }

    @Test(.enabled(if: tracingCompiledIn, "tracing is compiled out (RX_NO_TRACE)"))
    func testObjectsAreTraceNodes() {
        let recorder = KindRecorder()
        Tracing.tracer = recorder
        defer { Tracing.tracer = nil }
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let cold = scheduler.createColdObservable([Recorded<Event<Int>>]())
        let observer = scheduler.createObserver(Int.self)
        #expect(hot.traceID != 0 && cold.traceID != 0 && observer.traceID != 0)
        let kinds = recorder.kinds
        #expect(kinds[hot.traceID] == "observable HotObservable")
        #expect(kinds[cold.traceID] == "observable ColdObservable")
        #expect(kinds[observer.traceID] == "observer TestableObserver")
    }
}

/// False when RxCore was built with `RX_NO_TRACE` (tracing compiled out).
let tracingCompiledIn: Bool = {
    Tracing.tracer = KindRecorder()
    defer { Tracing.tracer = nil }
    return Tracing.isOn
}()

/// A tracer that remembers the kind and type of each node.
final class KindRecorder: RxTracer, @unchecked Sendable {
    private let lock = NSLock()
    private var table: [UInt64: String] = [:]
    private var next: UInt64 = 0
    var kinds: [UInt64: String] { lock.lock(); defer { lock.unlock() }; return table }
    func node(kind: TraceNodeKind, type: String, callSite: CallSite?) -> UInt64 {
        lock.lock(); defer { lock.unlock() }
        next += 1
        table[next] = "\(kind.rawValue) \(type)"
        return next
    }
    func edge(from: UInt64, to: UInt64, relation: TraceRelation) {}
    func step(_ call: TraceCall, from: UInt64, to: UInt64, detail: String?) {}
    func event(node: UInt64, kind: TraceEventKind, value: String?) {}
    func disposed(_ node: UInt64) {}
    func deinitialized(_ node: UInt64) {}
    func anomaly(node: UInt64, _ kind: TraceAnomaly, detail: String) {}
}

/// A thread-safe list.
final class Collected<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ item: T) { lock.lock(); items.append(item); lock.unlock() }
    var all: [T] { lock.lock(); defer { lock.unlock() }; return items }
}

@Suite(.noLeaks)
struct TestableObservableIdentityTests {
    /// As in RxTest, a testable observable hides behind `asObservable()`; subscribing through
    /// the wrapper records the same subscriptions.
    @Test func asObservableIsANewObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(250)])
        let ys = xs.asObservable()
        #expect(xs !== ys)
        #expect(xs.asObservable() !== ys)
        let res = scheduler.start { ys }
        #expect(res.events == [.next(220, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func anObservableIsItsOwnObservable() {
        let xs = Observable.of(1)
        #expect(xs.asObservable() === xs)
    }
}
