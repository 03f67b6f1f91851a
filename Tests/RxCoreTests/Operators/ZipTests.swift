import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct ZipTests {
    /// A source that stays one element ahead of the other (its queue never empties) does not
    /// make zip keep every element it has already paired.
    @Test func letsGoOfPairedElementsWhileOneSourceStaysAhead() {
        let live = LiveTokens()
        let ahead = PublishSubject<Token>()
        let behind = PublishSubject<Int>()
        var pairs = 0
        let subscription = Observable.zip(ahead, behind).subscribe(onNext: { _ in pairs += 1 })
        ahead.onNext(Token(live))
        for i in 0..<10_000 {
            ahead.onNext(Token(live))
            behind.onNext(i)
        }
        #expect(pairs == 10_000)
        // The one waiting and at most a few dozen paired ones not yet dropped, not 10,001.
        #expect(live.count <= 64)
        subscription.dispose()
        #expect(live.count == 0)
    }

    @Test func pairsByIndexAndEndsWhenAnElementCanNeverBePaired() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(230)])
        let e1 = scheduler.createHotObservable([
            .next(150, 0), .next(215, 10), .next(240, 20), .next(250, 30), .completed(260),
        ])
        let res = scheduler.start { Observable.zip(e0, e1) { $0 + $1 } }
        // 30 at 250 has no partner left (e0 is done and drained): RxSwift completes there.
        #expect(res.events == [.next(215, 11), .next(240, 22), .completed(250)])
        #expect(e0.subscriptions == [Subscription(200, 230)])
        #expect(e1.subscriptions == [Subscription(200, 250)])
    }

    @Test func completesWhenEverySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let e1 = scheduler.createHotObservable([.next(220, 10), .completed(260)])
        let res = scheduler.start { Observable.zip(e0, e1) { $0 + $1 } }
        #expect(res.events == [.next(220, 11), .completed(260)])
        #expect(e0.subscriptions == [Subscription(200, 230)])
        #expect(e1.subscriptions == [Subscription(200, 260)])
    }

    /// RxSwift's asymmetric case: the last source to send an element that cannot be paired
    /// ends the zip, once the others are done.
    @Test func asymmetricCollectionEndsAtTheUnpairableElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(270)])
        let e1 = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 5), .next(290, 7), .next(310, 9), .completed(410),
        ])
        let e2 = scheduler.createHotObservable([
            .next(150, 1), .next(230, 3), .next(260, 6), .next(280, 8), .completed(300),
        ])
        let res = scheduler.start { Observable.zip([e0, e1, e2]) }
        #expect(res.events == [.next(230, [1, 2, 3]), .next(260, [4, 5, 6]), .completed(310)])
        #expect(e0.subscriptions == [Subscription(200, 270)])
        #expect(e1.subscriptions == [Subscription(200, 310)])
        #expect(e2.subscriptions == [Subscription(200, 300)])
    }

    @Test func neverAndEmptyNeverCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.zip(e0, e1) { $0 + $1 } }
        #expect(res.events == [])
        #expect(e1.subscriptions == [Subscription(200, 210)])
        #expect(e0.subscriptions == [Subscription(200, 1000)])
    }

    @Test func errorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let e1 = scheduler.createHotObservable([.error(220, opTestError, Int.self)])
        let res = scheduler.start { Observable.zip(e0, e1) { $0 + $1 } }
        #expect(res.events == [.error(220, opTestError)])
        #expect(e0.subscriptions == [Subscription(200, 220)])
    }

    @Test func resultSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(220, 1), .next(240, 2), .completed(400)])
        let res = scheduler.start {
            Observable.zip(e0, e1) { a, b -> Int in
                if a == 2 { throw opTestError }
                return a + b
            }
        }
        #expect(res.events == [.next(220, 2), .error(240, opTestError)])
        #expect(e1.subscriptions == [Subscription(200, 240)])
    }

    @Test func tuplesAndArityEight() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, "x"), .next(225, "y"), .completed(300)])
        let res = scheduler.start { Observable.zip(a, b).map { "\($0.0)\($0.1)" } }
        #expect(res.events == [.next(220, "1x"), .next(225, "2y"), .completed(300)])

        var results: [[Int]] = []
        let sources = (0..<8).map { offset in Observable.of(offset, offset + 10) }
        _ = Observable.zip(
            sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]
        ) {
            [$0, $1, $2, $3, $4, $5, $6, $7]
        }.subscribe(onNext: { results.append($0) })
        #expect(results == [Array(0..<8), Array(10..<18)])
    }

    @Test func collectionForms() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(230, 5), .completed(250)])
        let res = scheduler.start { Observable.zip([a, b]) }
        #expect(res.events == [.next(220, [1, 2]), .next(240, [4, 5]), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let x = scheduler2.createHotObservable([.next(210, 1), .completed(300)])
        let y = scheduler2.createHotObservable([.next(220, 2), .completed(300)])
        let summed = scheduler2.start { Observable.zip([x, y]) { $0.reduce(0, +) } }
        #expect(summed.events == [.next(220, 3), .completed(300)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let none = scheduler3.start { Observable<Int>.zip([Observable<Int>]()) }
        #expect(none.events == [.completed(200)])
    }

    @Test func disposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(400, 2)])
        let e1 = scheduler.createHotObservable([.next(220, 1), .next(410, 2)])
        let res = scheduler.start(disposed: 300) { Observable.zip(e0, e1) { $0 + $1 } }
        #expect(res.events == [.next(220, 2)])
        #expect(e0.subscriptions == [Subscription(200, 300)])
        #expect(e1.subscriptions == [Subscription(200, 300)])
    }

    @Test func reentrantZipOfASubjectWithItself() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = Observable.zip(subject, subject.map { $0 * 10 }) { $0 + $1 }.subscribe(onNext: { value in
            received.append(value)
            if value < 30 { subject.onNext(value / 11 + 1) }
        })
        subject.onNext(1)
        #expect(received == [11, 22, 33])
        subscription.dispose()
    }
}
