import Foundation
import RxTrace
import Testing

/// `RXTRACE=…`: the entry point the core calls at its first object, called directly here
/// (a whole-process run is the CLI's end-to-end test).
@Suite(.serialized) struct AutostartTests {
    @Test func startsFromTheEnvironmentAndWritesAtFinish() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("autostart-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(TraceAutostart.start(environment: [:]) == nil)
        #expect(TraceAutostart.start(environment: ["RXTRACE": ""]) == nil)
        #expect(Tracing.tracer == nil)

        let before = Resources.snapshot()
        let recorder = try #require(
            TraceAutostart.start(environment: [
                "RXTRACE": url.path, "RXTRACE_KEEP": "events", "RXTRACE_RING": "50", "RXTRACE_FORMAT": "1",
            ]))
        #expect(Tracing.tracer === recorder)
        #expect(TraceAutostart.isRecording)
        #expect(recorder.options.keep == .events && recorder.options.ringCapacity == 50)
        // One recording at a time.
        #expect(TraceAutostart.start(environment: ["RXTRACE": url.path]) == nil)

        var nested: TraceDocument?
        do {
            let d = Observable.range(start: 1, count: 100).map { $0 }.subscribe(onNext: { _ in })
            d.dispose()
            // A recording scope inside an environment recording nests into it.
            nested = Trace.record {
                let d = Observable.just(1).subscribe(onNext: { _ in })
                d.dispose()
            }
        }
        #expect(nested?.meta["scope"] == "nested")
        #expect(nested?.nodes.first?.type == "Just")

        #expect(TraceAutostart.finish() == url.path)
        #expect(Tracing.tracer == nil)
        #expect(!TraceAutostart.isRecording)
        #expect(TraceAutostart.finish() == nil)

        let trace = try TraceDocument.read(from: url)
        #expect(trace.meta["keep"] == "events")
        #expect(trace.meta["ringCapacity"] == "50")
        #expect(trace.steps.isEmpty)
        #expect(trace.events.count == 50)
        #expect(trace.dropped.events > 0)
        #expect(trace.nodes.contains { $0.type == "MapSink" })
        #expect(Trace.leaks(in: trace).isEmpty)
        // No temporary file left next to it.
        let siblings = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(!siblings.contains { $0.hasPrefix(".\(url.lastPathComponent)") })
        #expect(Resources.snapshot().grown(since: before).isEmpty)
    }

    @Test func optionsFromTheEnvironment() {
        #expect(TraceAutostart.options(from: [:]) == TraceRecorder.Options())
        #expect(TraceAutostart.options(from: ["RXTRACE_KEEP": "GRAPH"]).keep == .graph)
        #expect(TraceAutostart.options(from: ["RXTRACE_KEEP": "nonsense"]).keep == .all)
        #expect(TraceAutostart.options(from: ["RXTRACE_RING": "1_000"]).ringCapacity == 1000)
        #expect(
            TraceAutostart.options(from: ["RXTRACE_RING": "-3"]).ringCapacity
                == TraceRecorder.Options.defaultRingCapacity)
    }

    @Test func anUnwritablePathIsReportedNotFatal() {
        let recorder = TraceAutostart.start(environment: [
            "RXTRACE": "/nonexistent-dir-\(UUID().uuidString)/t.json", "RXTRACE_FORMAT": "1",
        ])
        #expect(recorder != nil)
        #expect(TraceAutostart.finish() == nil)
        #expect(Tracing.tracer == nil)
    }
}
