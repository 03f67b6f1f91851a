// The report page's speed (issue 13): writes traces, makes each page with `rxtrace report`
// (timed), then has headless Chromium load it and step through it
// (Tests/Browser/report_browser.py measure: load time and time per step, Performance API).
//
//   ReportBench RXTRACE-BINARY OUT-DIR          (make bench-report)
//
// Two traces of about 10,000 nodes:
// - `collapsed`: `from(0..<2500).flatMap { just($0) }` in the shape whose 2,500 inner
//   subscriptions the graph view collapses into one ×2500 node (built here, as RenderBench
//   builds its graph; each inner subscription makes the 9 calls and 4 events of a real one);
// - `recorded`: a real recording of `from(0..<2000).flatMap { of($0) }`, whose inner
//   subscriptions the graph view does not collapse today (the merge's disposable owns every
//   inner observer), so its page has no graph: the replay, marbles and tables alone.
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

/// `from(0..<count).flatMap { just($0) }.subscribe(…)` as the collapsing expects it: per
/// inner subscription a `Just`, a `JustSink`, its `SinkDisposer` and a `FlatMapInnerObserver`.
func collapsibleFlatMap(count: Int) -> TraceDocument {
    var nodes: [TraceNode] = []
    var edges: [TraceEdge] = []
    var steps: [TraceStep] = []
    var events: [TraceEvent] = []
    var seq: UInt64 = 0
    func tick() -> UInt64 {
        seq += 1
        return seq
    }
    func node(_ id: UInt64, _ kind: TraceNodeKind, _ type: String, _ line: Int) {
        nodes.append(TraceNode(id: id, kind: kind, type: type, callSite: "main.swift:\(line)", created: tick()))
    }
    func step(_ from: UInt64, _ to: UInt64, _ call: TraceCall, _ detail: String? = nil) {
        steps.append(TraceStep(seq: tick(), from: from, to: to, call: call, detail: detail))
    }
    func event(_ node: UInt64, _ kind: TraceEventKind, _ value: String?) {
        events.append(TraceEvent(seq: tick(), node: node, kind: kind, value: value, time: Double(seq) / 1e6))
    }
    node(1, .producer, "ObservableSequence", 1)
    node(2, .producer, "FlatMap", 2)
    node(3, .observer, "AnonymousObserver", 3)
    step(3, 2, .subscribe, "subscribe(3)")
    node(4, .disposable, "SinkDisposer", 3)
    node(5, .sink, "FlatMapSink", 3)
    node(6, .disposable, "CompositeDisposable", 3)
    node(7, .disposable, "SinkDisposer", 3)
    node(8, .sink, "ObservableSequenceSink", 3)
    edges += [
        TraceEdge(from: 2, to: 1, relation: .source), TraceEdge(from: 2, to: 5, relation: .run),
        TraceEdge(from: 5, to: 3, relation: .forward), TraceEdge(from: 4, to: 5, relation: .owns),
        TraceEdge(from: 4, to: 6, relation: .owns), TraceEdge(from: 1, to: 8, relation: .run),
        TraceEdge(from: 8, to: 5, relation: .forward), TraceEdge(from: 7, to: 8, relation: .owns),
        TraceEdge(from: 6, to: 7, relation: .owns),
    ]
    step(5, 1, .subscribe, "subscribe(5)")
    var next: UInt64 = 9
    for element in 0..<count {
        let just = next, observer = next + 1, disposer = next + 2, sink = next + 3
        next += 4
        event(8, .next, "\(element)")
        step(8, 5, .forwardOn, "next(\(element))")
        node(just, .producer, "Just", 2)
        node(observer, .observer, "FlatMapInnerObserver", 3)
        step(observer, just, .subscribe, "subscribe(\(observer))")
        node(disposer, .disposable, "SinkDisposer", 3)
        step(just, disposer, .`init`, "SinkDisposer")
        step(just, just, .run, "run(observer: \(observer), cancel: \(disposer))")
        node(sink, .sink, "JustSink", 3)
        step(just, sink, .`init`)
        edges += [
            TraceEdge(from: just, to: sink, relation: .run), TraceEdge(from: sink, to: observer, relation: .forward),
            TraceEdge(from: observer, to: 5, relation: .forward), TraceEdge(from: disposer, to: sink, relation: .owns),
            TraceEdge(from: 6, to: disposer, relation: .owns),
        ]
        step(sink, observer, .forwardOn, "next(\(element))")
        event(observer, .next, "\(element)")
        step(observer, 5, .forwardOn, "next(\(element))")
        event(5, .next, "\(element)")
        step(5, 3, .forwardOn, "next(\(element))")
        event(3, .next, "\(element)")
        step(sink, observer, .forwardOn, "completed")
        event(observer, .completed, nil)
        nodes[nodes.count - 3].terminated = seq
        step(6, disposer, .dispose)
        let gone = tick()
        for index in nodes.indices.suffix(3) {
            nodes[index].disposed = gone
            nodes[index].deinitialized = gone
        }
    }
    event(8, .completed, nil)
    event(5, .completed, nil)
    event(3, .completed, nil)
    for index in nodes.indices where [3, 5, 8].contains(nodes[index].id) { nodes[index].terminated = seq }
    step(0, 4, .dispose)
    let end = tick()
    for index in nodes.indices where nodes[index].kind != .producer && nodes[index].disposed == nil {
        nodes[index].disposed = end
        nodes[index].deinitialized = end
    }
    return TraceDocument(
        meta: ["program": "flatmap-collapsed"], nodes: nodes, edges: edges, steps: steps, events: events)
}

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
for (name, trace) in [("collapsed", collapsibleFlatMap(count: 2_500)), ("recorded", recorded)] {
    let traceURL = directory.appendingPathComponent("\(name).trace.json")
    let page = directory.appendingPathComponent("\(name).html")
    try trace.write(to: traceURL)
    print("\n== \(name): \(trace.nodes.count) nodes, \(trace.steps.count) calls, \(trace.events.count) events")
    let seconds = try run(rxtrace.path, ["report", traceURL.path, "-o", page.path])
    print(String(format: "rxtrace report: %.2f s", seconds))
    try run("/usr/bin/env", ["python3", script.path, "measure", page.path])
}
