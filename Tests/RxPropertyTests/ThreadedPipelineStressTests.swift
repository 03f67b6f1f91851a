import Dispatch
import Foundation
import RxCore
import RxTesting
import Synchronization
import Testing

/// Random pipelines across real threads: subjects fed from their own threads, `observe(on:)`,
/// `subscribe(on:)`, merges of concurrent sources, and a disposal racing delivery. The name
/// ends in `Stress` so `make tsan` runs it under ThreadSanitizer.
///
/// What is checked: the observer is never entered by two threads at once and sees nothing after
/// a terminal event; a pipeline whose sources all end, ends; and every core object is gone
/// once the dust settles.
@Suite(.serialized, .noLeaks)
struct ThreadedPipelineStressTests {
    @Test func randomPipelinesAcrossThreadsKeepTheRxContract() {
        let count = ProcessInfo.processInfo.environment["RX_THREADED_N"].flatMap(Int.init) ?? 150
        let firstSeed = ProcessInfo.processInfo.environment["RX_PROPERTY_SEED"].flatMap(UInt64.init) ?? 1
        var failures = 0
        for i in 0..<count {
            let seed = firstSeed &+ UInt64(i)
            var rng = SplitMix64(seed: seed)
            let threaded = ThreadedCase.generate(&rng)
            let found = threaded.violations()
            if !found.isEmpty {
                Issue.record("threaded pipeline, seed \(seed): \(found.joined(separator: "; "))\n\(threaded)")
                failures += 1
                if failures == 3 { break }
            }
        }
    }
}

/// A pipeline over `feeds` PublishSubjects, each fed by its own thread.
struct ThreadedCase: CustomStringConvertible {
    enum Step: CustomStringConvertible {
        case map, filter, scan, distinctUntilChanged, startWith
        case take(Int), skip(Int)
        case flatMap, flatMapLatest, concatMap
        case merge(feed: Int), zip(feed: Int), combineLatest(feed: Int)
        case observeOnSerial, observeOnConcurrent, subscribeOnConcurrent
        case share(replay: Int), groupBy, catchWith(feed: Int), retry(Int)

        var description: String {
            switch self {
            case .map: "map"
            case .filter: "filter"
            case .scan: "scan"
            case .distinctUntilChanged: "distinctUntilChanged"
            case .startWith: "startWith"
            case .take(let n): "take(\(n))"
            case .skip(let n): "skip(\(n))"
            case .flatMap: "flatMap(of(x, -x).subscribe(on: concurrent))"
            case .flatMapLatest: "flatMapLatest(just(x).observe(on: concurrent))"
            case .concatMap: "concatMap(of(x, x))"
            case .merge(let f): "merge(feed \(f))"
            case .zip(let f): "zip(feed \(f))"
            case .combineLatest(let f): "combineLatest(feed \(f))"
            case .observeOnSerial: "observe(on: serial)"
            case .observeOnConcurrent: "observe(on: concurrent)"
            case .subscribeOnConcurrent: "subscribe(on: concurrent)"
            case .share(let n): "share(replay: \(n)) merged with itself"
            case .groupBy: "groupBy(x % 3).flatMap"
            case .catchWith(let f): "catch { feed \(f) }"
            case .retry(let n): "retry(\(n))"
            }
        }
    }

    var feeds: Int
    var valuesPerFeed: Int
    var steps: [Step]
    /// Each feed ends with an error instead of completing.
    var failing: [Bool]
    /// Dispose from another thread after about this many values reached the observer.
    var disposeAfter: Int?

    var description: String {
        "\(feeds) feeds × \(valuesPerFeed) values (failing: \(failing)), steps \(steps)"
            + (disposeAfter.map { ", disposed after ~\($0) values" } ?? "")
    }

    static func generate(_ rng: inout SplitMix64) -> ThreadedCase {
        let feeds = rng.int(in: 1...3)
        var steps: [Step] = []
        for _ in 0..<rng.int(in: 1...4) {
            let feed = rng.int(in: 0..<feeds)
            let all: [Step] = [
                .map, .filter, .scan, .distinctUntilChanged, .startWith, .take(rng.int(in: 1...300)),
                .skip(rng.int(in: 0...50)), .flatMap, .flatMapLatest, .concatMap, .merge(feed: feed), .zip(feed: feed),
                .combineLatest(feed: feed), .observeOnSerial, .observeOnConcurrent, .subscribeOnConcurrent,
                .share(replay: rng.int(in: 0...2)), .groupBy, .catchWith(feed: feed), .retry(rng.int(in: 1...2)),
            ]
            steps.append(all[rng.int(in: 0..<all.count)])
        }
        return ThreadedCase(
            feeds: feeds, valuesPerFeed: rng.int(in: 1...400), steps: steps,
            failing: (0..<feeds).map { _ in rng.chance(25) },
            disposeAfter: rng.chance(40) ? rng.int(in: 0...200) : nil)
    }

    /// Runs the case and returns what broke.
    func violations() -> [String] {
        let baseline = Resources.snapshot()
        var found = run()
        // Dispatch queues drop their last closures a moment after the work is done.
        let deadline = Date().addingTimeInterval(10)
        var grown = Resources.snapshot().grown(since: baseline).filter { $0.value > 0 }
        while !grown.isEmpty && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.002)
            grown = Resources.snapshot().grown(since: baseline).filter { $0.value > 0 }
        }
        if !grown.isEmpty { found.append("leaked: \(LeakCheck.describe(grown))") }
        return found
    }

    private func run() -> [String] {
        let subjects = (0..<feeds).map { _ in PublishSubject<Int>() }
        let serial = SerialDispatchQueueScheduler(qos: .userInitiated)
        let concurrent = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        var stream = subjects[0].asObservable()
        for step in steps {
            switch step {
            case .map: stream = stream.map { $0 &* 3 }
            case .filter: stream = stream.filter { $0 % 3 != 1 }
            case .scan: stream = stream.scan(0) { $0 &+ $1 }
            case .distinctUntilChanged: stream = stream.map { $0 / 4 }.distinctUntilChanged()
            case .startWith: stream = stream.startWith(-1, -2)
            case .take(let n): stream = stream.take(n)
            case .skip(let n): stream = stream.skip(n)
            case .flatMap: stream = stream.flatMap { Observable.of($0, -$0).subscribe(on: concurrent) }
            case .flatMapLatest: stream = stream.flatMapLatest { Observable.just($0).observe(on: concurrent) }
            case .concatMap: stream = stream.concatMap { Observable.of($0, $0) }
            case .merge(let f): stream = Observable.merge(stream, subjects[f].asObservable())
            case .zip(let f): stream = Observable.zip(stream, subjects[f]) { $0 &+ $1 }
            case .combineLatest(let f): stream = Observable.combineLatest(stream, subjects[f]) { $0 &+ $1 }
            case .observeOnSerial: stream = stream.observe(on: serial)
            case .observeOnConcurrent: stream = stream.observe(on: concurrent)
            case .subscribeOnConcurrent: stream = stream.subscribe(on: concurrent)
            case .share(let replay):
                let shared = stream.share(replay: replay)
                stream = Observable.merge(shared, shared.skip(1))
            case .groupBy: stream = stream.groupBy(keySelector: { $0 % 3 }).flatMap { $0 }
            case .catchWith(let f): stream = stream.catch { _ in subjects[f].asObservable() }
            case .retry(let n): stream = stream.retry(n)
            }
        }
        let probe = ThreadProbe()
        let subscription = stream.subscribe(probe)
        DispatchQueue.concurrentPerform(iterations: feeds + 1) { thread in
            if thread < feeds {
                for i in 0..<valuesPerFeed { subjects[thread].onNext(thread * 1_000 + i) }
                if failing[thread] { subjects[thread].onError(PipelineError()) } else { subjects[thread].onCompleted() }
            } else if let disposeAfter {
                let deadline = Date().addingTimeInterval(1)
                while probe.report.nexts < disposeAfter && !probe.report.stopped && Date() < deadline {
                    sched_yield()
                }
                subscription.dispose()
            }
        }
        var found: [String] = []
        // Every feed has ended, so an undisposed pipeline must end too.
        if disposeAfter == nil && !probe.waitForStop(seconds: 20) {
            found.append("never terminated (\(probe.report.nexts) values)")
        }
        subscription.dispose()
        let report = probe.report
        if report.overlaps > 0 { found.append("observer entered by two threads at once \(report.overlaps) times") }
        if report.afterStop > 0 { found.append("\(report.afterStop) events after the terminal event") }
        return found
    }
}

/// Counts what reaches the end of a threaded pipeline and every breach of the grammar it sees.
private final class ThreadProbe: ObserverType, @unchecked Sendable {
    struct Report {
        var nexts = 0
        var stopped = false
        var afterStop = 0
        var overlaps = 0
    }

    private let state = Mutex(Report())
    private let inside = Atomic<Int>(0)
    private let stop = DispatchSemaphore(value: 0)

    func on(_ event: Event<Int>) {
        if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            state.withLock { $0.overlaps += 1 }
        }
        defer { inside.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        let first = state.withLock { report -> Bool in
            if report.stopped {
                report.afterStop += 1
                return false
            }
            if event.isStopEvent {
                report.stopped = true
                return true
            }
            report.nexts += 1
            return false
        }
        if first { stop.signal() }
    }

    var report: Report { state.withLock { $0 } }

    func waitForStop(seconds: Int) -> Bool { stop.wait(timeout: .now() + .seconds(seconds)) == .success }
}
