import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct AmbTests {
    @Test func theFirstToSpeakWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(240, 3), .completed(250)])
        let x2 = scheduler.createHotObservable([.next(150, 1), .next(220, 20), .next(230, 30), .completed(300)])
        let res = scheduler.start { x1.amb(x2) }
        #expect(res.events == [.next(210, 2), .next(240, 3), .completed(250)])
        #expect(x1.subscriptions == [Subscription(200, 250)])
        #expect(x2.subscriptions == [Subscription(200, 210)])
    }

    @Test func anErrorCanWinAndSecondCanWin() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(230, 2), .completed(250)])
        let x2 = scheduler.createHotObservable([.error(220, opTestError, Int.self)])
        let res = scheduler.start { x1.amb(x2) }
        #expect(res.events == [.error(220, opTestError)])
        #expect(x1.subscriptions == [Subscription(200, 220)])
        #expect(x2.subscriptions == [Subscription(200, 220)])
    }

    @Test func staticAmbOfThree() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(230, 1), .completed(300)])
        let x2 = scheduler.createHotObservable([.next(220, 2), .next(260, 22), .completed(280)])
        let x3 = scheduler.createHotObservable([.next(225, 3), .completed(300)])
        let res = scheduler.start { Observable.amb([x1.asObservable(), x2.asObservable(), x3.asObservable()]) }
        #expect(res.events == [.next(220, 2), .next(260, 22), .completed(280)])
        #expect(x1.subscriptions == [Subscription(200, 220)])
        #expect(x2.subscriptions == [Subscription(200, 280)])
        #expect(x3.subscriptions == [Subscription(200, 220)])
    }

    @Test func neverAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(150, 1)])
        let x2 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start(disposed: 400) { x1.amb(x2) }
        #expect(res.events == [])
        #expect(x1.subscriptions == [Subscription(200, 400)])
        #expect(x2.subscriptions == [Subscription(200, 400)])
    }

    @Test func synchronousWinnerNeverSubscribesLosersForLong() {
        let never = Observable<Int>.never()
        var received: [Int] = []
        _ = Observable.just(1).amb(never).subscribe(onNext: { received.append($0) })
        #expect(received == [1])
    }
}
