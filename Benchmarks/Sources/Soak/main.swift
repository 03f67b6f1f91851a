// Soak: millions of events through flatMap, merge and observe(on:) across threads, with tracing
// off and then on. Prints events/s and resident memory as the run goes, and fails (exit 1) when
// memory grows with the event count or a core object outlives its phase.
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
// Phases: that pipeline with tracing off; a fresh inner per element (flatMap { just }), tracing
// off, so every subscription is made and released millions of times; the first pipeline again,
// recorded as RXTRACE records (streamed to a temporary file bounded by RXTRACE_MAX_MB, removed
// afterwards). The traced phase runs last, so what the recorder holds sits under no other phase.
//
// Flat means: the straight line fitted (least squares) to resident memory against events over
// the second half of the phase rises by less than `flatLimitMB` over that half. The first half
// is warm-up (pools, rings and dispatch's threads filling); a leak of one 16-byte allocation per
// event rises by 80 MB over the second half of 10 million events.

import Dispatch
import Foundation
import RxCore
import Synchronization

let total = max(10_000, CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10_000_000)
let feeders = 4
/// Feeders take credit for this many events at a time, and the consumer gives it back as often.
let batch = 256
/// At most this many batches in flight (8,192 events).
let window = 32
/// Resident memory is read this many times per phase, evenly spaced.
let sampleCount = 20
/// Most the fitted line may rise over the second half of a phase.
let flatLimitMB = 4.0
/// A phase whose resident memory passes this is stopped there (and fails): the soak is not to
/// take a shared machine's memory.
let memoryCapMB = 2048.0

/// Resident memory now, in MB (`/proc/self/statm`, pages × page size).
func residentMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// Bytes this process has handed to `write` so far, every thread (`wchar` in /proc/self/io);
/// nil where the kernel does not say.
func bytesWritten() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
    let line = text.split(separator: "\n").first { $0.hasPrefix("wchar:") }
    return line.flatMap { Int($0.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)) }
}

/// The segment a bounded `rxtrace/2` file holds (`meta.segment` of its header: 1 is the first
/// that replaced the file); nil when the file was never replaced.
func traceSegment(_ path: String) -> Int? {
    guard let file = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? file.close() }
    guard let head = try? file.read(upToCount: 1 << 16),
        let header = head.split(separator: UInt8(ascii: "\n"), maxSplits: 1).first,
        let object = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any],
        let meta = object["meta"] as? [String: String]
    else { return nil }
    return meta["segment"].flatMap { Int($0) }
}

/// CPU seconds used by the whole process so far (every thread): on a shared machine this moves
/// less than the wall clock.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// One reading of resident memory.
struct Sample {
    var events: Int
    var residentMB: Double
}

/// What one phase measured.
struct PhaseResult {
    var name: String
    var eventsPerSecond: Double
    /// Events per second of CPU time, all threads together.
    var eventsPerCPUSecond: Double
    var samples: [Sample]
    var peak: Double
    /// Events delivered when the phase was stopped for passing `memoryCapMB` (nil: it ran to the end).
    var stoppedAt: Int?
    /// Core objects still alive once everything the phase made was let go (RxSwift's `Resources.total`).
    var liveAfter: Int32

    /// Events the phase ran.
    var events: Int { stoppedAt ?? total }

    /// Slope of the least-squares line through the samples of the second half, bytes per event.
    var bytesPerEvent: Double {
        let tail = samples.filter { $0.events * 2 >= events }
        guard tail.count > 1 else { return 0 }
        let n = Double(tail.count)
        let meanX = tail.reduce(0) { $0 + Double($1.events) } / n
        let meanY = tail.reduce(0) { $0 + $1.residentMB * 1_048_576 } / n
        var covariance = 0.0
        var variance = 0.0
        for sample in tail {
            let dx = Double(sample.events) - meanX
            covariance += dx * (sample.residentMB * 1_048_576 - meanY)
            variance += dx * dx
        }
        return variance > 0 ? covariance / variance : 0
    }

    /// How far that line rises over the second half, in MB.
    var secondHalfGrowthMB: Double { bytesPerEvent * Double(events) / 2 / 1_048_576 }

    var isFlat: Bool { stoppedAt == nil && secondHalfGrowthMB < flatLimitMB }
}

/// Counts on the consumer queue, samples memory, and lets the feeders go on.
final class Consumer: @unchecked Sendable {
    let name: String
    let expected: Int
    private(set) var received = 0
    var samples: [Sample] = []
    var peak = 0.0
    // Made at 0 and signalled up to the window: libdispatch traps when a semaphore is released
    // below the value it was made with, and the last credits are never all given back.
    let credit = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    /// Set when memory passed `memoryCapMB`: the feeders stop.
    let stopped = Atomic<Bool>(false)
    /// Events delivered when `stopped` was set; read after `finished`.
    private(set) var stoppedAt: Int?

    init(name: String, expected: Int) {
        self.name = name
        self.expected = expected
        for _ in 0..<window { credit.signal() }
    }

    func receive() {
        received += 1
        if received % batch == 0 { credit.signal() }
        if received % 100_000 == 0 {
            peak = max(peak, residentMB())
            if peak > memoryCapMB && stoppedAt == nil {
                stoppedAt = received
                stopped.store(true, ordering: .releasing)
                finished.signal()
            }
        }
        if received % (expected / sampleCount) == 0 && samples.count < sampleCount {
            let sample = Sample(events: received, residentMB: residentMB())
            samples.append(sample)
            FileHandle.standardError.write(
                Data("  \(name): \(received) events, \(String(format: "%.1f", sample.residentMB)) MB\n".utf8))
        }
        if received == expected && stoppedAt == nil { finished.signal() }
    }
}

/// Runs `total` events through the pipeline `build` makes from the four subjects, then lets go
/// of everything it made.
func run(
    _ name: String, _ build: ([PublishSubject<Int>]) -> Observable<Int>
) -> (
    consumer: Consumer, seconds: Double, cpuSeconds: Double
) {
    let subjects = (0..<feeders).map { _ in PublishSubject<Int>() }
    let consumer = Consumer(name: name, expected: total)
    let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "soak.consumer")
    let subscription = build(subjects)
        .observe(on: queue)
        .subscribe(onNext: { _ in consumer.receive() })
    let start = DispatchTime.now()
    let cpuStart = processCPUSeconds()
    DispatchQueue.concurrentPerform(iterations: feeders) { feeder in
        let share = total / feeders + (feeder < total % feeders ? 1 : 0)
        for i in 0..<share {
            if i % batch == 0 {
                if consumer.stopped.load(ordering: .acquiring) { break }
                consumer.credit.wait()
            }
            subjects[feeder].onNext(i)
        }
    }
    consumer.finished.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let cpuSeconds = processCPUSeconds() - cpuStart
    subscription.dispose()
    return (consumer, seconds, cpuSeconds)
}

func phase(
    _ name: String, _ build: ([PublishSubject<Int>]) -> Observable<Int>
) -> PhaseResult {
    let baseline = Resources.total
    let (consumer, seconds, cpuSeconds) = run(name, build)
    // observe(on:)'s queue lets go of its last items a moment after disposal.
    var liveAfter = Resources.total
    for _ in 0..<100 where liveAfter > baseline {
        usleep(10_000)
        liveAfter = Resources.total
    }
    if liveAfter > baseline {
        let left = Resources.liveCounts.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
        print("    alive: \(left)")
    }
    return PhaseResult(
        name: name, eventsPerSecond: Double(consumer.stoppedAt ?? total) / seconds,
        eventsPerCPUSecond: Double(consumer.stoppedAt ?? total) / cpuSeconds, samples: consumer.samples,
        peak: max(consumer.peak, consumer.samples.map(\.residentMB).max() ?? 0), stoppedAt: consumer.stoppedAt,
        liveAfter: liveAfter - baseline)
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
    let tenths = result.samples.enumerated().filter { $0.offset % 2 == 1 }
        .map { String(format: "%.0f", $0.element.residentMB) }.joined(separator: " ")
    print(result.name)
    print(
        String(
            format:
                "    %.2f M events/s (%.2f M per CPU-second)   peak %.0f MB   second half: %+.1f bytes/event, %+.1f MB",
            result.eventsPerSecond / 1e6, result.eventsPerCPUSecond / 1e6, result.peak, result.bytesPerEvent,
            result.secondHalfGrowthMB))
    print("    resident MB at each tenth: \(tenths)")
    if let stoppedAt = result.stoppedAt {
        print("    stopped after \(stoppedAt) events: resident memory passed \(Int(memoryCapMB)) MB")
    }
    print("    core objects left alive afterwards: \(result.liveAfter)")
}

print("Soak: \(total) events per phase, \(feeders) feeder threads, observe(on:) a serial queue")
print(String(format: "resident before: %.0f MB", residentMB()))
var results: [PhaseResult] = []

results.append(phase("flatMap/merge, tracing off", longLivedInners))
report(results.last!)

results.append(phase("flatMap { just } per element, tracing off", innerPerElement))
report(results.last!)

// Streamed, as RXTRACE records: the recorder keeps records only until its writer has appended
// them to the file, and a node only until it is deinitialized and written. RXTRACE_MAX_MB
// bounds the file (10 million events write about 9 GB): past the bound the writer replaces it
// with a new segment, so the size of the file at the end is not what the run wrote. What it
// wrote in all is counted by the kernel instead, /proc/self/io's `wchar` across the phase: the
// trace's writes, and the few progress lines above (under a kilobyte).
let traceBoundMB = 64
let tracePath = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(getpid()).rxtrace").path
let writtenBefore = bytesWritten()
guard
    let recorder = TraceAutostart.start(environment: [
        "RXTRACE": tracePath, "RXTRACE_MAX_MB": String(traceBoundMB),
    ])
else {
    print("error: could not start a streamed recording into \(tracePath)")
    exit(1)
}
results.append(phase("flatMap/merge, tracing on (RXTRACE streamed)", longLivedInners))
let nodesHeld = recorder.nodesHeld
let finished = TraceAutostart.finish()
let traceWritten = bytesWritten().flatMap { after in writtenBefore.map { after - $0 } }
let fileBytes = (try? FileManager.default.attributesOfItem(atPath: tracePath)[.size] as? Int) ?? 0
let segment = traceSegment(tracePath)
try? FileManager.default.removeItem(atPath: tracePath)
report(results.last!)
print("    recorder: \(recorder.nodeCount) nodes made, \(nodesHeld) held at the end")
let written =
    traceWritten.map {
        String(
            format: "%.0f MB written, %.0f bytes/event", Double($0) / 1_048_576,
            Double($0) / Double(results.last!.events))
    } ?? "bytes written not known (no /proc/self/io)"
print(
    "    trace: \(written); RXTRACE_MAX_MB=\(traceBoundMB) kept the file at "
        + String(format: "%.0f MB", Double(fileBytes) / 1_048_576)
        + (segment.map { " (replaced by a new segment \($0) times)" } ?? " (it never reached the bound)"))
if finished == nil {
    print("error: the streamed trace could not be finished")
    exit(1)
}

var failed = false
for result in results where !result.isFlat {
    if let stoppedAt = result.stoppedAt {
        print("error: memory passed \(Int(memoryCapMB)) MB after \(stoppedAt) events of \(result.name)")
        failed = true
        continue
    }
    let growth = String(format: "%+.1f MB over the second half (limit %.0f MB)", result.secondHalfGrowthMB, flatLimitMB)
    print("error: memory grew during \(result.name): \(growth)")
    failed = true
}
for result in results where result.liveAfter != 0 {
    print("error: \(result.liveAfter) core objects outlived \(result.name)")
    failed = true
}
exit(failed ? 1 : 0)
