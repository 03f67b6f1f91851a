// The report page's speed (issue 13): writes traces, makes each page with `rxtrace report`
// (timed), then has headless Chromium load it and step through it
// (Tests/Browser/report_browser.py measure: load time and time per step, Performance API).
//
//   ReportBench RXTRACE-BINARY OUT-DIR          (make bench-report)
//
// Two traces of about 10,000 nodes, each collapsed into one ×N node by the graph view:
// - `built`: `from(0..<2500).flatMap { just($0) }` in the shape RenderBench measures, built by
//   hand (BenchTraces.flatMapJust: 2,500 inner subscriptions of four nodes, nine calls each);
// - `recorded`: a real recording of `from(0..<5000).flatMap { just($0) }` (5,000 inner
//   subscriptions of two nodes: the `Just` and merge's inner observer).
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
    _ = Observable.from(Array(0..<5_000)).flatMap { Observable.just($0) }.subscribe(onNext: { sum += $0 })
}
precondition(sum == 5_000 * 4_999 / 2)
for (name, trace) in [("built", flatMapJust(count: 2_500)), ("recorded", recorded)] {
    let traceURL = directory.appendingPathComponent("\(name).trace.json")
    let page = directory.appendingPathComponent("\(name).html")
    try trace.write(to: traceURL)
    print("\n== \(name): \(trace.nodes.count) nodes, \(trace.steps.count) calls, \(trace.events.count) events")
    let seconds = try run(rxtrace.path, ["report", traceURL.path, "-o", page.path])
    print(String(format: "rxtrace report: %.2f s", seconds))
    try run("/usr/bin/env", ["python3", script.path, "measure", page.path])
}
