import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct WithLatestFromTests {
    @Test func combinesWithTheLatestOfSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(90, 1), .next(180, 2), .next(250, 3), .next(260, 4), .next(310, 5), .next(340, 6),
            .next(410, 7), .next(420, 8), .next(470, 9), .next(550, 10), .completed(590),
        ])
        let ys = scheduler.createHotObservable([
            .next(255, "bar"), .next(330, "foo"), .next(350, "qux"), .completed(400),
        ])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        #expect(
            res.events == [
                .next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo"), .next(410, "7qux"),
                .next(420, "8qux"), .next(470, "9qux"), .next(550, "10qux"), .completed(590),
            ])
        #expect(xs.subscriptions == [Subscription(200, 590)])
        #expect(ys.subscriptions == [Subscription(200, 400)])
    }

    @Test func withoutSelectorEmitsSecondsElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 3), .next(260, 4), .completed(300)])
        let ys = scheduler.createHotObservable([.next(255, "bar")])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        #expect(res.events == [.next(260, "bar"), .completed(300)])
        #expect(ys.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorsOfEitherSideAndThrowingSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(260, 4), .completed(400)])
        let ys = scheduler.createHotObservable([.next(255, "bar"), .error(300, opTestError, String.self)])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        #expect(res.events == [.next(260, "bar"), .error(300, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(260, 4), .error(270, opTestError, Int.self)])
        let ys2 = scheduler2.createHotObservable([.next(255, "bar")])
        let res2 = scheduler2.start { xs2.withLatestFrom(ys2) }
        #expect(res2.events == [.next(260, "bar"), .error(270, opTestError)])
        #expect(ys2.subscriptions == [Subscription(200, 270)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let xs3 = scheduler3.createHotObservable([.next(260, 4), .completed(400)])
        let ys3 = scheduler3.createHotObservable([.next(255, "bar")])
        let res3 = scheduler3.start { xs3.withLatestFrom(ys3) { (_: Int, _: String) -> String in throw opTestError } }
        #expect(res3.events == [.error(260, opTestError)])
    }

    @Test func reentrantSecondUpdatedFromTheHandler() {
        let trigger = PublishSubject<Int>()
        let state = BehaviorSubject(value: "a")
        var received: [String] = []
        let subscription = trigger.withLatestFrom(state) { "\($0)\($1)" }.subscribe(onNext: { value in
            received.append(value)
            state.onNext(value)
        })
        trigger.onNext(1)
        trigger.onNext(2)
        #expect(received == ["1a", "21a"])
        subscription.dispose()
    }
}
