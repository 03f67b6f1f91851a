// The multi-threaded scenario (TraceBench --threaded): a small program such as people trace,
// run as a child process untraced and under RXTRACE, so that wall time includes the exit (where
// a trace written at the end costs), and peak memory is the child's own.
//
//   events:            8 threads feed two subjects (4 each) → merge → observe(on:) a serial
//                      queue → flatMap { just($0).delay(1 ms) } → subscribe
//   subscribe/dispose: 8,000 cycles of subject → map → filter → subscribe, then dispose,
//                      from 4 threads at once, then the same 8,000 from one thread
//
// The child prints its phases' wall times and the monotonic time at which it returned from
// main; the parent sees when the process ended (exit pause), its peak resident memory
// (getrusage of children), and the trace's size.

import Foundation
import RxCore

#if canImport(Glibc)
import Glibc
#endif

let threadedFeeders = 8
let elementsPerFeeder = 4_000
let cycleThreads = 4
let cyclesPerThread = 2_000

func monotonicNow() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Runs `body(index)` on `count` threads at once; returns when all are done.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

/// Processor time this process has used so far (all its threads: a traced run's writer too).
func processorNow() -> UInt64 {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func nanoseconds(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1000 }
    return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
}

/// The child: the three phases, then one line `events_ns cycles_ns one_thread_cycles_ns
/// returned_at_ns cycles_cpu_ns one_thread_cpu_ns`.
func runThreadedChild() {
    // Phase 1: events across threads.
    let start = monotonicNow()
    let left = PublishSubject<Int>(), right = PublishSubject<Int>()
    let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "tracebench.observe")
    let delayQueue = SerialDispatchQueueScheduler(internalSerialQueueName: "tracebench.delay")
    let expected = threadedFeeders * elementsPerFeeder
    let received = DispatchSemaphore(value: 0)
    let counter = AtomicCounter()
    let subscription = Observable.merge(left, right)
        .observe(on: queue)
        .flatMap { Observable.just($0).delay(.milliseconds(1), scheduler: delayQueue) }
        .subscribe(onNext: { _ in
            if counter.increment() == expected { received.signal() }
        })
    onThreads(threadedFeeders) { feeder in
        let subject = feeder < threadedFeeders / 2 ? left : right
        for value in 0..<elementsPerFeeder { subject.onNext(feeder * elementsPerFeeder + value) }
    }
    received.wait()
    subscription.dispose()
    let eventsNS = monotonicNow() - start

    // Phase 2: subscribe/dispose cycles across threads.
    let source = PublishSubject<Int>()
    let cyclesCPU = processorNow()
    let cyclesNS = subscribeDisposeCycles(source, threads: cycleThreads)
    // Phase 3: the same cycles from one thread, the yardstick of the target "across threads,
    // no dearer than on one thread".
    let oneThreadCPU = processorNow()
    let oneThreadNS = subscribeDisposeCycles(source, threads: 1)
    let end = processorNow()
    print(eventsNS, cyclesNS, oneThreadNS, monotonicNow(), oneThreadCPU - cyclesCPU, end - oneThreadCPU)
}

/// `cycleThreads × cyclesPerThread` subscribe/dispose cycles shared out among `threads`
/// threads running at once; returns their wall time.
func subscribeDisposeCycles(_ source: PublishSubject<Int>, threads: Int) -> UInt64 {
    let start = monotonicNow()
    onThreads(threads) { _ in
        for _ in 0..<(cycleThreads * cyclesPerThread / threads) {
            let d = source.map { $0 + 1 }.filter { $0 > 0 }.subscribe(onNext: { _ in })
            d.dispose()
        }
    }
    return monotonicNow() - start
}

final class AtomicCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

struct ThreadedRun {
    var eventsNS: Double
    var cyclesNS: Double
    var oneThreadNS: Double
    var wallNS: Double
    var exitPauseNS: Double
    var peakMB: Double
    var traceBytes: Int
    /// Processor time of the two cycle phases, all threads (a traced run's writer too).
    var cyclesCPUNS: Double
    var oneThreadCPUNS: Double
}

/// One child run, traced (`environment` holds RXTRACE…) or not.
func runThreadedOnce(environment: [String: String]) -> ThreadedRun? {
    var env = ProcessInfo.processInfo.environment
    env["RXTRACE"] = nil
    env.merge(environment) { _, new in new }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--threaded-child"]
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    let start = monotonicNow()
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let end = monotonicNow()
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { UInt64($0) }
    guard process.terminationStatus == 0, fields.count == 6 else { return nil }
    let bytes = environment["RXTRACE"].flatMap {
        (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? nil
    }
    return ThreadedRun(
        eventsNS: Double(fields[0]), cyclesNS: Double(fields[1]), oneThreadNS: Double(fields[2]),
        // The one-thread phase is a yardstick, not part of the program: left out of its wall time.
        wallNS: Double(end - start) - Double(fields[2]), exitPauseNS: Double(end &- fields[3]),
        peakMB: Double(usage.ru_maxrss) / 1024, traceBytes: bytes ?? 0, cyclesCPUNS: Double(fields[4]),
        oneThreadCPUNS: Double(fields[5]))
}

/// Untraced and traced child runs side by side, best of `rounds` (peak memory: the largest
/// seen so far among children, so the traced runs go last).
func runThreadedComparison(rounds: Int, formats: [String]) {
    print(
        "TraceBench --threaded: \(threadedFeeders) threads × \(elementsPerFeeder) elements → two subjects → merge "
            + "→ observe(on:) → flatMap { just.delay(1 ms) }; \(cycleThreads) threads × \(cyclesPerThread) "
            + "subscribe/dispose cycles, then the same cycles from 1 thread; best of \(rounds)"
    )
    func best(_ environment: [String: String]) -> ThreadedRun? {
        var result: ThreadedRun?
        for _ in 0..<rounds {
            guard let run = runThreadedOnce(environment: environment) else { return nil }
            if let current = result {
                result = ThreadedRun(
                    eventsNS: min(current.eventsNS, run.eventsNS), cyclesNS: min(current.cyclesNS, run.cyclesNS),
                    oneThreadNS: min(current.oneThreadNS, run.oneThreadNS),
                    wallNS: min(current.wallNS, run.wallNS), exitPauseNS: min(current.exitPauseNS, run.exitPauseNS),
                    peakMB: run.peakMB, traceBytes: run.traceBytes,
                    cyclesCPUNS: min(current.cyclesCPUNS, run.cyclesCPUNS),
                    oneThreadCPUNS: min(current.oneThreadCPUNS, run.oneThreadCPUNS))
            } else {
                result = run
            }
        }
        return result
    }
    guard let off = best([:]) else {
        print("the untraced run failed")
        return
    }
    print(
        String(
            format:
                "untraced:  events %6.0f ms, subscribe/dispose %6.0f ms (1 thread: %4.0f ms), wall %6.0f ms, "
                + "exit pause %5.0f ms, peak %4.0f MB",
            off.eventsNS / 1e6, off.cyclesNS / 1e6, off.oneThreadNS / 1e6, off.wallNS / 1e6, off.exitPauseNS / 1e6,
            off.peakMB))
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tracebench-threaded-\(getpid()).trace")
        .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    for format in formats {
        guard let on = best(["RXTRACE": path, "RXTRACE_FORMAT": format]) else {
            print("the traced run (RXTRACE_FORMAT=\(format)) failed")
            continue
        }
        let records = traceRecordCount(path)
        print(
            String(
                format:
                    "RXTRACE_FORMAT=%@: events %6.0f ms (%.1f×), subscribe/dispose %6.0f ms (%.1f×; 1 thread: "
                    + "%4.0f ms, %.1f×), wall %6.0f ms (%.1f×), exit pause %5.0f ms, peak %4.0f MB",
                format, on.eventsNS / 1e6, on.eventsNS / off.eventsNS, on.cyclesNS / 1e6, on.cyclesNS / off.cyclesNS,
                on.oneThreadNS / 1e6, on.oneThreadNS / off.oneThreadNS,
                on.wallNS / 1e6, on.wallNS / off.wallNS, on.exitPauseNS / 1e6, on.peakMB))
        // Processor time per cycle, all threads: what tracing costs the machine, apart from how
        // the threads share its cores (on two cores a traced run's writer takes the core that
        // the untraced cycles from four threads use).
        let cycles = Double(cycleThreads * cyclesPerThread)
        print(
            String(
                format:
                    "    subscribe/dispose processor time per cycle, all threads: 4 threads %.1f µs (%.1f×), "
                    + "1 thread %.1f µs (%.1f×)",
                on.cyclesCPUNS / cycles / 1e3, on.cyclesCPUNS / off.cyclesCPUNS, on.oneThreadCPUNS / cycles / 1e3,
                on.oneThreadCPUNS / off.oneThreadCPUNS))
        let mb = Double(on.traceBytes) / 1_048_576
        let rate = mb / ((on.wallNS + on.oneThreadNS) / 1e9)
        if let records {
            print(
                String(
                    format:
                        "    trace %.1f MB, %d lines (records), %.1f bytes per line, %.1f MB/s written over the run",
                    mb, records, Double(on.traceBytes) / Double(max(records, 1)), rate))
        } else { // rxtrace/3's binary records are counted by `rxtrace summary`, not here
            print(String(format: "    trace %.1f MB, %.1f MB/s written over the run", mb, rate))
        }
    }
}

/// Lines in the file (rxtrace/2: records), or for rxtrace/1 the steps and events; nil for
/// rxtrace/3, whose binary records only the reader (RxTrace, not linked here) can count.
func traceRecordCount(_ path: String) -> Int? {
    guard let data = FileManager.default.contents(atPath: path) else { return 0 }
    if data.starts(with: Array("{\"format\":\"rxtrace/3\"".utf8)) { return nil }
    if data.first == UInt8(ascii: "{"), data.starts(with: Array("{\"format\":\"rxtrace/2\"".utf8)) {
        return data.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return 0 }
    return ((object["steps"] as? [Any])?.count ?? 0) + ((object["events"] as? [Any])?.count ?? 0)
        + ((object["nodes"] as? [Any])?.count ?? 0)
}
