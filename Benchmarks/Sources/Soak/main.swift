// Soak: millions of events through flatMap, merge and observe(on:) across threads, first with
// tracing off, then with a TraceRecorder (its rings bounded) installed. Prints events/s and the
// resident memory as the run goes, and fails (exit 1) when memory grows with the event count.
//
//   make soak                     10,000,000 events per phase (release build)
//   .build/release/Soak 2000000   fewer
//
// Four feeder threads each push their share into a PublishSubject; the subjects are the
// long-lived inners of two flatMaps, merged, mapped, filtered, then handed to a serial queue by
// observe(on:), where the consumer counts. A window of 8,192 events in flight keeps the feeders
// from outrunning the consumer (observe(on:) queues without bound, as in RxSwift), so a growing
// footprint can only be the core's or the recorder's.
//
// A last phase runs a fresh inner per element (flatMap { just }) with tracing off: every
// subscription is made and released 10 million times.

import Dispatch
import Foundation
import RxCore

let total = max(10_000, CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10_000_000)
let feeders = 4
/// Feeders take credit for this many events at a time, and the consumer gives it back as often.
let batch = 256
/// At most this many batches in flight (8,192 events).
let window = 32

/// Resident memory now, in MB (`/proc/self/statm`, pages × page size).
func residentMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// CPU seconds used by the whole process so far (every thread): on a shared machine this moves
/// less than the wall clock.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// What one phase measured.
struct PhaseResult {
    var name: String
    var eventsPerSecond: Double
    /// Events per second of CPU time, all threads together.
    var eventsPerCPUSecond: Double
    /// Resident MB after each tenth of the events.
    var samples: [Double]
    var peak: Double
    /// Core objects still alive once the phase's subscription was disposed (RxSwift's `Resources.total`).
    var liveAfter: Int32
    /// Growth from the second tenth to the end: the warm-up (rings filling, pools growing) is over by then.
    var growth: Double { (samples.last ?? 0) - (samples.count > 1 ? samples[1] : 0) }
}

/// Counts on the consumer queue, samples memory, and lets the feeders go on.
final class Consumer: @unchecked Sendable {
    let expected: Int
    private(set) var received = 0
    var samples: [Double] = []
    var peak = 0.0
    // Made at 0 and signalled up to the window: libdispatch traps when a semaphore is released
    // below the value it was made with, and the last credits are never all given back.
    let credit = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)

    init(expected: Int) {
        self.expected = expected
        for _ in 0..<window { credit.signal() }
    }

    func receive() {
        received += 1
        if received % batch == 0 { credit.signal() }
        if received % 100_000 == 0 { peak = max(peak, residentMB()) }
        if received % (expected / 10) == 0 { samples.append(residentMB()) }
        if received == expected { finished.signal() }
    }
}

/// Runs `total` events through the pipeline `build` makes from the four subjects.
func phase(_ name: String, _ build: ([PublishSubject<Int>]) -> Observable<Int>) -> PhaseResult {
    let baseline = Resources.total
    let subjects = (0..<feeders).map { _ in PublishSubject<Int>() }
    let consumer = Consumer(expected: total)
    let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "soak.consumer")
    let subscription = build(subjects)
        .observe(on: queue)
        .subscribe(onNext: { _ in consumer.receive() })
    let start = DispatchTime.now()
    let cpuStart = processCPUSeconds()
    DispatchQueue.concurrentPerform(iterations: feeders) { feeder in
        let share = total / feeders + (feeder < total % feeders ? 1 : 0)
        for i in 0..<share {
            if i % batch == 0 { consumer.credit.wait() }
            subjects[feeder].onNext(i)
        }
    }
    consumer.finished.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let cpuSeconds = processCPUSeconds() - cpuStart
    subscription.dispose()
    // observe(on:)'s queue lets go of its last items a moment after disposal.
    var liveAfter = Resources.total
    for _ in 0..<100 where liveAfter > baseline {
        usleep(10_000)
        liveAfter = Resources.total
    }
    return PhaseResult(
        name: name, eventsPerSecond: Double(total) / seconds, eventsPerCPUSecond: Double(total) / cpuSeconds,
        samples: consumer.samples,
        peak: max(consumer.peak, consumer.samples.max() ?? 0), liveAfter: liveAfter - baseline)
}

/// flatMap over the four subjects (long-lived inners), merged, mapped, filtered: every event kept.
func longLivedInners(_ subjects: [PublishSubject<Int>]) -> Observable<Int> {
    let left = Observable.of(0, 1).flatMap { subjects[$0] }
    let right = Observable.of(2, 3).flatMap { subjects[$0] }
    return Observable.merge(left, right).map { $0 &* 2 }.filter { $0 >= 0 }
}

/// The same, with a fresh `just` inner per element.
func innerPerElement(_ subjects: [PublishSubject<Int>]) -> Observable<Int> {
    Observable.merge(subjects.map { $0.asObservable() }).flatMap { Observable.just($0 &* 2) }
}

func report(_ result: PhaseResult) {
    let samples = result.samples.map { String(format: "%.0f", $0) }.joined(separator: " ")
    print(
        String(
            format: "%-48@ %6.2f M events/s (%.2f M per CPU-second)   peak %5.0f MB   growth after warm-up %+6.1f MB",
            result.name as NSString, result.eventsPerSecond / 1e6, result.eventsPerCPUSecond / 1e6, result.peak,
            result.growth))
    print("    core objects left alive after disposal: \(result.liveAfter)")
    print(
        "    resident MB at each tenth: \(samples)   (\(Int(result.growth * 1_048_576 / (0.8 * Double(total)))) bytes/event after warm-up)"
    )
}

print("Soak: \(total) events per phase, \(feeders) feeder threads, observe(on:) a serial queue")
print(String(format: "resident before: %.0f MB", residentMB()))
var results: [PhaseResult] = []

results.append(phase("flatMap/merge, tracing off", longLivedInners))
report(results.last!)

let recorder = TraceRecorder(options: TraceRecorder.Options())
Tracing.tracer = recorder
results.append(phase("flatMap/merge, tracing on (1M-entry rings)", longLivedInners))
Tracing.tracer = nil
report(results.last!)
print("    recorder: \(recorder.nodeCount) nodes")

results.append(phase("flatMap { just } per element, tracing off", innerPerElement))
report(results.last!)

// Flat means the last nine tenths grew by less than 5% of the peak (and 8 MB at least): allocator
// noise, not a leak. A leak of one object per event grows by hundreds of MB here.
let grown = results.filter { $0.growth > max(8, 0.05 * $0.peak) }
for result in grown {
    print("error: memory grew by \(String(format: "%.1f", result.growth)) MB during \(result.name)")
}
exit(grown.isEmpty ? 0 : 1)
