import Foundation
import RxCocoa
import RxTesting
import Testing

/// A trait of one's own: shares while connected, replaying the last two elements to a late
/// subscriber.
struct ReplayTwoStrategy: SharingStrategyProtocol {
    static var scheduler: SchedulerType { SharingScheduler.make() }
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 2, scope: .whileConnected)
    }
}

typealias Remembered<Element> = SharedSequence<ReplayTwoStrategy, Element>

@Suite(.serialized, .noLeaks)
struct SharingStrategyTests {
    @Test func aStrategyOfOnesOwnGetsTheWholeOperatorSet() {
        let scheduler = TestScheduler(initialClock: 0)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .error(240, testError)])
        SharingScheduler.mock(scheduler: scheduler) {
            let remembered: Remembered<Int> = xs.asSharedSequence(onErrorJustReturn: -1).map { $0 * 10 }
            scheduler.scheduleAt(200) { _ = remembered.asObservable().subscribe(early) }
            scheduler.scheduleAt(235) { _ = remembered.asObservable().subscribe(late) }
            scheduler.start()
        }
        #expect(early.events == [.next(211, 10), .next(221, 20), .next(231, 30), .next(241, -10), .completed(241)])
        #expect(late.events == [.next(235, 20), .next(235, 30), .next(241, -10), .completed(241)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func asSharedSequenceEveryForm() {
        let justReturn = runTwice { scheduler in
            let xs = failingSource(scheduler)
            let signal: Signal<Int> = xs.asSharedSequence(onErrorJustReturn: -1)
            return (signal, [xs])
        }
        #expect(
            justReturn.first == [
                .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .next(251, -1), .completed(251),
            ])
        let driveWith = runTwice { scheduler in
            let xs = failingSource(scheduler)
            return (xs.asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorDriveWith: .just(-2)), [xs])
        }
        #expect(driveWith.first.suffix(2) == [.next(252, -2), .completed(252)])
        let recover = runTwice { scheduler in
            let xs = failingSource(scheduler)
            let signal: Signal<Int> = xs.asSharedSequence(onErrorRecover: { _ in .just(-3) })
            return (signal, [xs])
        }
        #expect(recover.first.suffix(2) == [.next(252, -3), .completed(252)])
        #expect(recover.sources == [[Subscription(200, 250)]])
    }

    /// `values`: the elements with `for await`, on the main actor.
    @Test func valuesAreReadWithForAwait() async {
        let driver = Driver.from(1...10)
        var values: [Int] = []
        for await value in await driver.values { values.append(value) }
        #expect(values == Array(1...10))
    }

    @Test func cancellingTheReadingTaskDisposesTheSubscription() async {
        let disposed = Collected<Bool>()
        let driver = Driver<Int>.never().do(onDispose: { disposed.append(true) })
        let task = Task { @MainActor in
            for await _ in driver.values {}
            return Task.isCancelled
        }
        try? await Task.sleep(nanoseconds: 20_000_000)
        task.cancel()
        #expect(await task.value)
        #expect(await eventually { disposed.all == [true] })
    }
}
