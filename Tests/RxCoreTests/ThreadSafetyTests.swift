import Dispatch
import Foundation
import RxCore
import RxTesting
import Testing

/// Checks the grammar `next* (error | completed)?` of a log: at most one stop event, last.
private func followsGrammar<T>(_ events: [Event<T>]) -> Bool {
    guard let stop = events.firstIndex(where: \.isStopEvent) else { return true }
    return stop == events.count - 1
}

@Suite(.serialized, .noLeaks)
struct ThreadSafetyTests {
    static let threads = 8
    static let perThread = 2_000

    @Test func publishSubjectFedFromManyThreads() {
        let subject = PublishSubject<Int>()
        let log = EventLog<Int>()
        let subscription = subject.subscribe(log)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<Self.perThread { subject.onNext(thread * Self.perThread + i) }
        }
        subject.onCompleted()
        let events = log.events
        #expect(events.count == Self.threads * Self.perThread + 1)
        #expect(followsGrammar(events))
        let elements = Set(events.compactMap(\.element))
        #expect(elements.count == Self.threads * Self.perThread, "every element arrives exactly once")
        subscription.dispose()
    }

    @Test func subscribeAndDisposeRacingWithEvents() {
        let subject = PublishSubject<Int>()
        let received = Collected<Int>()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread % 2 == 0 {
                for i in 0..<Self.perThread { subject.onNext(i) }
            } else {
                for _ in 0..<200 {
                    let subscription = subject.subscribe(onNext: { received.append($0) })
                    subscription.dispose()
                }
            }
        }
        #expect(!subject.hasObservers, "every subscription was removed")
        // No event may arrive after its subscription's dispose() returned.
        let before = received.count
        subject.onNext(-1)
        #expect(received.count == before)
    }

    @Test func disposeRacingWithEventsThroughOperators() {
        for _ in 0..<50 {
            let subject = PublishSubject<Int>()
            let log = EventLog<Int>()
            let subscription = subject.map { $0 * 2 }.filter { $0 >= 0 }.subscribe(log)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                if thread == 0 {
                    subscription.dispose()
                } else {
                    for i in 0..<500 { subject.onNext(i) }
                }
            }
            #expect(!subject.hasObservers)
            let count = log.events.count
            subject.onNext(1)
            subject.onCompleted()
            #expect(log.events.count == count, "nothing after dispose")
            #expect(log.events.allSatisfy { !$0.isStopEvent })
        }
    }

    @Test func behaviorSubjectFromManyThreadsKeepsALastValueThatWasSent() throws {
        let subject = BehaviorSubject(value: -1)
        let log = EventLog<Int>()
        let subscription = subject.subscribe(log)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<Self.perThread { subject.onNext(thread * Self.perThread + i) }
        }
        #expect(log.events.count == Self.threads * Self.perThread + 1)
        let value = try subject.value()
        #expect(value >= 0 && value < Self.threads * Self.perThread)
        subscription.dispose()
    }

    @Test func replaySubjectSubscribersRacingWithEventsSeeEachElementOnceInOrder() {
        let subject = ReplaySubject<Int>.createUnbounded()
        let logs = (0..<4).map { _ in EventLog<Int>() }
        let subscriptions = Collected<Disposable>()
        DispatchQueue.concurrentPerform(iterations: 5) { thread in
            if thread == 0 {
                for i in 0..<Self.perThread { subject.onNext(i) }
                subject.onCompleted()
            } else {
                subscriptions.append(subject.subscribe(logs[thread - 1]))
            }
        }
        for log in logs {
            // Replay then live: every element exactly once, in order, then completed.
            #expect(log.events == (0..<Self.perThread).map { .next($0) } + [.completed])
        }
        subscriptions.all.forEach { $0.dispose() }
    }

    @Test func completionRacingWithSubscribersReachesEveryOneOnce() {
        for _ in 0..<50 {
            let subject = PublishSubject<Int>()
            let logs = (0..<4).map { _ in EventLog<Int>() }
            let subscriptions = Collected<Disposable>()
            DispatchQueue.concurrentPerform(iterations: 5) { thread in
                if thread == 0 {
                    subject.onCompleted()
                } else {
                    subscriptions.append(subject.subscribe(logs[thread - 1]))
                }
            }
            for log in logs { #expect(log.events == [.completed]) }
            subscriptions.all.forEach { $0.dispose() }
        }
    }

    @Test func relaysFromManyThreads() {
        let relay = PublishRelay<Int>()
        let received = Collected<Int>()
        let subscription = relay.subscribe(onNext: { received.append($0) })
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for i in 0..<Self.perThread { relay.accept(i) }
        }
        #expect(received.count == Self.threads * Self.perThread)
        subscription.dispose()
    }

    @Test func compositeDisposableInsertsAndDisposesConcurrently() {
        let composite = CompositeDisposable()
        let disposals = Collected<Int>()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<200 {
                let key = composite.insert(Disposables.create { disposals.append(i) })
                if i % 2 == 0, let key { composite.remove(for: key) }
            }
            if thread == 0 { composite.dispose() }
        }
        composite.dispose()
        // Every disposable is disposed exactly once: removed, by dispose(), or on insertion.
        #expect(disposals.count == Self.threads * 200)
    }

    @Test func observerBaseLetsExactlyOneStopEventThrough() {
        for _ in 0..<50 {
            let log = EventLog<Int>()
            let observer = AnonymousObserver<Int> { log.on($0) }
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                if thread % 2 == 0 { observer.onCompleted() } else { observer.onError(TestError()) }
            }
            #expect(log.events.count == 1)
        }
    }

    @Test func disposingOneSubscriptionFromManyThreadsDisposesOnce() {
        for _ in 0..<50 {
            let disposals = Collected<Int>()
            let subscription = Observable<Int>.create { _ in Disposables.create { disposals.append(1) } }
                .map { $0 }
                .subscribe(onNext: { _ in })
            DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in subscription.dispose() }
            #expect(disposals.count == 1)
        }
    }

    /// One sender counts up; subscribers join concurrently. Each must see the value current at
    /// its subscription, then every later value, in order, with no gap or repeat.
    @Test func behaviorSubjectSubscribersSeeAnUnbrokenSuffix() {
        let subject = BehaviorSubject(value: 0)
        let logs = (0..<4).map { _ in EventLog<Int>() }
        let subscriptions = Collected<Disposable>()
        DispatchQueue.concurrentPerform(iterations: 5) { thread in
            if thread == 0 {
                for i in 1...Self.perThread { subject.onNext(i) }
                subject.onCompleted()
            } else {
                subscriptions.append(subject.subscribe(logs[thread - 1]))
            }
        }
        for log in logs {
            let elements = log.events.compactMap(\.element)
            #expect(log.events.last == .completed)
            // A subscriber that came after the completion gets only `completed`.
            if let first = elements.first {
                let unbroken = elements == Array(first...Self.perThread)
                #expect(unbroken, "elements \(first)… are not consecutive up to \(Self.perThread)")
            }
        }
        subscriptions.all.forEach { $0.dispose() }
    }
}
