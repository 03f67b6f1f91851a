import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct SampleTests {
    @Test func samplesTheLatestNewElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6), .next(360, 7),
            .completed(400),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), .completed(500),
        ])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(320, 6), .next(500, 7), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(ys.subscriptions == [Subscription(200, 500)])
    }

    @Test func defaultValueFillsEmptyTicks() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6), .completed(400),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), .completed(500),
        ])
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        #expect(
            res.events == [.next(210, 0), .next(250, 3), .next(260, 0), .next(320, 6), .next(500, 0), .completed(500)])
    }

    @Test func completesAtTheFirstTickAfterTheSourceEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .completed(300),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), .completed(500),
        ])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(320, 4), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 320)])
    }

    @Test func errorsOfEitherSide() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(220, 2), .next(240, 3), .next(300, 5), .error(320, opTestError, Int.self),
        ])
        let ys = scheduler.createHotObservable([.next(250, "foo"), .next(300, "baz"), .completed(400)])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(300, 5), .error(320, opTestError)])
        #expect(ys.subscriptions == [Subscription(200, 320)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(240, 3), .completed(400)])
        let ys2 = scheduler2.createHotObservable([.next(250, "foo"), .error(320, opTestError, String.self)])
        let res2 = scheduler2.start { xs2.sample(ys2) }
        #expect(res2.events == [.next(250, 3), .error(320, opTestError)])
        #expect(xs2.subscriptions == [Subscription(200, 320)])
    }

    @Test func disposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .completed(400)])
        let ys = scheduler.createHotObservable([.next(250, "foo"), .next(350, "bar")])
        let res = scheduler.start(disposed: 300) { xs.sample(ys) }
        #expect(res.events == [.next(250, 2)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 300)])
    }
}
