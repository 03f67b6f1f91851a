// TraceBench: what the trace hooks cost, on `create` → `map` → `filter` → `subscribe`
// delivering 1,000,000 events.
//
//   off / compiled-out  tracing off against a build with the hooks compiled out
//                       (RXANATOMY_NO_TRACE=1, its own scratch path): target ≤ 1.05
//   on / off            a TraceRecorder recording every step and event against tracing off:
//                       target ≤ 10, with memory bounded by the rings
//   --threaded          a multi-threaded program (Threaded.swift) run as a child process,
//                       untraced and under RXTRACE: traced / untraced for events and for
//                       subscribe/dispose from 4 threads and from 1 (the 4-thread ratio's
//                       target: no more than the 1-thread one), wall time including exit, exit
//                       pause, peak memory, trace size, bytes per record: targets ≤ 5×,
//                       ≤ 0.5 s, ≤ 200 MB
//
// Usage (release):
//   RXANATOMY_NO_TRACE=1 swift build -c release --product TraceBench --scratch-path .build-notrace
//   swift build -c release --product TraceBench
//   .build/release/TraceBench --baseline .build-notrace/release/TraceBench
//
// Times are CPU time of the measuring thread (CLOCK_THREAD_CPUTIME_ID), not wall time, so
// that other processes on a shared machine do not count. Without --baseline it prints its own
// figures only. Run with --raw, it prints the best time
// per event in nanoseconds for each measure, one per line (what --baseline reads). Each
// figure is the best of several rounds; the baseline binary is run once per round,
// alternating with this one, so both see the same machine load, and off / compiled-out is the
// median of the rounds' paired ratios.

import Foundation
import RxCore

#if canImport(Glibc)
import Glibc
#endif

let events = 1_000_000
let rounds = 11

/// One pass: `create` emitting `events` integers → `map` → `filter` → `subscribe`.
@inline(never)
func pipeline() -> Int { pipeline(events) }

/// `create` emitting `count` integers → `map` → `filter` → `subscribe`; returns the sum (the
/// in-process rounds and `--pipeline-child`'s whole-process run share it).
@inline(never)
func pipeline(_ count: Int) -> Int {
    var sum = 0
    let source = Observable<Int>.create { observer in
        for i in 0..<count { observer.onNext(i) }
        observer.onCompleted()
        return Disposables.create()
    }
    let d =
        source
        .map { $0 &+ 1 }
        .filter { $0 & 1 == 0 }
        .subscribe(onNext: { sum &+= $0 })
    d.dispose()
    return sum
}

/// CPU time of this thread, in nanoseconds: the machine is shared (other builds run beside
/// the benchmark), and wall time would count the time this thread was not running.
func threadCPUTime() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func nanosecondsPerEvent(_ body: () -> Int) -> Double {
    let start = threadCPUTime()
    let result = body()
    let elapsed = threadCPUTime() - start
    precondition(result == 250_000_500_000, "wrong result \(result)")
    return Double(elapsed) / Double(events)
}

/// Resident memory in MB (Linux /proc; nil elsewhere).
func residentMB() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return nil }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

func measureOff() -> Double {
    nanosecondsPerEvent(pipeline)
}

func measureOn(options: TraceRecorder.Options = TraceRecorder.Options()) -> (ns: Double, recorder: TraceRecorder) {
    let recorder = TraceRecorder(options: options)
    Tracing.tracer = recorder
    let ns = nanosecondsPerEvent(pipeline)
    Tracing.tracer = nil
    return (ns, recorder)
}

let arguments = CommandLine.arguments
let perRound = 3

if arguments.contains("--pipeline-child") {
    runPipelineChild(countArgument("--pipeline-child", events))
    exit(0)
}
if arguments.contains("--cycles-child") {
    runCyclesChild(countArgument("--cycles-child", 20_000))
    exit(0)
}
if arguments.contains("--threaded-child") {
    runThreadedChild()
    exit(0)
}
if arguments.contains("--threaded") {
    // RXTRACE_FORMAT values to compare with the untraced run (--formats 3,2,1); by default the
    // one RXTRACE writes unless told otherwise, rxtrace/3.
    let formats =
        arguments.firstIndex(of: "--formats").flatMap { index in
            index + 1 < arguments.count ? arguments[index + 1].split(separator: ",").map(String.init) : nil
        } ?? ["3"]
    runThreadedComparison(rounds: 3, formats: formats)
    exit(0)
}

/// Best of `perRound` passes with tracing off.
func bestOff() -> Double {
    var best = Double.infinity
    for _ in 0..<perRound { best = min(best, measureOff()) }
    return best
}

if arguments.contains("--raw") {
    // One round, for a parent run to compare against.
    _ = measureOff()
    print(bestOff())
    exit(0)
}
if arguments.contains("--profile-on") {
    for _ in 0..<3 {
        _ = measureOn(options: TraceRecorder.Options(keep: arguments.contains("--graph") ? .graph : .all))
    }
    exit(0)
}

let baseline: String? = arguments.firstIndex(of: "--baseline").flatMap { index in
    index + 1 < arguments.count ? arguments[index + 1] : nil
}

func runBaseline(_ path: String) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["--raw"]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").last.flatMap { Double($0) }
}

print("TraceBench: create → map → filter → subscribe, \(events) events, best of \(rounds) rounds × \(perRound) passes")
print("hooks compiled in: \(Tracing.hooksCompiledIn)")

_ = measureOff() // warm up
var off = Double.infinity
var compiledOut = Double.infinity
// The ratio of each round's pair (this binary, then the baseline right after): a burst of load
// on the machine slows one round of both, where the best of each side could come from
// different moments.
var pairRatios: [Double] = []
for _ in 0..<rounds {
    let thisRound = bestOff()
    off = min(off, thisRound)
    if let baseline, let ns = runBaseline(baseline) {
        compiledOut = min(compiledOut, ns)
        pairRatios.append(thisRound / ns)
    }
}
print(String(format: "tracing off:            %7.2f ns/event", off))
if compiledOut.isFinite {
    pairRatios.sort()
    print(String(format: "hooks compiled out:     %7.2f ns/event", compiledOut))
    print(
        String(
            format:
                "off / compiled out:     %7.3f  (target ≤ 1.05; median of %d paired rounds, %.3f–%.3f; "
                + "ratio of the bests %.3f)",
            pairRatios[pairRatios.count / 2], pairRatios.count, pairRatios.first!, pairRatios.last!, off / compiledOut))
}

guard Tracing.hooksCompiledIn else { exit(0) }

let memoryBefore = residentMB()
var on = Double.infinity
var last: TraceRecorder?
for _ in 0..<3 {
    last = nil
    let (ns, recorder) = measureOn()
    on = min(on, ns)
    last = recorder
}
let memoryWithRing = residentMB()
print(String(format: "tracing on (all kept):  %7.2f ns/event", on))
print(String(format: "on / off:               %7.2f  (target ≤ 10)", on / off))
if let recorder = last {
    let start = DispatchTime.now().uptimeNanoseconds
    let document = recorder.snapshot()
    let snapshotMS = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    print(
        "ring: \(document.steps.count) steps kept, \(document.dropped.steps) dropped; \(document.events.count) "
            + "events kept, \(document.dropped.events) dropped; \(document.nodes.count) nodes"
    )
    print(String(format: "snapshot of the full rings: %.0f ms", snapshotMS))
}
if let memoryBefore, let memoryWithRing {
    print(
        String(
            format:
                "resident memory: %.0f MB before recording, %.0f MB with one full recorder (newest %d steps and "
                + "events kept; one %d-byte record per traced call)",
            memoryBefore, memoryWithRing, TraceRecorder.Options.defaultRingCapacity, TraceRecorder.recordSizes.step))
}

var eventsNS = Double.infinity, graphNS = Double.infinity
for _ in 0..<3 {
    eventsNS = min(eventsNS, measureOn(options: TraceRecorder.Options(keep: .events)).ns)
    graphNS = min(graphNS, measureOn(options: TraceRecorder.Options(keep: .graph)).ns)
}
print(String(format: "tracing on (no steps):   %6.2f ns/event, %.2f × off", eventsNS, eventsNS / off))
print(String(format: "tracing on (graph only): %6.2f ns/event, %.2f × off", graphNS, graphNS / off))

// The same recording once its rings are full: a second pass through a recorder the first pass
// filled. The "on / off" figure above is a fresh recorder's first 1,000,000 events, which
// includes making its rings' memory resident (about a quarter of that run, mostly kernel time);
// this one is what each event costs after that.
var steadyNS = Double.infinity
for _ in 0..<3 {
    let recorder = TraceRecorder()
    Tracing.tracer = recorder
    _ = pipeline()
    steadyNS = min(steadyNS, nanosecondsPerEvent(pipeline))
    Tracing.tracer = nil
}
print(String(format: "tracing on, rings full:  %6.2f ns/event, %.2f × off", steadyNS, steadyNS / off))
