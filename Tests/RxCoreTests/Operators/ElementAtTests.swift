import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct ElementAtTests {
    @Test func elementAtEmitsThatElementAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.element(at: 1) }
        #expect(res.events == [.next(220, 3), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func elementAtBeyondTheEndFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let res = scheduler.start { xs.element(at: 3) }
        #expect(res.events == [.error(300, RxError.argumentOutOfRange)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 2), .error(300, opTestError, Int.self)])
        let res2 = scheduler2.start { ys.element(at: 3) }
        #expect(res2.events == [.error(300, opTestError)])
    }

    @Test func firstEmitsTheFirstOrNil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.first().asObservable() }
        #expect(res.events == [.next(210, 2), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.completed(300, Int.self)])
        let empty = scheduler2.start { ys.first().asObservable() }
        #expect(empty.events == [.next(300, nil), .completed(300)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let zs = scheduler3.createHotObservable([.error(300, opTestError, Int.self)])
        let failed = scheduler3.start { zs.first().asObservable() }
        #expect(failed.events == [.error(300, opTestError)])
    }

    @Test func singlePassesTheOnlyElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
        let res = scheduler.start { xs.single() }
        #expect(res.events == [.next(210, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func singleFailsOnEmptyOrSecondElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(300, Int.self)])
        let empty = scheduler.start { xs.single() }
        #expect(empty.events == [.error(300, RxError.noElements)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 2), .next(220, 3), .completed(300)])
        let many = scheduler2.start { ys.single() }
        #expect(many.events == [.next(210, 2), .error(220, RxError.moreThanOneElement)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
    }

    @Test func singleWithPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.single { $0 == 2 } }
        #expect(res.events == [.next(220, 2), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let throwing = scheduler2.start { ys.single { (_: Int) -> Bool in throw opTestError } }
        #expect(throwing.events == [.error(210, opTestError)])
    }
}
