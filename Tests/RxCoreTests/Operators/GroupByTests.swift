import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct GroupByTests {
    @Test func splitsByKey() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a1"), .next(220, "b1"), .next(230, "a2"), .completed(300)])
        let res = scheduler.start {
            xs.groupBy { $0.first! }.flatMap { group in group.map { "\(group.key):\($0)" } }
        }
        #expect(res.events == [.next(210, "a:a1"), .next(220, "b:b1"), .next(230, "a:a2"), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func keysAreEmittedOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
        ])
        let res = scheduler.start { xs.groupBy { $0 % 2 == 0 }.map { $0.key } }
        #expect(res.events == [.next(210, false), .next(220, true), .completed(300)])
    }

    @Test func errorsReachGroupsAndOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, opTestError)])
        let res = scheduler.start { xs.groupBy { $0 }.flatMap { $0.materialize() } }
        #expect(res.events == [.next(210, .next(1)), .next(250, .error(opTestError)), .error(250, opTestError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res2 = scheduler2.start {
            ys.groupBy { value -> Int in
                if value == 2 { throw opTestError }
                return value
            }.map { $0.key }
        }
        #expect(res2.events == [.next(210, 1), .error(220, opTestError)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
    }

    @Test func aSubscribedGroupKeepsTheSourceAlive() {
        let subject = PublishSubject<Int>()
        var groups: [GroupedObservable<Bool, Int>] = []
        let outer = subject.groupBy { $0 % 2 == 0 }.subscribe(onNext: { groups.append($0) })
        subject.onNext(1)
        var odds: [Int] = []
        let inner = groups[0].subscribe(onNext: { odds.append($0) })
        outer.dispose()
        subject.onNext(3)
        subject.onNext(4)
        #expect(odds == [3])
        #expect(groups.count == 1)
        inner.dispose()
        #expect(!subject.hasObservers)
        groups = []
    }

    /// A group still subscribed when the source ends does not keep the source: it is let go at
    /// its stop event, as in RxSwift.
    @Test func theSourceIsLetGoWhenItEndsEvenWithGroupsSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, "a1"), .next(230, "b1"), .completed(570)])
        let inner = scheduler.createObserver(String.self)
        var innerSubscriptions: [Disposable] = []
        let res = scheduler.start {
            xs.groupBy { $0.first! }.do(onNext: { innerSubscriptions.append($0.subscribe(inner)) }).map { $0.key }
        }
        #expect(res.events == [.next(220, "a"), .next(230, "b"), .completed(570)])
        #expect(inner.events == [.next(220, "a1"), .next(230, "b1"), .completed(570), .completed(570)])
        #expect(xs.subscriptions == [Subscription(200, 570)])
        innerSubscriptions.forEach { $0.dispose() }
    }

    @Test func anErrorLetsTheSourceGoToo() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, "a1"), .error(570, opTestError)])
        let inner = scheduler.createObserver(String.self)
        var innerSubscriptions: [Disposable] = []
        let res = scheduler.start {
            xs.groupBy { $0.first! }.do(onNext: { innerSubscriptions.append($0.subscribe(inner)) }).map { $0.key }
        }
        #expect(res.events == [.next(220, "a"), .error(570, opTestError)])
        #expect(inner.events == [.next(220, "a1"), .error(570, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 570)])
        innerSubscriptions.forEach { $0.dispose() }
    }

    /// While the source runs, the outer subscription alone does not keep it: disposing the
    /// outer one and every group's lets it go.
    @Test func theSourceIsKeptUntilTheOuterAndEveryGroupAreGone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, "a1"), .next(230, "a2"), .next(600, "a3")])
        let inner = scheduler.createObserver(String.self)
        var innerSubscription: Disposable?
        scheduler.scheduleAt(400) { innerSubscription?.dispose() }
        let res = scheduler.start(disposed: 300) {
            xs.groupBy { $0.first! }.do(onNext: { innerSubscription = $0.subscribe(inner) }).map { $0.key }
        }
        #expect(res.events == [.next(220, "a")])
        #expect(inner.events == [.next(220, "a1"), .next(230, "a2")])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }
}
