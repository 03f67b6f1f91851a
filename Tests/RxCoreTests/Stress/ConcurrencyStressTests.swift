import Dispatch
import Foundation
import RxCore
import RxTesting
import Synchronization
import Testing

/// Records what reaches the end of a pipeline from any thread, and checks the Rx grammar:
/// `next* (error | completed)?`, one call at a time.
final class GrammarRecorder<Element>: ObserverType, @unchecked Sendable {
    private struct State {
        var elements: [Element] = []
        var stops = 0
        var afterStop = 0
    }

    private let state = Mutex(State())
    private let inside = Atomic<Int>(0)
    private let overlaps = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    func on(_ event: Event<Element>) {
        if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            overlaps.wrappingAdd(1, ordering: .relaxed)
        }
        defer { inside.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        let signal: Bool = state.withLock { state in
            if state.stops > 0 {
                state.afterStop += 1
                return false
            }
            switch event {
            case .next(let element):
                state.elements.append(element)
                return false
            case .error, .completed:
                state.stops += 1
                return true
            }
        }
        if signal { finished.signal() }
    }

    /// Waits (up to a safety limit) for the stop event.
    func waitForStop() -> Bool {
        finished.wait(timeout: .now() + 60) == .success
    }

    var elements: [Element] { state.withLock { $0.elements } }
    var stops: Int { state.withLock { $0.stops } }
    var eventsAfterStop: Int { state.withLock { $0.afterStop } }
    /// Times two threads were inside `on` at once.
    var concurrentCalls: Int { overlaps.load(ordering: .relaxed) }
}

/// Runs `body(i)` for `count` indices on as many threads as the pool gives.
private func concurrently(_ count: Int, _ body: @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: count, execute: body)
}

@Suite(.serialized, .noLeaks)
struct SubjectStressTests {
    @Test func publishSubjectFedFromSeveralThreads() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let subject = PublishSubject<Int>()
        let received = Atomic<Int>(0)
        let d = subject.subscribe(onNext: { _ in received.wrappingAdd(1, ordering: .relaxed) })
        concurrently(8) { thread in
            for i in 0..<2_000 { subject.onNext(thread * 10_000 + i) }
        }
        subject.onCompleted()
        subject.onNext(-1)
        d.dispose()
        #expect(received.load(ordering: .relaxed) == 16_000)
    }

    @Test func subscribingAndDisposingWhileOthersEmit() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let subject = PublishSubject<Int>()
        let behavior = BehaviorSubject<Int>(value: 0)
        let replay = ReplaySubject<Int>.create(bufferSize: 4)
        let steady = GrammarRecorder<Int>()
        let d = subject.subscribe(steady)
        concurrently(8) { thread in
            for i in 0..<500 {
                if thread % 2 == 0 {
                    subject.onNext(i)
                    behavior.onNext(i)
                    replay.onNext(i)
                } else {
                    let a = subject.subscribe(onNext: { _ in })
                    let b = behavior.subscribe(onNext: { _ in })
                    let c = replay.subscribe(onNext: { _ in })
                    a.dispose(); b.dispose(); c.dispose()
                }
            }
        }
        subject.onCompleted()
        d.dispose()
        #expect(steady.elements.count == 4 * 500)
        #expect(steady.stops == 1)
        #expect(subject.hasObservers == false)
        #expect(behavior.hasObservers == false)
    }

    @Test func relaysAcceptFromSeveralThreads() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let relay = BehaviorRelay<Int>(value: 0)
        let received = Atomic<Int>(0)
        let d = relay.subscribe(onNext: { _ in received.wrappingAdd(1, ordering: .relaxed) })
        concurrently(4) { _ in
            for i in 1...1_000 { relay.accept(i) }
        }
        d.dispose()
        #expect(received.load(ordering: .relaxed) == 1 + 4_000)
    }
}

@Suite(.serialized, .noLeaks)
struct SchedulerStressTests {
    @Test func mergeOfSourcesOnAConcurrentSchedulerIsSerialAndComplete() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let recorder = GrammarRecorder<Int>()
        let sources = (0..<8).map { i in
            Observable.range(start: i * 1_000, count: 1_000).subscribe(on: scheduler)
        }
        let d = Observable.merge(sources).subscribe(recorder)
        #expect(recorder.waitForStop())
        d.dispose()
        #expect(recorder.elements.count == 8_000)
        #expect(Set(recorder.elements).count == 8_000)
        #expect(recorder.stops == 1)
        #expect(recorder.concurrentCalls == 0)
        #expect(recorder.eventsAfterStop == 0)
    }

    @Test func flatMapOfInnersOnAConcurrentSchedulerIsSerialAndComplete() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let recorder = GrammarRecorder<Int>()
        let d = Observable.range(start: 0, count: 2_000)
            .flatMap { i in Observable.of(i, -i).subscribe(on: scheduler) }
            .subscribe(recorder)
        #expect(recorder.waitForStop())
        d.dispose()
        #expect(recorder.elements.count == 4_000)
        #expect(recorder.elements.reduce(0, +) == 0)
        #expect(recorder.stops == 1)
        #expect(recorder.concurrentCalls == 0)
    }

    @Test func observeOnAConcurrentSchedulerKeepsOrderAndIsSerial() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let recorder = GrammarRecorder<Int>()
        let subject = PublishSubject<Int>()
        let d = subject.observe(on: scheduler).map { $0 * 2 }.subscribe(recorder)
        for i in 0..<20_000 { subject.onNext(i) }
        subject.onCompleted()
        #expect(recorder.waitForStop())
        d.dispose()
        #expect(recorder.elements.count == 20_000)
        #expect(recorder.elements.elementsEqual((0..<20_000).lazy.map { $0 * 2 }))
        #expect(recorder.stops == 1)
        #expect(recorder.concurrentCalls == 0)
    }

    @Test func delayOnAConcurrentSchedulerKeepsOrder() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let recorder = GrammarRecorder<Int>()
        let d = Observable.range(start: 0, count: 2_000)
            .delay(.microseconds(50), scheduler: scheduler)
            .subscribe(recorder)
        #expect(recorder.waitForStop())
        d.dispose()
        #expect(recorder.elements.count == 2_000)
        #expect(recorder.elements.elementsEqual(0..<2_000))
        #expect(recorder.stops == 1)
        #expect(recorder.concurrentCalls == 0)
    }

    @Test func sharedSourceWithSubscribersOnSeveralThreads() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let subject = PublishSubject<Int>()
        let shared = subject.map { $0 + 1 }.share(replay: 1)
        let received = Atomic<Int>(0)
        concurrently(8) { thread in
            for i in 0..<200 {
                let d = shared.subscribe(onNext: { _ in received.wrappingAdd(1, ordering: .relaxed) })
                if thread == 0 { subject.onNext(i) }
                d.dispose()
            }
        }
        #expect(subject.hasObservers == false)
        #expect(received.load(ordering: .relaxed) > 0)
    }
}

/// Counts its disposals from any thread.
private final class AtomicCounting: Disposable, Sendable {
    let count = Atomic<Int>(0)
    func dispose() { count.wrappingAdd(1, ordering: .relaxed) }
}

/// A producer whose `run` hands its `SinkDisposer` to another thread, which disposes it while
/// `run` returns and `subscribe` sets the sink and the subscription.
private final class DisposedFromAnotherThread: Producer<Int>, @unchecked Sendable {
    let sink = AtomicCounting(), subscription = AtomicCounting()
    let disposed = DispatchGroup()

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Int {
        nonisolated(unsafe) let cancel = cancel
        DispatchQueue.global().async(group: disposed) { cancel.dispose() }
        return (sink: sink, subscription: subscription)
    }
}

@Suite(.serialized, .noLeaks)
struct DisposeRaceStressTests {
    /// "Set" and "dispose" of a `SinkDisposer` on two threads, in either order: the sink and the
    /// subscription are each disposed exactly once, and a second dispose does nothing.
    @Test func sinkDisposerSetRacesWithDispose() {
        for _ in 0..<2_000 {
            let producer = DisposedFromAnotherThread()
            let d = producer.subscribe(AnyObserver<Int> { _ in })
            producer.disposed.wait()
            d.dispose()
            #expect(producer.sink.count.load(ordering: .relaxed) == 1)
            #expect(producer.subscription.count.load(ordering: .relaxed) == 1)
        }
    }

    /// Disposal on one thread while events arrive on others: the grammar holds, nothing leaks.
    @Test func disposeRacesWithEvents() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        for round in 0..<200 {
            let subject = PublishSubject<Int>()
            let recorder = GrammarRecorder<Int>()
            let d =
                subject
                .map { $0 + 1 }
                .observe(on: scheduler)
                .do(onNext: { _ in })
                .catchAndReturn(-1)
                .subscribe(recorder)
            concurrently(3) { thread in
                switch thread {
                case 0: for i in 0..<200 { subject.onNext(i) }
                case 1: d.dispose()
                default: if round % 2 == 0 { subject.onError(RxError.unknown) } else { subject.onCompleted() }
                }
            }
            #expect(recorder.stops <= 1)
            #expect(recorder.eventsAfterStop == 0)
            #expect(recorder.concurrentCalls == 0)
        }
    }

    @Test func disposeRacesWithTimersAndTimeouts() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        for _ in 0..<100 {
            let recorder = GrammarRecorder<Int>()
            let d = Observable<Int>.interval(.microseconds(100), scheduler: scheduler)
                .timeout(.milliseconds(50), scheduler: scheduler)
                .retry(2)
                .subscribe(recorder)
            Thread.sleep(forTimeInterval: 0.0005)
            d.dispose()
            #expect(recorder.eventsAfterStop == 0)
            #expect(recorder.concurrentCalls == 0)
        }
    }

    @Test func refCountConnectsAndDisconnectsFromSeveralThreads() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let connections = Atomic<Int>(0)
        let disconnections = Atomic<Int>(0)
        let source = Observable<Int>.create { observer in
            connections.wrappingAdd(1, ordering: .relaxed)
            observer.onNext(1)
            return Disposables.create { disconnections.wrappingAdd(1, ordering: .relaxed) }
        }
        let shared = source.publish().refCount()
        concurrently(8) { _ in
            for _ in 0..<300 {
                shared.subscribe(onNext: { _ in }).dispose()
            }
        }
        #expect(connections.load(ordering: .relaxed) == disconnections.load(ordering: .relaxed))
        #expect(connections.load(ordering: .relaxed) >= 1)
    }
}
