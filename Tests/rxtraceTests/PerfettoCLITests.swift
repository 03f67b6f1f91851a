import Foundation
import RxTrace
import Testing
import TraceFixtures

/// `rxtrace convert TRACE --to perfetto`: a timeline file written whole or not at all, one line
/// and a non-zero status for bad input. (The timeline's contents are checked in
/// Tests/RxTraceTests/TimelineExportTests.)
@Suite(.serialized) struct PerfettoCLITests {
    @Test func writesATimelineFileOrStdout() throws {
        let scratch = try Scratch()
        let document = Fixtures.reference()
        let trace = try scratch.write(document, "trace.rxt", format: .v2)
        let result = try CLI.run(["convert", trace, "--to", "perfetto", "-o", "run.json"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.out.isEmpty)
        #expect(scratch.files == ["run.json", "trace.rxt"])
        let object = try JSONSerialization.jsonObject(with: try scratch.data("run.json")) as? [String: Any]
        let events = try #require(object?["traceEvents"] as? [[String: Any]])
        #expect(events.filter { $0["ph"] as? String == "X" }.count == document.events.count)
        #expect(events.contains { $0["name"] as? String == "thread_name" })

        let stdout = try CLI.run(["convert", trace, "--to", "perfetto"], in: scratch.url)
        #expect(stdout.status == 0)
        #expect(Data(stdout.out.utf8) == (try scratch.data("run.json")))
    }

    /// Subscriptions still open at the end: converted, their spans marked, and one note.
    @Test func openSubscriptionsAreNoted() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference(disposed: false), "open.rxt", format: .v2)
        let result = try CLI.run(["convert", trace, "--to", "perfetto", "-o", "run.json"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("rxtrace: note: "), "\(result.stderr)")
        #expect(result.stderr.contains("still open at the end of open.rxt"))
        #expect(String(decoding: try scratch.data("run.json"), as: UTF8.self).contains("\"open\":true"))
    }

    @Test func badInputLeavesNoFile() throws {
        let scratch = try Scratch()
        var lines = String(decoding: Fixtures.reference().jsonLinesData(), as: UTF8.self).split(separator: "\n")
            .map(String.init)
        lines[3] = "[\"c\",1,2,"
        let inputs: [(name: String, bytes: Data?)] = [
            ("missing.rxt", nil), ("empty.rxt", Data()), ("bad.rxt", Data((lines.joined(separator: "\n") + "\n").utf8)),
            ("random.bin", Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) })),
            ("future.json", Data("{\"format\":\"rxtrace/9\",\"meta\":{}}".utf8)),
            ("truncated.json", Data("{\"format\":\"rxtrace/1\",\"meta\":{".utf8)),
        ]
        for input in inputs {
            if let bytes = input.bytes { _ = try scratch.write(bytes, input.name) }
            // An output from before stays as it was.
            _ = try scratch.write(Data("before".utf8), "run.json")
            let before = scratch.files
            let result = try CLI.run(["convert", input.name, "--to", "perfetto", "-o", "run.json"], in: scratch.url)
            #expect(result.status == 2, "\(input.name)")
            #expect(result.stderr.hasPrefix("rxtrace: "), "\(input.name): \(result.stderr)")
            #expect(result.stderr.contains(input.name), "\(input.name): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(input.name): \(result.stderr)")
            #expect(scratch.files == before, "\(input.name)")
            #expect(try scratch.data("run.json") == Data("before".utf8))
        }
        let unwritable = try CLI.run(
            [
                "convert", try scratch.write(Fixtures.reference(), "ok.json"), "--to", "perfetto", "-o",
                "no/dir/run.json",
            ],
            in: scratch.url)
        #expect(unwritable.status == 3)
        #expect(unwritable.stderr.hasPrefix("rxtrace: no/dir/run.json: cannot write"), "\(unwritable.stderr)")
    }
}
