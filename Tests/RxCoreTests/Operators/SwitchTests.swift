import RxTesting
import Testing

@testable import RxCore

@Suite(.serialized, .noLeaks)
struct SwitchTests {
    @Test func flatMapLatestDisposesThePreviousInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 101), .next(20, 102), .next(110, 103), .completed(200)])
        let ys2 = scheduler.createColdObservable([.next(10, 201), .next(20, 202), .completed(50)])
        let xs = scheduler.createHotObservable([.next(300, 1), .next(400, 2), .completed(500)])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? ys1 : ys2 } }
        #expect(res.events == [.next(310, 101), .next(320, 102), .next(410, 201), .next(420, 202), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
        #expect(ys1.subscriptions == [Subscription(300, 400)])
        #expect(ys2.subscriptions == [Subscription(400, 450)])
    }

    @Test func outerCompletionWaitsForTheLatestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(150)])
        let xs = scheduler.createHotObservable([.next(210, ys), .completed(250)])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.next(220, 1), .next(310, 2), .completed(360)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(210, 360)])
    }

    @Test func innerErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1), .error(20, opTestError, Int.self)])
        let xs = scheduler.createHotObservable([.next(210, ys), .completed(500)])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.next(220, 1), .error(230, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(210, 230)])
    }

    @Test func outerErrorDisposesTheInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1), .next(200, 2)])
        let xs = scheduler.createHotObservable([.next(210, ys), .error(250, opTestError, TestableObservable<Int>.self)])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.next(220, 1), .error(250, opTestError)])
        #expect(ys.subscriptions == [Subscription(210, 250)])
    }

    @Test func selectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(500)])
        let res = scheduler.start {
            xs.flatMapLatest { value -> TestableObservable<Int> in
                if value == 2 { throw opTestError }
                return ys
            }
        }
        #expect(res.events == [.next(220, 1), .error(250, opTestError)])
        #expect(ys.subscriptions == [Subscription(210, 250)])
    }

    @Test func disposalDisposesOuterAndInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1), .next(200, 2)])
        let xs = scheduler.createHotObservable([.next(210, ys)])
        let res = scheduler.start(disposed: 300) { xs.switchLatest() }
        #expect(res.events == [.next(220, 1)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(210, 300)])
    }

    @Test func outerCompletesWithNoInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250, TestableObservable<Int>.self)])
        let res = scheduler.start { xs.switchLatest() }
        #expect(res.events == [.completed(250)])
    }

    @Test func reentrantSwitchDropsTheStaleInner() {
        // A new outer element sent from inside the current inner's element switches away from it:
        // the rest of the old inner is not delivered.
        let subject = PublishSubject<Int>()
        let log = EventLog<Int>()
        let subscription = subject.flatMapLatest { Observable.of($0 * 10, $0 * 10 + 1) }
            .subscribe { event in
                log.events.append(event)
                if event.element == 10 { subject.onNext(2) }
            }
        subject.onNext(1)
        subject.onCompleted()
        #expect(log.elements == [10, 20, 21])
        #expect(log.isCompleted)
        subscription.dispose()
    }

    @Test func stateMachineIgnoresStaleInners() {
        var machine = SwitchStateMachine()
        guard case .subscribeInner(let first) = machine.outerNext() else { Issue.record("expected subscribe"); return }
        guard case .subscribeInner(let second) = machine.outerNext() else { Issue.record("expected subscribe"); return }
        if case .forward = machine.innerNext(id: first) { Issue.record("stale inner forwarded") }
        if case .none = machine.innerCompleted(id: first) {} else { Issue.record("stale completion acted on") }
        if case .disposeOuter = machine.outerCompleted() {} else { Issue.record("expected disposeOuter") }
        if case .complete = machine.innerCompleted(id: second) {} else { Issue.record("expected complete") }
    }
}
