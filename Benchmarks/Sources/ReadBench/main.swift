// ReadBench: how fast `rxtrace` reads a large trace, against Python's json module.
//
// It builds a trace shaped like a busy multi-threaded program (per subscription: a chain of
// eight nodes on one of eight threads, 24 calls and 24 events, then disposal and deinit), writes
// it as rxtrace/2 (what RXTRACE writes) and as rxtrace/1 JSON (`rxtrace convert --to json`),
// then measures, side by side in one run:
//
//   parse        TraceRecordReader over the v2 file: every record visited (MB/s)
//   graph        TraceDocument.readGraph + TraceSummary: what `rxtrace summary` does
//   whole        TraceDocument.read: the whole document (steps and events kept)
//   rxtrace      `rxtrace summary` as a child process: wall time and peak resident memory
//   python       `python3 -c 'json.load(…)'` of the v1 file: wall time and peak memory
//
// Usage (release):
//   swift build -c release --product ReadBench
//   .build/release/ReadBench [--subscriptions N] [--rxtrace PATH] [--keep DIR]
//   (--write DIR: only write the two files; the benchmark runs itself so to make them)
//
// With --rxtrace (a release rxtrace) and python3 on PATH it prints the CLI against Python.
// Wall times are the best of three runs.

import Foundation
import RxTrace

#if canImport(Glibc)
import Glibc
#endif

var subscriptions = 19_000
var rxtracePath: String?
var keepDirectory: String?
var writeOnly: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--subscriptions": subscriptions = Int(arguments.next() ?? "") ?? subscriptions
    case "--rxtrace": rxtracePath = arguments.next()
    case "--keep": keepDirectory = arguments.next()
    case "--write": writeOnly = arguments.next()
    default:
        FileHandle.standardError.write(
            Data("usage: ReadBench [--subscriptions N] [--rxtrace PATH] [--keep DIR]\n".utf8))
        exit(2)
    }
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func best(_ runs: Int = 3, _ body: () throws -> Void) rethrows -> Double {
    var fastest = Double.infinity
    for _ in 0..<runs {
        let start = now()
        try body()
        fastest = min(fastest, now() - start)
    }
    return fastest
}

/// A trace like the issue's program: `count` subscriptions of eight nodes.
func syntheticTrace(_ count: Int) -> TraceDocument {
    let types: [(TraceNodeKind, String)] = [
        (.sink, "MergeSink"), (.sink, "ObserveOnSink"), (.sink, "FlatMapSink"), (.sink, "MapSink"),
        (.observer, "AnonymousObserver"), (.disposable, "SinkDisposer"), (.sink, "JustSink"), (.sink, "DelaySink"),
    ]
    var document = TraceDocument(meta: ["program": "ReadBench", "subscriptions": "\(count)"])
    document.nodes.reserveCapacity(count * 8)
    var seq: UInt64 = 0
    var id: UInt64 = 0
    for subscription in 0..<count {
        let thread = "worker \(subscription % 8)"
        var ids: [UInt64] = []
        for (index, (kind, type)) in types.enumerated() {
            id += 1
            seq += 1
            ids.append(id)
            document.nodes.append(
                TraceNode(
                    id: id, kind: kind, type: type, callSite: "main.swift:\(10 + index)", fileID: "App/main.swift",
                    created: seq, thread: thread))
        }
        for (from, to) in zip(ids, ids.dropFirst()) {
            document.edges.append(TraceEdge(from: from, to: to, relation: .forward))
        }
        for element in 0..<6 {
            for (from, to) in zip(ids.prefix(4), ids.dropFirst().prefix(4)) {
                seq += 1
                document.steps.append(
                    TraceStep(seq: seq, from: from, to: to, call: .on, detail: "next(\(element))", thread: thread))
                seq += 1
                document.events.append(
                    TraceEvent(
                        seq: seq, node: to, kind: .next, value: "\(element)", time: Double(seq) / 1e5, thread: thread))
            }
        }
        for position in ids.indices {
            seq += 1
            document.nodes[document.nodes.count - 8 + position].disposed = seq
            seq += 1
            document.nodes[document.nodes.count - 8 + position].deinitialized = seq
        }
    }
    return document
}

/// Runs a child; returns its wall time and peak resident memory (MB).
func runChild(_ path: String, _ arguments: [String], quiet: Bool = true) -> (seconds: Double, peakMB: Double)? {
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    if quiet { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
    defer { posix_spawn_file_actions_destroy(&actions) }
    let start = now()
    guard posix_spawnp(&pid, path, &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid, status == 0 else { return nil }
    return (now() - start, Double(usage.ru_maxrss) / 1024)
}

func bestChild(_ path: String, _ arguments: [String]) -> (seconds: Double, peakMB: Double)? {
    var result: (seconds: Double, peakMB: Double)?
    for _ in 0..<3 {
        guard let run = runChild(path, arguments) else { return nil }
        result = result.map { (min($0.seconds, run.seconds), max($0.peakMB, run.peakMB)) } ?? run
    }
    return result
}

/// Writes the trace in both forms into `directory`; prints what it wrote.
func writeTraces(_ directory: URL) throws {
    let document = syntheticTrace(subscriptions)
    let v2URL = directory.appendingPathComponent("trace.rxt")
    let v1URL = directory.appendingPathComponent("trace.json")
    try document.write(to: v2URL, format: .v2)
    try document.write(to: v1URL, format: .v1)
    let v2Size = Double((try FileManager.default.attributesOfItem(atPath: v2URL.path)[.size] as? Int) ?? 0)
    let v1Size = Double((try FileManager.default.attributesOfItem(atPath: v1URL.path)[.size] as? Int) ?? 0)
    let records = document.nodes.count * 3 + document.edges.count + document.steps.count + document.events.count
    print(
        "trace: \(document.nodes.count) nodes, \(document.steps.count) steps, \(document.events.count) events; "
            + "rxtrace/2 \(String(format: "%.1f", v2Size / 1e6)) MB "
            + "(\(String(format: "%.0f", v2Size / Double(records))) bytes/record), "
            + "rxtrace/1 JSON \(String(format: "%.1f", v1Size / 1e6)) MB"
    )
}

if let writeOnly {
    try writeTraces(URL(fileURLWithPath: writeOnly))
    exit(0)
}

let directory =
    keepDirectory.map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("readbench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { if keepDirectory == nil { try? FileManager.default.removeItem(at: directory) } }
let v2URL = directory.appendingPathComponent("trace.rxt")
let v1URL = directory.appendingPathComponent("trace.json")

// The trace is made by a child process, so that this one stays small while it measures its
// own children's peak memory (a child's peak counts the memory of the process that started it).
let me = Bundle.main.executablePath ?? CommandLine.arguments[0]
guard runChild(me, ["--subscriptions", "\(subscriptions)", "--write", directory.path], quiet: false) != nil else {
    FileHandle.standardError.write(Data("ReadBench: could not write the traces\n".utf8))
    exit(1)
}
let v2Size = Double((try FileManager.default.attributesOfItem(atPath: v2URL.path)[.size] as? Int) ?? 0)

if let rxtracePath {
    if let cli = bestChild(rxtracePath, ["summary", v2URL.path]) {
        print(
            "rxtrace summary (rxtrace/2):               \(String(format: "%.2f", cli.seconds)) s, "
                + "peak \(String(format: "%.0f", cli.peakMB)) MB "
                + "(\(String(format: "%.2f", cli.peakMB * 1e6 / v2Size))× the file)"
        )
        if let python = bestChild("python3", ["-c", "import json,sys; json.load(open(sys.argv[1]))", v1URL.path]) {
            print(
                "python3 json.load (same trace as v1 JSON): \(String(format: "%.2f", python.seconds)) s, "
                    + "peak \(String(format: "%.0f", python.peakMB)) MB"
            )
            print("rxtrace summary / python json.load:        \(String(format: "%.2f", cli.seconds / python.seconds))×")
        } else {
            print("python3 not found: no comparison")
        }
    } else {
        print("\(rxtracePath) summary failed")
    }
}

var visited = 0
let parse = try best {
    visited = 0
    _ = try TraceRecordReader.read(from: v2URL) { _ in visited += 1 }
}
print(
    "parse   (TraceRecordReader, every record): \(String(format: "%.2f", parse)) s, "
        + "\(String(format: "%.0f", v2Size / 1e6 / parse)) MB/s, \(visited) records"
)
var summaryText = ""
let graph = try best {
    let (graph, counts, _) = try TraceDocument.readGraph(from: v2URL)
    summaryText = TraceSummary(graph: graph, counts: counts).description
}
print("graph   (readGraph + TraceSummary):         \(String(format: "%.2f", graph)) s")
var whole = TraceDocument()
let wholeTime = try best(1) { whole = try TraceDocument.read(from: v2URL) }
print("whole   (TraceDocument.read, all kept):     \(String(format: "%.2f", wholeTime)) s")
precondition(summaryText == TraceSummary(whole).description, "the streamed summary differs from the whole one")
