import ChildProcess
import Foundation
import RxTrace
import Testing

/// Every variable docs/trace-format.md documents, end to end: a traced program (`tracechild
/// run N`, which sends N elements through a subject → map → filter → subscribe it leaves open,
/// and runs of → map → subscribe to the end) started with the variable set, and its file read
/// back.
@Suite(.serialized) struct EnvironmentTests {
    static let child: URL? = CLI.binary.map {
        $0.deletingLastPathComponent().appendingPathComponent("tracechild")
    }

    /// A finished run: its directory (removed when this goes), how it ended, the trace's path.
    struct Run {
        let scratch: Scratch
        let result: Child.Result
        let url: URL
    }

    /// Runs `tracechild run count` in a fresh directory with `environment` (`RXTRACE` set to
    /// `t.trace` there unless `trace` is nil).
    func run(
        _ environment: [String: String?], count: Int = 1000, paced: Bool = false, trace: String? = "t.trace"
    ) throws -> Run {
        let program = try #require(
            Self.child.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil })
        let scratch = try Scratch()
        let url = scratch.url.appendingPathComponent(trace ?? "t.trace")
        var variables: [String: String?] = [
            "RXTRACE": trace.map { _ in url.path }, "RXTRACE_FORMAT": nil, "RXTRACE_KEEP": nil,
            "RXTRACE_RING": nil, "RXTRACE_MAX_MB": nil,
        ]
        variables.merge(environment) { $1 }
        let result = try Child.run(
            program, arguments: ["run", String(count)] + (paced ? ["paced"] : []), environment: variables,
            directory: scratch.url,
            timeLimit: 60)
        #expect(result.status == 0 && !result.timedOut, "tracechild ended with \(result.ending): \(result.stderr)")
        #expect(result.out == "done\n")
        return Run(scratch: scratch, result: result, url: url)
    }

    func lines(_ url: URL) throws -> [Substring] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    }

    // MARK: - RXTRACE

    @Test func withoutRXTRACENothingIsWritten() throws {
        let untraced = try run([:], trace: nil)
        #expect(untraced.result.stderr.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: untraced.scratch.url.path).isEmpty)
    }

    @Test func rxtraceStreamsTheDefaultFormatAndEndsIt() throws {
        let traced = try run([:])
        #expect(traced.result.stderr.isEmpty)
        let (trace, status) = try TraceDocument.readWithStatus(from: traced.url)
        #expect(status.format == "rxtrace/3")
        #expect(status.endReason == "exit" && !status.cutShort)
        #expect(trace.meta["streamed"] == "true")
        // The open subscription's observer got every element; the finished one is disposed.
        let observer = try #require(trace.nodes.first { $0.type == "AnonymousObserver" })
        #expect(trace.events.filter { $0.node == observer.id && $0.kind == .next }.count == 1000)
        #expect(trace.nodes.contains { $0.type == "ObservableSequenceSink" && $0.disposed != nil })
        #expect(Trace.leaks(in: trace).nodes.contains { $0.type == "FilterSink" })
    }

    @Test(arguments: ["1", "2"]) func anUnwritablePathIsOneLineAndTheProgramRunsOn(format: String) throws {
        let traced = try run(["RXTRACE": "/nonexistent-\(UUID().uuidString)/t.trace", "RXTRACE_FORMAT": format])
        let said = traced.result.stderr.split(separator: "\n")
        #expect(said.count == 1 && said.first?.hasPrefix("rxtrace: cannot write ") == true, "\(traced.result.stderr)")
    }

    // MARK: - RXTRACE_FORMAT

    @Test(arguments: ["1", "json", "rxtrace/1"]) func format1WritesOneRxtrace1Document(value: String) throws {
        let traced = try run(["RXTRACE_FORMAT": value])
        #expect(traced.result.stderr.isEmpty)
        let data = try Data(contentsOf: traced.url)
        // One JSON value, keys sorted (`dropped` first), not JSON lines.
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "rxtrace/1")
        #expect(data.starts(with: Data("{\"dropped\":".utf8)))
        #expect(!data.dropLast().contains(UInt8(ascii: "\n")))
        let trace = try TraceDocument.read(from: traced.url)
        #expect(trace.meta["streamed"] == nil && trace.meta["ringCapacity"] == "1000000")
        #expect(trace.events.filter { $0.kind == .next }.count >= 1000)
    }

    @Test(arguments: [
        ("2", "", "rxtrace/2"), ("3", "", "rxtrace/3"),
        ("7", "rxtrace: RXTRACE_FORMAT=7 is not 1, 2 or 3; writing rxtrace/3\n", "rxtrace/3"),
    ])
    func format2And3StreamAndAnUnknownValueFallsBackTo3(value: String, warning: String, format: String) throws {
        let traced = try run(["RXTRACE_FORMAT": value])
        #expect(traced.result.stderr == warning)
        let head = try Data(contentsOf: traced.url).prefix(32)
        #expect(String(decoding: head, as: UTF8.self).hasPrefix("{\"format\":\"\(format)\"") == true)
        #expect(try TraceDocument.read(from: traced.url).events.count > 0)
    }

    // MARK: - RXTRACE_KEEP

    @Test(arguments: ["1", "2"]) func keepChoosesWhatIsKept(format: String) throws {
        let everything = try run(["RXTRACE_FORMAT": format, "RXTRACE_KEEP": "all"])
        let all = try TraceDocument.read(from: everything.url)
        #expect(!all.steps.isEmpty && !all.events.isEmpty)

        let noSteps = try run(["RXTRACE_FORMAT": format, "RXTRACE_KEEP": "events"])
        let events = try TraceDocument.read(from: noSteps.url)
        #expect(events.meta["keep"] == "events")
        #expect(events.steps.isEmpty && events.events.count == all.events.count)

        let graphOnly = try run(["RXTRACE_FORMAT": format, "RXTRACE_KEEP": "GRAPH"])
        let graph = try TraceDocument.read(from: graphOnly.url)
        #expect(graph.meta["keep"] == "graph")
        #expect(graph.steps.isEmpty && graph.events.isEmpty && !graph.resources.isEmpty)
        #expect(graph.nodes.count == all.nodes.count && Set(graph.edges) == Set(all.edges))
        // Termination is still noted on the nodes: the finished subscription is no leak.
        #expect(graph.nodes.contains { $0.type == "AnonymousObserver" && $0.terminated != nil })
        #expect(Trace.leaks(in: graph).nodes.map(\.type) == Trace.leaks(in: all).nodes.map(\.type))

        let unknown = try run(["RXTRACE_FORMAT": format, "RXTRACE_KEEP": "most"])
        #expect(unknown.result.stderr == "rxtrace: RXTRACE_KEEP=most is not one of all, events, graph; keeping all\n")
        #expect(try TraceDocument.read(from: unknown.url).meta["keep"] == "all")
    }

    // MARK: - RXTRACE_RING

    @Test func ringBoundsWhatAnAtExitTraceKeeps() throws {
        let traced = try run(["RXTRACE_FORMAT": "1", "RXTRACE_RING": "1_00"], count: 2000)
        let trace = try TraceDocument.read(from: traced.url)
        #expect(trace.meta["ringCapacity"] == "100")
        #expect(trace.steps.count == 100 && trace.events.count == 100)
        #expect(trace.dropped.steps > 0 && trace.dropped.events > 0)
        // The newest are kept: the last element the open subscription's observer received.
        #expect(trace.events.last?.value == "3998")

        let unknown = try run(["RXTRACE_FORMAT": "1", "RXTRACE_RING": "few"], count: 10)
        #expect(unknown.result.stderr == "rxtrace: RXTRACE_RING=few is not a count; using 1000000\n")
        #expect(try TraceDocument.read(from: unknown.url).meta["ringCapacity"] == "1000000")
    }

    @Test func aStreamedRecordingKeepsNoRing() throws {
        let traced = try run(["RXTRACE_RING": "100"], count: 2000)
        let trace = try TraceDocument.read(from: traced.url)
        #expect(trace.dropped == DroppedCounts())
        #expect(trace.events.filter { $0.kind == .next }.count > 2000)
    }

    // MARK: - RXTRACE_MAX_MB

    /// The bound in each streamed format (`rxtrace/3` writes about a fifth of the bytes).
    @Test(arguments: [("2", 0.25), ("3", 0.05)]) func maxMBBoundsTheStreamedFile(format: String, limit: Double) throws {
        // 20,000 elements over two seconds or more: the writer writes about every 250 ms.
        let bounded = try run(
            ["RXTRACE_MAX_MB": String(limit), "RXTRACE_FORMAT": format], count: 20_000, paced: true)
        let whole = try run(["RXTRACE_FORMAT": format], count: 20_000, paced: true)
        func size(_ url: URL) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        }
        let (boundedSize, wholeSize) = (try size(bounded.url), try size(whole.url))
        #expect(boundedSize < wholeSize / 2, "\(boundedSize) of \(wholeSize) bytes")
        let status = try TraceRecordReader.read(from: bounded.url) { _ in }
        #expect(status.format == "rxtrace/\(format)")
        // A later segment: the earlier ones were let go, each once it had reached the bound.
        #expect(status.meta["segment"] != nil && status.meta["segment"] != "1", "\(status.meta)")
        #expect(status.dropped.reason == "RXTRACE_MAX_MB")
        #expect(status.dropped.bytes >= Int(limit * 1_048_576))
        #expect(status.endReason == "exit")
        if format == "2" {
            let lines = try lines(bounded.url)
            #expect(lines.first?.contains("\"segment\":\"") == true)
            #expect(lines.contains { $0.hasPrefix("[\"drop\",") && $0.contains("\"reason\":\"RXTRACE_MAX_MB\"") })
            #expect(lines.last?.hasPrefix("[\"end\",") == true)
        }
        let trace = try TraceDocument.read(from: bounded.url)
        #expect(trace.dropped.events > 0)
        // The live subscription is carried into every segment, and its newest element is there.
        #expect(trace.nodes.contains { $0.type == "FilterSink" && $0.disposed == nil })
        #expect(trace.events.last { $0.kind == .next }?.value == "39998")

        let unbounded = try run(["RXTRACE_MAX_MB": "-1"], count: 10)
        #expect(
            unbounded.result.stderr
                == "rxtrace: RXTRACE_MAX_MB=-1 is not a positive number of megabytes; the trace is not bounded\n")
    }
}
