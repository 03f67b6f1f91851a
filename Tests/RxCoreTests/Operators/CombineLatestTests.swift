import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct CombineLatestTests {
    @Test func combinesOnceAllHaveEmitted() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .next(225, 4), .completed(230)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .next(235, 5), .completed(240)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 * 10 + $1 } }
        #expect(res.events == [.next(220, 23), .next(225, 43), .next(235, 45), .completed(240)])
        #expect(e0.subscriptions == [Subscription(200, 230)])
        #expect(e1.subscriptions == [Subscription(200, 240)])
    }

    @Test func neverAndEmptyDoesNotComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        #expect(res.events == [])
        #expect(e0.subscriptions == [Subscription(200, 1000)])
        #expect(e1.subscriptions == [Subscription(200, 210)])
    }

    @Test func emptyEmptyCompletesAndEmptyReturnCompletesEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        #expect(res.events == [.completed(210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let f0 = scheduler2.createHotObservable([.next(150, 1), .completed(210)])
        let f1 = scheduler2.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res2 = scheduler2.start { Observable.combineLatest(f0, f1) { $0 + $1 } }
        // No combination can ever come once f0 ended without a value.
        #expect(res2.events == [.completed(215)])
        #expect(f1.subscriptions == [Subscription(200, 215)])
    }

    @Test func errorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(215, 2), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(220, 3), .error(230, opTestError)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        #expect(res.events == [.next(220, 5), .error(230, opTestError)])
        #expect(e0.subscriptions == [Subscription(200, 230)])
        #expect(e1.subscriptions == [Subscription(200, 230)])
    }

    @Test func resultSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(215, 2), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(220, 3), .completed(400)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { (_: Int, _: Int) -> Int in throw opTestError } }
        #expect(res.events == [.error(220, opTestError)])
        #expect(e0.subscriptions == [Subscription(200, 220)])
    }

    @Test func tuplesOfThreeAndEight() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, "b"), .completed(300)])
        let c = scheduler.createHotObservable([.next(230, true), .next(240, false), .completed(300)])
        let res = scheduler.start { Observable.combineLatest(a, b, c).map { "\($0.0)\($0.1)\($0.2)" } }
        #expect(res.events == [.next(230, "1btrue"), .next(240, "1bfalse"), .completed(300)])

        var sums: [[Int]] = []
        let sources: [Observable<Int>] = (1...8).map { Observable.just($0) }
        _ = Observable.combineLatest(
            sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]
        ) {
            [$0, $1, $2, $3, $4, $5, $6, $7]
        }.subscribe(onNext: { sums.append($0) })
        #expect(sums == [Array(1...8)])
    }

    /// Every arity from 2 to 8, as tuples and with a result selector (RxSwift's
    /// `testCombineLatest_AllCompletedN`): source i sends i + 1 at 210 + i and completes at
    /// 300 + i; the first combination comes with the last source's element, the completion with
    /// the last source's, and each source's subscription ends at its own completion.
    @Test(arguments: 2...8) func everyArity(_ arity: Int) {
        for tuple in [true, false] {
            let scheduler = TestScheduler(initialClock: 0)
            let sources = (0..<arity).map { i in
                scheduler.createHotObservable([.next(150, 0), .next(210 + i, i + 1), .completed(300 + i)])
            }
            let res = scheduler.start { Self.combineLatest(sources, tuple: tuple) }
            #expect(res.events == [.next(209 + arity, arity * (arity + 1) / 2), .completed(299 + arity)])
            #expect(sources.map(\.subscriptions) == (0..<arity).map { [Subscription(200, 300 + $0)] })
        }
    }

    /// `combineLatest` of `s`, summing each combination, as a tuple or with a result selector.
    static func combineLatest(_ s: [TestableObservable<Int>], tuple: Bool) -> Observable<Int> {
        switch (tuple, s.count) {
        case (true, 2): return Observable.combineLatest(s[0], s[1]).map { (a: Int, b: Int) in a + b }
        case (true, 3): return Observable.combineLatest(s[0], s[1], s[2]).map { t in t.0 + t.1 + t.2 }
        case (true, 4): return Observable.combineLatest(s[0], s[1], s[2], s[3]).map { t in t.0 + t.1 + t.2 + t.3 }
        case (true, 5):
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]).map { t in
                [t.0, t.1, t.2, t.3, t.4].reduce(0, +)
            }
        case (true, 6):
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map { t in
                [t.0, t.1, t.2, t.3, t.4, t.5].reduce(0, +)
            }
        case (true, 7):
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { t in
                [t.0, t.1, t.2, t.3, t.4, t.5, t.6].reduce(0, +)
            }
        case (true, _):
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { t in
                [t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7].reduce(0, +)
            }
        case (false, 2): return Observable.combineLatest(s[0], s[1]) { $0 + $1 }
        case (false, 3): return Observable.combineLatest(s[0], s[1], s[2]) { $0 + $1 + $2 }
        case (false, 4): return Observable.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
        case (false, 5): return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
        case (false, 6):
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { $0 + $1 + $2 + $3 + $4 + $5 }
        case (false, 7):
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) {
                $0 + $1 + $2 + $3 + $4 + $5 + $6
            }
        case (false, _):
            return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
                $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7
            }
        }
    }

    @Test func collectionForms() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 2), .completed(250)])
        let c = scheduler.createHotObservable([.next(230, 3), .completed(260)])
        let res = scheduler.start { Observable.combineLatest([a, b, c]) }
        #expect(res.events == [.next(230, [1, 2, 3]), .next(240, [4, 2, 3]), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let x = scheduler2.createHotObservable([.next(210, 1), .completed(300)])
        let y = scheduler2.createHotObservable([.next(220, 2), .completed(300)])
        let summed = scheduler2.start { Observable.combineLatest([x, y]) { $0.reduce(0, +) } }
        #expect(summed.events == [.next(220, 3), .completed(300)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let none = scheduler3.start { Observable<Int>.combineLatest([Observable<Int>]()) }
        // As in RxSwift: no sources still make one (empty) combination before completing.
        #expect(none.events == [.next(200, []), .completed(200)])
        #expect(
            recorded { _ in Observable<Int>.combineLatest([Observable<Int>]()) { $0.count } } == [
                .next(200, 0), .completed(200),
            ])
        let failing = recorded { _ in
            Observable<Int>.combineLatest([Observable<Int>]()) { _ -> Int in throw opTestError }
        }
        #expect(failing == [.error(200, opTestError)])
    }

    @Test func disposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(215, 2)])
        let e1 = scheduler.createHotObservable([.next(220, 3), .next(400, 4)])
        let res = scheduler.start(disposed: 300) { Observable.combineLatest(e0, e1) { $0 + $1 } }
        #expect(res.events == [.next(220, 5)])
        #expect(e0.subscriptions == [Subscription(200, 300)])
        #expect(e1.subscriptions == [Subscription(200, 300)])
    }

    @Test func reentrantSourceFedFromTheHandler() {
        let a = PublishSubject<Int>()
        let b = BehaviorSubject(value: 0)
        var received: [Int] = []
        let subscription = Observable.combineLatest(a, b) { $0 + $1 }.subscribe(onNext: { value in
            received.append(value)
            if value == 1 { b.onNext(10) }
        })
        a.onNext(1)
        a.onNext(2)
        #expect(received == [1, 11, 12])
        subscription.dispose()
    }
}
