import Foundation
import RxTrace
import Testing
import TraceFixtures

/// `rxtrace` on `rxtrace/2` files: the same answers as on `rxtrace/1`, cut-short files read and
/// said to be cut short, malformed lines refused in one line naming the line.
@Suite(.serialized) struct Format2CLITests {
    /// `document` as v2 lines without its `end` record: what a killed program leaves.
    static func cutShort(_ document: TraceDocument) -> Data {
        let lines = String(decoding: document.jsonLinesData(), as: UTF8.self).split(separator: "\n")
        return Data((lines.filter { !$0.hasPrefix("[\"end\"") }.joined(separator: "\n") + "\n").utf8)
    }

    @Test func sameAnswersFromBothFormats() throws {
        let scratch = try Scratch()
        for (name, document) in [
            ("reference", Fixtures.reference()), ("leaked", Fixtures.reference(disposed: false)),
            ("mapSubject", Fixtures.mapSubject()), ("flatMap", Fixtures.flatMapJust(count: 5)),
        ] {
            let v1 = try scratch.write(document, "\(name).json", format: .v1)
            let v2 = try scratch.write(document, "\(name).rxt", format: .v2)
            for command in [
                ["summary"], ["leaks"], ["render", "--format", "dot"], ["render", "--view", "flow", "--format", "dot"],
            ] {
                let one = try CLI.run(command + [v1], in: scratch.url)
                let two = try CLI.run(command + [v2], in: scratch.url)
                #expect(one.status == two.status, "\(name) \(command)")
                #expect(two.stderr.isEmpty, "\(name) \(command): \(two.stderr)")
                func normalized(_ result: CLI.Result, _ file: String) -> String {
                    result.out.replacingOccurrences(of: file, with: "TRACE").replacingOccurrences(
                        of: "(rxtrace/1)", with: "(rxtrace/2)")
                }
                #expect(normalized(one, v1) == normalized(two, v2), "\(name) \(command)")
            }
        }
    }

    @Test func cutShortTraceIsReadAndSaidToBeCutShort() throws {
        let scratch = try Scratch()
        let document = Fixtures.reference(disposed: false)
        let trace = try scratch.write(Self.cutShort(document), "killed.rxt")
        let lastSeq = TraceSummary(document).lastSeq

        let summary = try CLI.run(["summary", trace], in: scratch.url)
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.out.contains("cut short at seq \(lastSeq) (no end record)"), "\(summary.out)")
        #expect(summary.out.contains("open at the cut: 5 nodes at 2 call sites (not called leaks"))
        #expect(!summary.out.contains("leaked:"))

        let leaks = try CLI.run(["leaks", trace], in: scratch.url)
        #expect(leaks.status == 0)
        #expect(leaks.out.hasPrefix("trace cut short at seq \(lastSeq) (no end record"), "\(leaks.out)")
        #expect(leaks.out.contains("5 nodes were open at the cut, held by 1 root (not called leaks"))
        #expect(leaks.out.contains("BinaryDisposable #6 at main.swift:5: "))
        #expect(!leaks.out.contains("leaked"))
        let nodes = try CLI.run(["leaks", trace, "--nodes"], in: scratch.url)
        #expect(nodes.status == 0)
        #expect(nodes.out.contains("main.swift:5: 4 open at the cut"))

        let render = try CLI.run(["render", trace, "-o", "graph.svg"], in: scratch.url)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(try scratch.data("graph.svg").count > 1_000)

        // The same run ended cleanly: those are leaks.
        let ended = try CLI.run(["leaks", try scratch.write(document, "ended.rxt", format: .v2)], in: scratch.url)
        #expect(ended.status == 1)
        #expect(ended.out.hasPrefix("5 leaked nodes at 2 call sites, held by 1 root:"))
    }

    @Test func malformedLineIsRefusedNamingIt() throws {
        let scratch = try Scratch()
        var lines = String(decoding: Fixtures.reference().jsonLinesData(), as: UTF8.self).split(separator: "\n").map(
            String.init)
        lines[3] = "[\"c\",1,2,"
        let trace = try scratch.write(Data((lines.joined(separator: "\n") + "\n").utf8), "bad.rxt")
        for command in [["summary"], ["leaks"], ["render", "-o", "graph.svg"], ["report", "-o", "report.html"]] {
            let result = try CLI.run(command + [trace], in: scratch.url)
            #expect(result.status == 2, "\(command)")
            #expect(result.stderr.hasPrefix("rxtrace: "), "\(command): \(result.stderr)")
            #expect(
                result.stderr.hasSuffix(
                    "bad.rxt:4: malformed record: expected a non-negative integer, found the end of the line\n"),
                "\(command): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stdout.isEmpty)
            #expect(!scratch.files.contains("graph.svg") && !scratch.files.contains("report.html"))
        }
    }

    @Test func graphTooLargeIsRefusedFromAStreamedRead() throws {
        let scratch = try Scratch()
        let large = try scratch.write(Fixtures.manyChains(count: 1_200), "large.rxt", format: .v2)
        let result = try CLI.run(["render", large, "--expand", "-o", "graph.svg"], in: scratch.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("6000 nodes to draw, more than the limit of 5000"), "\(result.stderr)")
        #expect(!scratch.files.contains("graph.svg"))
    }
}

@Suite(.serialized) struct ConvertCommandTests {
    @Test func convertsBothWaysLosslessly() throws {
        let scratch = try Scratch()
        let document = Fixtures.reference(disposed: false)
        let v2 = try scratch.write(document, "trace.rxt", format: .v2)
        let toJSON = try CLI.run(["convert", v2, "--to", "json", "-o", "trace.json"], in: scratch.url)
        #expect(toJSON.status == 0 && toJSON.stderr.isEmpty, "\(toJSON.stderr)")
        let json = try scratch.data("trace.json")
        #expect(json.starts(with: Data("{".utf8)))
        #expect(try TraceDocument.decode(json) == document)
        #expect(try JSONSerialization.jsonObject(with: json) is [String: Any])

        let back = try CLI.run(["convert", "trace.json", "--to", "v2", "-o", "again.rxt"], in: scratch.url)
        #expect(back.status == 0)
        #expect(try scratch.data("again.rxt") == document.jsonLinesData())

        let stdout = try CLI.run(["convert", v2, "--to", "json"], in: scratch.url)
        #expect(stdout.status == 0)
        #expect(try TraceDocument.decode(stdout.stdout) == document)
    }

    @Test func cutShortTraceConvertsWithItsCut() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Format2CLITests.cutShort(Fixtures.reference()), "killed.rxt")
        let result = try CLI.run(["convert", trace, "--to", "json", "-o", "killed.json"], in: scratch.url)
        #expect(result.status == 0)
        let document = try TraceDocument.decode(try scratch.data("killed.json"))
        #expect(document.meta["cut"] == "seq \(TraceSummary(Fixtures.reference()).lastSeq)")
    }

    @Test func badInputLeavesNoFile() throws {
        let scratch = try Scratch()
        _ = try scratch.write(Data("{\"format\":\"rxtrace/2\",\"meta\":{}}\n[\"n\",1]\n".utf8), "bad.rxt")
        let result = try CLI.run(["convert", "bad.rxt", "--to", "json", "-o", "out.json"], in: scratch.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.rxt:2: malformed record: a field is missing"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!scratch.files.contains("out.json"))
        let noTarget = try CLI.run(["convert", "bad.rxt", "--to", "xml"], in: scratch.url)
        #expect(noTarget.status == 2)
        let unwritable = try CLI.run(
            ["convert", try scratch.write(Fixtures.reference(), "ok.json"), "--to", "v2", "-o", "no/dir/x.rxt"],
            in: scratch.url)
        #expect(unwritable.status == 3)
        #expect(unwritable.stderr.contains("cannot write"))
    }
}
