import Foundation
import RxCocoa
import RxTesting
import Testing

/// `zip` and `combineLatest` of Drivers and Signals: every arity from two to eight, with and
/// without a selector, and the collection forms.
@Suite(.serialized, .noLeaks)
struct SharedSequenceCombiningTests {
    /// A failing source (1, 2, 2, 3, error at 250, replaced by -1) and a completing one (10, 20,
    /// 30, completed at 245, replaced by -2), each as a Driver.
    private func two<Result: Equatable>(
        _ apply: (Driver<Int>, Driver<Int>) -> Driver<Result>, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Recorded<Event<Result>>] {
        let run = runTwice { scheduler in
            let xs = failingSource(scheduler)
            let ys = completingSource(scheduler)
            return (apply(xs.asDriver(onErrorJustReturn: -1), ys.asDriver(onErrorJustReturn: -2)), [xs, ys])
        }
        #expect(run.first == run.second, sourceLocation: sourceLocation)
        #expect(run.sources == [[Subscription(200, 250)], [Subscription(200, 245)]], sourceLocation: sourceLocation)
        return run.first
    }

    @Test func combineLatestOfTwo() {
        let expected: [Recorded<Event<Int>>] = [
            .next(211, 1010), .next(216, 1020), .next(221, 2020), .next(231, 2020), .next(236, 2030),
            .next(241, 3030), .next(251, -970), .completed(251),
        ]
        #expect(two { Driver.combineLatest($0, $1) { $0 * 1000 + $1 } } == expected)
        #expect(two { Driver.combineLatest($0, $1).map { $0 * 1000 + $1 } } == expected)
    }

    @Test func combineLatestOfACollection() {
        let expected: [Recorded<Event<Int>>] = [
            .next(211, 11), .next(216, 21), .next(221, 22), .next(231, 22), .next(236, 32), .next(241, 33),
            .next(251, 29), .completed(251),
        ]
        #expect(two { Driver.combineLatest([$0, $1]) { $0.reduce(0, +) } } == expected)
        #expect(two { Driver.combineLatest([$0, $1]).map { $0.reduce(0, +) } } == expected)
    }

    @Test func zipOfTwo() {
        let expected: [Recorded<Event<Int>>] = [.next(211, 1010), .next(221, 2020), .next(236, 2030), .completed(251)]
        #expect(two { Driver.zip($0, $1) { $0 * 1000 + $1 } } == expected)
        #expect(two { Driver.zip($0, $1).map { $0 * 1000 + $1 } } == expected)
    }

    @Test func zipOfACollection() {
        let expected: [Recorded<Event<Int>>] = [.next(211, 11), .next(221, 22), .next(236, 32), .completed(251)]
        #expect(two { Driver.zip([$0, $1]) { $0.reduce(0, +) } } == expected)
        #expect(two { Driver.zip([$0, $1]).map { $0.reduce(0, +) } } == expected)
    }

    /// `zip` of sources given one by one ends when every source has ended (the first source's
    /// subscription runs to its own end); `zip` of a collection ends at an element that can never
    /// be paired, as in RxSwift.
    @Test func zipEndsWhenEverySourceHasEndedUnlessGivenACollection() {
        func run(_ zip: (Driver<Int>, Driver<Int>) -> Driver<Int>) -> SharedRun<Int> {
            runTwice { scheduler in
                let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .completed(300)])
                let ys = scheduler.createHotObservable([.next(220, 10), .completed(240)])
                return (zip(xs.asDriver(onErrorJustReturn: -1), ys.asDriver(onErrorJustReturn: -2)), [xs, ys])
            }
        }
        let arguments = run { Driver.zip($0, $1) { $0 * 100 + $1 } }
        #expect(arguments.first == [.next(221, 110), .completed(301)])
        #expect(arguments.sources == [[Subscription(200, 300)], [Subscription(200, 240)]])
        let collection = run { Driver.zip([$0, $1]) { $0[0] * 100 + $0[1] } }
        #expect(collection.first == [.next(221, 110), .completed(261)])
        #expect(collection.sources == [[Subscription(200, 261)], [Subscription(200, 240)]])
    }

    @Test func combineLatestOfThreeEndsWhenAllHaveEnded() {
        let run = runTwice { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
            let ys = scheduler.createHotObservable([.next(220, 10), .next(250, 20), .completed(260)])
            let zs = scheduler.createHotObservable([.next(215, 100), .completed(240)])
            let combined = Driver.combineLatest(
                xs.asDriver(onErrorJustReturn: -1), ys.asDriver(onErrorJustReturn: -2),
                zs.asDriver(onErrorJustReturn: -3)
            ) { $0 + $1 + $2 }
            return (combined, [xs, ys, zs])
        }
        #expect(run.first == [.next(221, 111), .next(251, 121), .completed(261)])
        #expect(run.sources == [[Subscription(200, 230)], [Subscription(200, 260)], [Subscription(200, 240)]])
    }

    // MARK: - Up to eight sources, each of its own type

    /// Eight sources: source i emits i at 200+i and 10·i at 220+i, and completes at 240+2i.
    private func eight<Result: Equatable>(
        _ apply: ([Driver<Int>]) -> Driver<Result>, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (events: [Recorded<Event<Result>>], subscriptions: [[Subscription]]) {
        let run = runTwice { scheduler in
            let sources = (1...8).map { i in
                scheduler.createHotObservable([.next(200 + i, i), .next(220 + i, 10 * i), .completed(240 + 2 * i)])
            }
            return (apply(sources.map { $0.asDriver(onErrorJustReturn: -1) }), sources)
        }
        #expect(run.first == run.second, sourceLocation: sourceLocation)
        return (run.first, run.sources)
    }

    private func subscriptions(count: Int) -> [[Subscription]] {
        (1...count).map { [Subscription(200, 240 + 2 * $0)] } + Array(repeating: [], count: 8 - count)
    }

    @Test func zipOfEight() {
        let zipped = eight { d in
            Driver.zip(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]) { (a, b, c, e, f, g, h, i) -> Int in
                a + b + c + e + f + g + h + i
            }
        }
        #expect(zipped.events == [.next(209, 36), .next(229, 360), .completed(257)])
        #expect(zipped.subscriptions == subscriptions(count: 8))
    }

    @Test func zipOfThreeAsTuples() {
        let zipped = eight { d in Driver.zip(d[0], d[1], d[2]).map { (t: (Int, Int, Int)) in t.0 + t.1 + t.2 } }
        #expect(zipped.events == [.next(204, 6), .next(224, 60), .completed(247)])
        #expect(zipped.subscriptions == subscriptions(count: 3))
    }

    @Test func combineLatestOfEight() {
        let combined = eight { d in
            Driver.combineLatest(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]) { (a, b, c, e, f, g, h, i) -> Int in
                a + b + c + e + f + g + h + i
            }
        }
        #expect(
            combined.events == [
                .next(209, 36), .next(222, 45), .next(223, 63), .next(224, 90), .next(225, 126), .next(226, 171),
                .next(227, 225), .next(228, 288), .next(229, 360), .completed(257),
            ])
        #expect(combined.subscriptions == subscriptions(count: 8))
    }

    @Test func combineLatestOfFiveSignalsAsTuples() {
        let run = runTwice { scheduler in
            let sources = (1...5).map { i in
                scheduler.createHotObservable([.next(200 + i, i), .next(220 + i, 10 * i), .completed(240 + 2 * i)])
            }
            let s = sources.map { $0.asSignal(onErrorJustReturn: -1) }
            let combined: Signal<Int> = Signal.combineLatest(s[0], s[1], s[2], s[3], s[4]).map {
                (t: (Int, Int, Int, Int, Int)) in t.0 + t.1 + t.2 + t.3 + t.4
            }
            return (combined, sources)
        }
        #expect(
            run.first == [
                .next(206, 15), .next(222, 24), .next(223, 42), .next(224, 69), .next(225, 105), .next(226, 150),
                .completed(251),
            ])
        #expect(run.second == run.first)
    }

    /// Sources of different element types, as a form combines them.
    @Test func combineLatestOfDifferentTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(String.self)
        let names = scheduler.createHotObservable([.next(210, "ann"), .next(230, "bob")])
        let ages = scheduler.createHotObservable([.next(220, 30)])
        let admins = scheduler.createHotObservable([.next(215, false), .next(240, true)])
        SharingScheduler.mock(scheduler: scheduler) {
            let summary = Driver.combineLatest(
                names.asDriver(onErrorJustReturn: ""), ages.asDriver(onErrorJustReturn: 0),
                admins.asDriver(onErrorJustReturn: false)
            ) { name, age, admin in "\(name) \(age)\(admin ? " admin" : "")" }
            var subscription: Disposable?
            scheduler.scheduleAt(200) { subscription = summary.drive(observer) }
            scheduler.scheduleAt(300) { subscription?.dispose() }
            scheduler.start()
        }
        #expect(observer.events == [.next(221, "ann 30"), .next(231, "bob 30"), .next(241, "bob 30 admin")])
    }

    /// A type of one's own that converts to a Driver (as an activity indicator does) combines like
    /// a Driver.
    @Test func combinesATypeOfOnesOwn() {
        struct Loading: SharedSequenceConvertibleType {
            typealias Element = Bool
            typealias SharingStrategy = DriverSharingStrategy
            let relay: BehaviorRelay<Bool>
            func asSharedSequence() -> Driver<Bool> { relay.asDriver() }
        }
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Bool.self)
        let valid = scheduler.createHotObservable([.next(210, true), .next(240, false)])
        let loading = Loading(relay: BehaviorRelay(value: false))
        SharingScheduler.mock(scheduler: scheduler) {
            let enabled = Driver.combineLatest(valid.asDriver(onErrorJustReturn: false), loading) { $0 && !$1 }
            var subscription: Disposable?
            scheduler.scheduleAt(200) { subscription = enabled.drive(observer) }
            scheduler.scheduleAt(300) { subscription?.dispose() }
            scheduler.scheduleAt(220) { loading.relay.accept(true) }
            scheduler.scheduleAt(230) { loading.relay.accept(false) }
            scheduler.start()
        }
        #expect(
            observer.events == [.next(211, true), .next(221, false), .next(231, true), .next(241, false)])
    }
}
