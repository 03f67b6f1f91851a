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

    /// The forms with the sources as arguments wait for every source's own completion, even
    /// after an element arrives that can never be paired (RxSwift's `Zip+arity.swift`); each
    /// source's subscription ends at its own completion.
    @Test func pairsByIndexAndCompletesWhenEverySourceHas() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(230)])
        let e1 = scheduler.createHotObservable([
            .next(150, 0), .next(215, 10), .next(240, 20), .next(250, 30), .completed(260),
        ])
        let res = scheduler.start { Observable.zip(e0, e1) { $0 + $1 } }
        #expect(res.events == [.next(215, 11), .next(240, 22), .completed(260)])
        #expect(e0.subscriptions == [Subscription(200, 230)])
        #expect(e1.subscriptions == [Subscription(200, 260)])
    }

    /// The collection form ends at the element that can never be paired (RxSwift's
    /// `Zip+Collection.swift`): the same sources as above complete at 250.
    @Test func collectionFormEndsWhenAnElementCanNeverBePaired() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(230)])
        let e1 = scheduler.createHotObservable([
            .next(150, 0), .next(215, 10), .next(240, 20), .next(250, 30), .completed(260),
        ])
        let res = scheduler.start { Observable.zip([e0, e1]) { $0[0] + $0[1] } }
        #expect(res.events == [.next(215, 11), .next(240, 22), .completed(250)])
        #expect(e0.subscriptions == [Subscription(200, 230)])
        #expect(e1.subscriptions == [Subscription(200, 250)])
    }

    /// Every arity from 2 to 8, as tuples and with a result selector (RxSwift's
    /// `testZip_AllCompletedN`): the sources but the last complete at 220, the last sends an
    /// element at 230 that can never be paired and completes at 240. The zip completes at 240;
    /// the collection form of the same sources at 230.
    @Test(arguments: 2...8) func everyArityWaitsForEverySource(_ arity: Int) {
        for form in ZipForm.allCases {
            let scheduler = TestScheduler(initialClock: 0)
            let sources = (0..<arity).map { i in
                scheduler.createHotObservable(
                    i < arity - 1
                        ? [.next(150, 1), .next(210, i + 1), .completed(220)]
                        : [.next(150, 1), .next(210, i + 1), .next(230, 100), .completed(240)])
            }
            let res = scheduler.start { form.zip(sources) }
            let sum = arity * (arity + 1) / 2
            let end = form == .collection ? 230 : 240
            #expect(res.events == [.next(210, sum), .completed(end)], "\(form) of \(arity)")
            #expect(
                sources.map(\.subscriptions)
                    == (0..<arity).map { [Subscription(200, $0 < arity - 1 ? 220 : end)] }, "\(form) of \(arity)")
        }
    }

    /// The three ways of writing a zip, for `everyArityWaitsForEverySource`; each sums the
    /// elements it pairs.
    enum ZipForm: CaseIterable {
        case tuple, resultSelector, collection

        func zip(_ s: [TestableObservable<Int>]) -> Observable<Int> {
            switch (self, s.count) {
            case (.collection, _): return Observable.zip(s) { $0.reduce(0, +) }
            case (.tuple, 2): return Observable.zip(s[0], s[1]).map { (a: Int, b: Int) in a + b }
            case (.tuple, 3): return Observable.zip(s[0], s[1], s[2]).map { (a: Int, b: Int, c: Int) in a + b + c }
            case (.tuple, 4):
                return Observable.zip(s[0], s[1], s[2], s[3]).map { (a: Int, b: Int, c: Int, d: Int) in a + b + c + d }
            case (.tuple, 5):
                return Observable.zip(s[0], s[1], s[2], s[3], s[4]).map { t in [t.0, t.1, t.2, t.3, t.4].reduce(0, +) }
            case (.tuple, 6):
                return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { t in
                    [t.0, t.1, t.2, t.3, t.4, t.5].reduce(0, +)
                }
            case (.tuple, 7):
                return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { t in
                    [t.0, t.1, t.2, t.3, t.4, t.5, t.6].reduce(0, +)
                }
            case (.tuple, _):
                return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { t in
                    [t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7].reduce(0, +)
                }
            case (.resultSelector, 2): return Observable.zip(s[0], s[1]) { $0 + $1 }
            case (.resultSelector, 3): return Observable.zip(s[0], s[1], s[2]) { $0 + $1 + $2 }
            case (.resultSelector, 4): return Observable.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
            case (.resultSelector, 5): return Observable.zip(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
            case (.resultSelector, 6):
                return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { $0 + $1 + $2 + $3 + $4 + $5 }
            case (.resultSelector, 7):
                return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
            case (.resultSelector, _):
                return Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
                    $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7
                }
            }
        }
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

    /// RxAnatomy addition (the tuple form is one parameter pack): more than eight sources pair
    /// as well, and a zip of no source completes at once (as the collection form's does).
    @Test func tupleFormOfNineOrNoSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let none = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { Observable.zip().map { "()" } }
        #expect(none.events == [.completed(1200)])
        var nines: [Int] = []
        let s = (1...9).map { Observable.just($0) }
        _ = Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]).subscribe(onNext: { t in
            nines.append(t.0 + t.8)
        })
        #expect(nines == [10])
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
