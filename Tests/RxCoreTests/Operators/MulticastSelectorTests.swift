import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct MulticastSelectorTests {
    @Test func theSelectorsUsesShareOneSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(240, 2), .next(270, 3), .completed(390),
        ])
        var subjects = 0
        let res = scheduler.start {
            xs.multicast(
                {
                    subjects += 1
                    return PublishSubject<Int>()
                },
                selector: { shared in Observable.zip(shared, shared.skip(1)) { $0 * 10 + $1 } })
        }
        #expect(res.events == [.next(240, 12), .next(270, 23), .completed(390)])
        #expect(xs.subscriptions == [Subscription(200, 390)])
        #expect(subjects == 1)
    }

    @Test func eachSubscriberGetsItsOwnSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        var subjects = 0
        let multicast = xs.multicast(
            {
                subjects += 1
                return ReplaySubject<Int>.createUnbounded()
            }, selector: { $0.map { $0 * 2 } })
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = multicast.subscribe(first) }
        scheduler.scheduleAt(150) { _ = multicast.subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(110, 2), .completed(120)])
        #expect(second.events == [.next(160, 2), .completed(170)])
        #expect(xs.subscriptions == [Subscription(100, 120), Subscription(150, 170)])
        #expect(subjects == 2)
    }

    @Test func errorsAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, opTestError)])
        #expect(
            scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }.events
                == [.next(210, 1), .error(250, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])

        let disposed = TestScheduler(initialClock: 0)
        let ys = disposed.createHotObservable([.next(210, 1), .next(300, 2)])
        #expect(
            disposed.start(disposed: 250) { ys.multicast({ PublishSubject<Int>() }, selector: { $0 }) }.events
                == [.next(210, 1)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }

    @Test func throwingSelectorsFail() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let badSubject = scheduler.start {
            xs.multicast({ () throws -> PublishSubject<Int> in throw opTestError }, selector: { $0 })
        }
        #expect(badSubject.events == [.error(200, opTestError)])
        #expect(xs.subscriptions == [])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1)])
        let badSelector = other.start {
            ys.multicast({ PublishSubject<Int>() }, selector: { _ -> Observable<Int> in throw opTestError })
        }
        #expect(badSelector.events == [.error(200, opTestError)])
        #expect(ys.subscriptions == [])
    }
}
