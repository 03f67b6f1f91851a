import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct StartWithTests {
    @Test func emitsThePrefixOnSubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.startWith(8, 9) }
        #expect(res.events == [.next(200, 8), .next(200, 9), .next(220, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func prefixThenErrorAndChaining() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(250, opTestError, Int.self)])
        let res = scheduler.start { xs.startWith(1).startWith(0) }
        #expect(res.events == [.next(200, 0), .next(200, 1), .error(250, opTestError)])
    }

    @Test func disposingInsideThePrefixStopsIt() {
        var received: [Int] = []
        var subscription: Disposable?
        subscription = Observable.of(10).startWith(1, 2, 3).take(2).subscribe(onNext: { received.append($0) })
        #expect(received == [1, 2])
        subscription?.dispose()
    }
}
