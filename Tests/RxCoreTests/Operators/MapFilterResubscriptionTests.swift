import Foundation
import RxCore
import RxTesting
import Testing

/// `map` and `filter` keep a runner for the first kind of observer they run for (see
/// Core/SinkRunner.swift): later subscriptions with that kind take it, others the plain path.
/// Both must behave the same, subscription after subscription.
@Suite(.serialized, .noLeaks)
struct MapFilterResubscriptionTests {
    /// An observer of a type of its own, so the producers see a second kind of observer.
    final class Collecting: ObserverType {
        var events: [Event<Int>] = []
        func on(_ event: Event<Int>) { events.append(event) }
    }

    @Test func theSameChainSubscribedManyTimesWithTwoKindsOfObserver() {
        let chain = Observable.of(1, 2, 3, 4).map { $0 * 10 }.filter { $0 != 20 }.map { $0 + 1 }
        for round in 0..<5 {
            var seen: [Int] = []
            var completed = false
            chain.subscribe(onNext: { seen.append($0) }, onCompleted: { completed = true }).dispose()
            #expect(seen == [11, 31, 41], "round \(round), closure observer")
            #expect(completed)

            let collecting = Collecting()
            chain.subscribe(collecting).dispose()
            #expect(collecting.events == [.next(11), .next(31), .next(41), .completed], "round \(round), own observer")
        }
    }

    @Test func errorsAndDisposalThroughTheKeptRunner() {
        struct Boom: Error {}
        let subject = PublishSubject<Int>()
        let chain = subject.map { value -> Int in
            if value < 0 { throw Boom() }
            return value * 2
        }.filter { $0 > 2 }
        // The first subscription keeps the runner; the next ones use it.
        for _ in 0..<3 {
            var values: [Int] = []
            var failed = false
            let subscription = chain.subscribe(onNext: { values.append($0) }, onError: { _ in failed = true })
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(-1)
            subject.onNext(3)
            subscription.dispose()
            #expect(values == [4])
            #expect(failed)
        }
        var afterDispose: [Int] = []
        let subscription = chain.subscribe(onNext: { afterDispose.append($0) })
        subject.onNext(5)
        subscription.dispose()
        subject.onNext(6)
        #expect(afterDispose == [10])
        #expect(!subject.hasObservers)
    }

}

/// In `make tsan` (its filter is "Stress").
@Suite(.serialized, .noLeaks)
struct SinkRunnerStressTests {
    /// Many threads subscribing the same fresh chain at once race to keep its runner: each
    /// subscription still gets every element, and nothing leaks.
    @Test func concurrentFirstSubscriptions() {
        for _ in 0..<20 {
            let chain = Observable.range(start: 1, count: 10).map { $0 * 2 }.filter { $0 % 4 == 0 }
            let sums = Collected<Int>()
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                var sum = 0
                chain.subscribe(onNext: { sum += $0 }).dispose()
                sums.append(sum)
            }
            #expect(sums.all == Array(repeating: 4 + 8 + 12 + 16 + 20, count: 8))
        }
    }
}
