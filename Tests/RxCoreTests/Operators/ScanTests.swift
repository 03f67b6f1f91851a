import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct ScanTests {
    @Test func scanEmitsEachIntermediateResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.scan(10) { $0 + $1 } }
        #expect(res.events == [.next(210, 12), .next(220, 15), .next(230, 19), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func scanIntoMutatesInPlace() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.scan(into: [Int]()) { $0.append($1) } }
        #expect(res.events == [.next(210, [1]), .next(220, [1, 2]), .completed(300)])
    }

    @Test func scanAccumulatorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start {
            xs.scan(0) { acc, value in
                if value == 2 { throw opTestError }
                return acc + value
            }
        }
        #expect(res.events == [.next(210, 1), .error(220, opTestError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func scanStateIsPerSubscription() {
        let source = Observable.of(1, 2, 3).scan(0, accumulator: +)
        var first: [Int] = []
        var second: [Int] = []
        _ = source.subscribe(onNext: { first.append($0) })
        _ = source.subscribe(onNext: { second.append($0) })
        #expect(first == [1, 3, 6])
        #expect(second == [1, 3, 6])
    }

    @Test func reduceEmitsTheTotalOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        #expect(res.events == [.next(250, 47), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func reduceWithMapResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.reduce(0, accumulator: +, mapResult: { "sum \($0)" }) }
        #expect(res.events == [.next(250, "sum 5"), .completed(250)])
    }

    @Test func reduceOfEmptyEmitsTheSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250, Int.self)])
        let res = scheduler.start { xs.reduce(7, accumulator: +) }
        #expect(res.events == [.next(250, 7), .completed(250)])
    }

    @Test func reduceErrorsAndThrowingMapResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, opTestError, Int.self)])
        let res = scheduler.start { xs.reduce(0, accumulator: +) }
        #expect(res.events == [.error(220, opTestError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(310, 2), .completed(320)])
        let res2 = scheduler2.start(created: 300, subscribed: 300, disposed: 1000) {
            ys.reduce(0, accumulator: +, mapResult: { _ -> Int in throw opTestError })
        }
        #expect(res2.events == [.error(320, opTestError)])
        #expect(ys.subscriptions == [Subscription(300, 320)])
    }

    @Test func toArrayCollectsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.toArray().asObservable() }
        #expect(res.events == [.next(250, [2, 3]), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func toArrayDisposedBeforeCompletionEmitsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(400)])
        let res = scheduler.start(disposed: 300) { xs.toArray().asObservable() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }
}
