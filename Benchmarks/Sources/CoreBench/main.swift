// CoreBench: RxCore's throughput and subscription cost beside OpenCombine and a plain loop,
// measured in one run of one release binary so the ratios are comparable.
//
//   cd Benchmarks && swift run -c release CoreBench [--quick]
//
// Every pipeline does the same work: n integers, `+ 1`, keep the even ones, sum what arrives.
// The rows of one table take turns round by round (RxCore, OpenCombine, RxCore, …), so a
// busy moment of the machine falls on both sides of a ratio, and each round is timed in CPU
// time of the measuring thread, so time the thread spent descheduled does not count. Each row
// shows its best round (least disturbed by the machine), the ratio of the bests, and the median
// of the rounds' paired ratios.

import Foundation
import OpenCombine
import RxCore

#if canImport(Glibc)
import Glibc
#endif

let quick = CommandLine.arguments.contains("--quick")
let events = quick ? 100_000 : 1_000_000
let rounds = quick ? 3 : 9
/// Subscribing and disposing is allocation-bound and more at the mercy of the machine (and of
/// malloc's state) than the element loops: more rounds, each short.
let subscriptionRounds = quick ? 3 : 21
let chains = quick ? 20_000 : 100_000
let inners = 10_000

/// Keeps results alive so the optimiser can't drop the work.
nonisolated(unsafe) var sink = 0

/// CPU time of this thread, in seconds.
func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Every round's time of each body (`[round][body]`), the bodies taking turns in every round.
func timesInTurns(_ bodies: [() -> Void], rounds: Int) -> [[Double]] {
    (0..<rounds).map { _ in
        bodies.map { body in
            let start = threadCPUTime()
            body()
            return threadCPUTime() - start
        }
    }
}

struct Row {
    let name: String
    let units: Int
    let body: () -> Void
}

/// Prints one table: each row's best time, its ratio to the baseline's best, and the median of
/// the ratios of the rounds (the baseline's time in a round over the row's in the same round).
/// The two agree on a quiet machine; on a busy one the paired median is the steadier figure,
/// since both sides of a pair ran within a second of each other.
func table(_ title: String, unit: String, _ rows: [Row], against baseline: String, rounds: Int = rounds) {
    print("\n## \(title) (\(rounds) rounds)")
    let times = timesInTurns(rows.map(\.body), rounds: rounds)
    let baseIndex = rows.firstIndex { $0.name == baseline }!
    let best = rows.indices.map { index in times.map { $0[index] }.min()! }
    let nameWidth = rows.map(\.name.count).max()! + 2
    print(
        "| " + "what".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            + " | \(unit)/s | best time | vs \(baseline), best | median of paired rounds |")
    print("|" + String(repeating: "-", count: nameWidth + 2) + "|---:|---:|---:|---:|")
    for (index, row) in rows.enumerated() {
        let pairs = times.map { $0[baseIndex] / $0[index] }.sorted()
        print(
            "| " + row.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                + " | " + String(format: "%.1fM", Double(row.units) / best[index] / 1e6)
                + " | " + String(format: "%.1f ms", best[index] * 1e3)
                + " | " + String(format: "%.2f×", best[baseIndex] / best[index])
                + " | " + String(format: "%.2f×", pairs[pairs.count / 2]) + " |")
    }
}

// MARK: - Source → map → filter → subscribe

func plainLoop() {
    var total = 0
    for i in 0..<events {
        let mapped = i + 1
        if mapped % 2 == 0 { total &+= mapped }
    }
    sink &+= total
}

func rxCreate() {
    var total = 0
    let source = Observable<Int>.create { observer in
        for i in 0..<events { observer.onNext(i) }
        observer.onCompleted()
        return Disposables.create()
    }
    let subscription = source.map { $0 + 1 }.filter { $0 % 2 == 0 }.subscribe(onNext: { total &+= $0 })
    subscription.dispose()
    sink &+= total
}

func rxRange() {
    var total = 0
    let subscription = Observable<Int>.range(start: 0, count: events)
        .map { $0 + 1 }.filter { $0 % 2 == 0 }.subscribe(onNext: { total &+= $0 })
    subscription.dispose()
    sink &+= total
}

func rxSubject() {
    var total = 0
    let subject = PublishSubject<Int>()
    let subscription = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.subscribe(onNext: { total &+= $0 })
    for i in 0..<events { subject.onNext(i) }
    subject.onCompleted()
    subscription.dispose()
    sink &+= total
}

func combineSequence() {
    var total = 0
    let cancellable = (0..<events).publisher.map { $0 + 1 }.filter { $0 % 2 == 0 }.sink { total &+= $0 }
    cancellable.cancel()
    sink &+= total
}

func combineSubject() {
    var total = 0
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.sink { total &+= $0 }
    for i in 0..<events { subject.send(i) }
    subject.send(completion: .finished)
    cancellable.cancel()
    sink &+= total
}

// MARK: - Subscribe + dispose of a 3-operator chain

func rxSubscribeDispose() {
    let subject = PublishSubject<Int>()
    let chain = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.map { $0 * 3 }
    for _ in 0..<chains {
        chain.subscribe(onNext: { sink &+= $0 }).dispose()
    }
}

func combineSubscribeDispose() {
    let subject = PassthroughSubject<Int, Never>()
    let chain = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.map { $0 * 3 }
    for _ in 0..<chains {
        chain.sink { sink &+= $0 }.cancel()
    }
}

// MARK: - flatMap of 10,000 `just` inners

func rxFlatMapJust() {
    var total = 0
    let subscription = Observable<Int>.range(start: 0, count: inners)
        .flatMap { Observable.just($0) }
        .subscribe(onNext: { total &+= $0 })
    subscription.dispose()
    sink &+= total
}

func combineFlatMapJust() {
    var total = 0
    let cancellable = (0..<inners).publisher
        .flatMap { Just($0) }
        .sink { total &+= $0 }
    cancellable.cancel()
    sink &+= total
}

// MARK: - Run

print("# CoreBench (\(events) events, \(chains) chains; rounds taken in turns, thread CPU time; release build)")
let before = Resources.total

table(
    "source → map → filter → subscribe", unit: "events",
    [
        Row(name: "plain Swift loop", units: events, body: plainLoop),
        Row(name: "RxCore create", units: events, body: rxCreate),
        Row(name: "RxCore range", units: events, body: rxRange),
        Row(name: "OpenCombine Sequence.publisher", units: events, body: combineSequence),
    ], against: "OpenCombine Sequence.publisher")

table(
    "subject → map → filter → subscribe", unit: "events",
    [
        Row(name: "plain Swift loop", units: events, body: plainLoop),
        Row(name: "RxCore PublishSubject", units: events, body: rxSubject),
        Row(name: "OpenCombine PassthroughSubject", units: events, body: combineSubject),
    ], against: "OpenCombine PassthroughSubject")

table(
    "subscribe + dispose of a 3-operator chain", unit: "chains",
    [
        Row(name: "RxCore", units: chains, body: rxSubscribeDispose),
        Row(name: "OpenCombine", units: chains, body: combineSubscribeDispose),
    ], against: "OpenCombine", rounds: subscriptionRounds)

table(
    "flatMap of \(inners) `just` inners", unit: "inners",
    [
        Row(name: "RxCore", units: inners, body: rxFlatMapJust),
        Row(name: "OpenCombine", units: inners, body: combineFlatMapJust),
    ], against: "OpenCombine", rounds: subscriptionRounds)

let after = Resources.total
print("\nResources.total before \(before), after \(after) (checksum \(sink & 0xff))")
if after != before {
    print("error: the benchmark leaked \(after - before) core objects")
    exit(1)
}
