import Foundation
import RxCore
import RxTesting
import Synchronization
import Testing

/// Sources fed from several threads at once: the operators must serialize what they send
/// downstream and keep `next* (error | completed)?`. Run under `--sanitize=thread` too.
@Suite(.serialized, .noLeaks)
struct ConcurrencyStressTests {
    private static let perThread = 2_000

    @Test func combineLatestOfSubjectsFedFromTwoThreads() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let probe = GrammarProbe<Int>()
        let subscription = Observable.combineLatest(a, b) { $0 + $1 }.subscribe(probe)
        a.onNext(0)
        b.onNext(0)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let subject = thread == 0 ? a : b
            for i in 1...Self.perThread { subject.onNext(i) }
            subject.onCompleted()
        }
        let report = probe.report
        #expect(report.nexts == 1 + 2 * Self.perThread)
        #expect(report.completions == 1)
        #expect(report.overlaps == 0)
        #expect(report.afterTermination == 0)
        subscription.dispose()
    }

    @Test func zipPairsInOrderAcrossThreads() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let lock = NSLock()
        var mismatches = 0
        var count = 0
        let subscription = Observable.zip(a, b).subscribe(onNext: { pair in
            lock.lock()
            if pair.0 != pair.1 { mismatches += 1 }
            count += 1
            lock.unlock()
        })
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let subject = thread == 0 ? a : b
            for i in 0..<Self.perThread { subject.onNext(i) }
        }
        #expect(count == Self.perThread)
        #expect(mismatches == 0)
        subscription.dispose()
    }

    @Test func flatMapLatestFedFromFourThreads() {
        let subject = PublishSubject<Int>()
        let probe = GrammarProbe<Int>()
        let subscription = subject.flatMapLatest { Observable.of($0, $0 + 1) }.subscribe(probe)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in 0..<Self.perThread { subject.onNext(thread * 10_000 + i) }
        }
        subject.onCompleted()
        let report = probe.report
        #expect(report.nexts >= 4 * Self.perThread)
        #expect(report.completions == 1)
        #expect(report.overlaps == 0)
        #expect(report.afterTermination == 0)
        subscription.dispose()
    }

    @Test func mergeMaxConcurrentAndConcatFromThreads() {
        let subject = PublishSubject<Observable<Int>>()
        let probe = GrammarProbe<Int>()
        let subscription = subject.merge(maxConcurrent: 2).subscribe(probe)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in 0..<500 { subject.onNext(Observable.of(thread, i)) }
        }
        subject.onCompleted()
        let report = probe.report
        #expect(report.nexts == 4 * 500 * 2)
        #expect(report.completions == 1)
        #expect(report.overlaps == 0)
        subscription.dispose()
    }

    @Test func withLatestFromSampleAndTakeUntilAcrossThreads() {
        let source = PublishSubject<Int>()
        let other = PublishSubject<Int>()
        let probes = (GrammarProbe<Int>(), GrammarProbe<Int>(), GrammarProbe<Int>())
        let bag = DisposeBag()
        source.withLatestFrom(other) { $0 + $1 }.subscribe(probes.0).disposed(by: bag)
        source.sample(other).subscribe(probes.1).disposed(by: bag)
        source.take(until: other.filter { $0 == Self.perThread / 2 }).subscribe(probes.2).disposed(by: bag)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let subject = thread == 0 ? source : other
            for i in 0..<Self.perThread { subject.onNext(i) }
        }
        source.onCompleted()
        other.onNext(-1)
        for report in [probes.0.report, probes.1.report, probes.2.report] {
            #expect(report.overlaps == 0)
            #expect(report.afterTermination == 0)
            #expect(report.completions == 1)
        }
    }

    @Test func disposeRacingWithEvents() {
        for _ in 0..<50 {
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            let probe = GrammarProbe<Int>()
            let subscription = Observable.merge(a.asObservable(), b.asObservable())
                .flatMap { Observable.just($0) }
                .combinedWithNever()
                .subscribe(probe)
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                switch thread {
                case 0: for i in 0..<300 { a.onNext(i) }
                case 1: for i in 0..<300 { b.onNext(i) }
                default: subscription.dispose()
                }
            }
            #expect(probe.report.overlaps == 0)
            #expect(!a.hasObservers)
            #expect(!b.hasObservers)
        }
    }

    /// Two nested flatMaps: one thread feeds the inner merge (which forwards into the outer under
    /// its own lock) while another fails the outer (which disposes the inner merge). Disposal
    /// used to take each merge's event lock, so the two threads took the locks in opposite
    /// orders and hung; the random threaded pipelines found it.
    @Test func nestedFlatMapsDisposedWhileTheInnerOneForwards() {
        for _ in 0..<50 {
            let innerFeed = PublishSubject<Int>()
            let outerFeed = PublishSubject<Int>()
            let probe = GrammarProbe<Int>()
            let subscription = Observable.just(0)
                .flatMap { _ in innerFeed }
                .flatMap { _ in outerFeed }
                .subscribe(probe)
            innerFeed.onNext(-1) // so the outer merge is subscribed to outerFeed before it fails
            // Two threads of their own: a pool may run two work items one after the other.
            let sent = SentCount()
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                for i in 0..<2_000 {
                    innerFeed.onNext(i)
                    sent.value.wrappingAdd(1, ordering: .relaxed)
                }
                done.signal()
            }
            Thread.detachNewThread {
                // Fail while the other thread is busy inside the inner merge.
                while sent.value.load(ordering: .relaxed) < 20 { sched_yield() }
                outerFeed.onError(opTestError)
                done.signal()
            }
            guard done.wait(timeout: .now() + 20) == .success, done.wait(timeout: .now() + 20) == .success else {
                Issue.record("deadlock: the two threads never finished")
                return
            }
            subscription.dispose()
            let report = probe.report
            #expect(report.errors == 1)
            #expect(report.overlaps == 0)
            #expect(report.afterTermination == 0)
        }
    }
}

/// How many values one thread has sent, read by another.
private final class SentCount: Sendable {
    let value = Atomic<Int>(0)
}

private extension ObservableType where Element == Int {
    /// A combineLatest with a never-ending second source: one more multi-source sink in the
    /// chain being disposed.
    func combinedWithNever() -> Observable<Int> {
        Observable.combineLatest(self, Observable.just(0).concat(Observable.never())) { $0 + $1 }
    }
}
