// The report page's speed (issue 13): writes traces, makes each page with `rxtrace report`
// (timed), then has headless Chromium load it and step through it
// (Tests/Browser/report_browser.py measure: load time and time per step, Performance API).
//
//   ReportBench RXTRACE-BINARY OUT-DIR          (make bench-report)
//
// Two traces of about 10,000 nodes:
// - `collapsed`: `from(0..<2500).flatMap { just($0) }` in the shape whose 2,500 inner
//   subscriptions the graph view collapses into one ×2500 node (built by hand, as RenderBench's
//   graph is: BenchTraces.flatMapJust);
// - `recorded`: a real recording of `from(0..<2000).flatMap { of($0) }`, whose inner
//   subscriptions the graph view does not collapse today (the merge's disposable owns every
//   inner observer), so its page has no graph: the replay, marbles and tables alone.
import BenchTraces
import Foundation
import RxTrace

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ReportBench RXTRACE-BINARY OUT-DIR\n".utf8))
    exit(2)
}
let rxtrace = URL(fileURLWithPath: arguments[1])
let directory = URL(fileURLWithPath: arguments[2], isDirectory: true)
let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "../../../Tests/Browser/report_browser.py"
).standardizedFileURL
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

/// Runs a program, its output going to ours; returns the wall time in seconds.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        FileHandle.standardError.write(Data("\(executable) failed with status \(process.terminationStatus)\n".utf8))
        exit(1)
    }
    let elapsed = start.duration(to: .now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

var sum = 0
let recorded = Trace.record {
    _ = Observable.from(Array(0..<2_000)).flatMap { Observable.of($0) }.subscribe(onNext: { sum += $0 })
}
precondition(sum == 2_000 * 1_999 / 2)
for (name, trace) in [("collapsed", flatMapJust(count: 2_500)), ("recorded", recorded)] {
    let traceURL = directory.appendingPathComponent("\(name).trace.json")
    let page = directory.appendingPathComponent("\(name).html")
    try trace.write(to: traceURL)
    print("\n== \(name): \(trace.nodes.count) nodes, \(trace.steps.count) calls, \(trace.events.count) events")
    let seconds = try run(rxtrace.path, ["report", traceURL.path, "-o", page.path])
    print(String(format: "rxtrace report: %.2f s", seconds))
    try run("/usr/bin/env", ["python3", script.path, "measure", page.path])
}
