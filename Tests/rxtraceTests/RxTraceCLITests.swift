import ChildProcess
import Foundation
import RxTrace
import Testing
import TraceFixtures

/// Runs the built `rxtrace` (next to the test bundle in the build products directory).
struct CLI {
    typealias Result = Child.Result

    static let binary: URL? = {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        return candidates.map { $0.appendingPathComponent("rxtrace") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }()

    /// Runs `rxtrace` (or `program`) with `arguments` in `directory`, `environment` changing
    /// this process's (nil removes a variable). Never hangs: a run that takes a minute is
    /// stopped and fails (Tests/ChildProcess).
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String?] = [:], program: URL? = nil
    ) throws -> Result {
        guard let executable = program ?? binary else { throw CLIMissing() }
        return try Child.run(
            executable, arguments: arguments, environment: environment, directory: directory, timeLimit: 60)
    }
}

struct CLIMissing: Error, CustomStringConvertible {
    var description: String { "the rxtrace binary is not built next to the tests (swift build --product rxtrace)" }
}

/// A fresh directory for one test, removed afterwards.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rxtrace-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ document: TraceDocument, _ name: String = "trace.json", format: TraceFormat? = nil) throws -> String {
        if let format {
            try document.write(to: url.appendingPathComponent(name), format: format)
        } else {
            try document.write(to: url.appendingPathComponent(name))
        }
        return name
    }

    func write(_ data: Data, _ name: String) throws -> String {
        try data.write(to: url.appendingPathComponent(name))
        return name
    }

    /// The files in the directory (the runner keeps what it captures elsewhere).
    var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    func data(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }
}

@Suite(.serialized) struct RenderCommandTests {
    @Test func rendersSVGToAFile() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        let result = try CLI.run(["render", trace, "-o", "graph.svg"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let svg = String(decoding: try scratch.data("graph.svg"), as: UTF8.self)
        #expect(svg.contains("<svg") && svg.contains("AnonymousObservableSink"))
        #expect(scratch.files == ["graph.svg", "trace.json"])
    }

    @Test func formatComesFromTheExtension() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.mapSubject())
        for view in ["graph", "flow", "marbles", "resources"] {
            #expect(try CLI.run(["render", trace, "--view", view, "-o", "\(view).png"], in: scratch.url).status == 0)
            #expect(Array(try scratch.data("\(view).png").prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            #expect(try CLI.run(["render", trace, "--view", view, "-o", "\(view).pdf"], in: scratch.url).status == 0)
            #expect(try scratch.data("\(view).pdf").starts(with: Data("%PDF".utf8)))
        }
        // --format wins over the extension.
        #expect(try CLI.run(["render", trace, "--format", "dot", "-o", "graph.txt"], in: scratch.url).status == 0)
        #expect(String(decoding: try scratch.data("graph.txt"), as: UTF8.self).hasPrefix("digraph subscriptions {"))
    }

    @Test func dotAndSVGGoToStdoutWithoutAnOutputFile() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        let dot = try CLI.run(["render", trace, "--view", "flow", "--format", "dot"], in: scratch.url)
        #expect(dot.status == 0)
        #expect(dot.out.hasPrefix("digraph flow {"))
        #expect(dot.out.contains("setSinkAndSubscription"))
        // Deterministic: the same trace gives the same bytes.
        #expect(
            try CLI.run(["render", trace, "--view", "flow", "--format", "dot"], in: scratch.url).stdout == dot.stdout)
        let svg = try CLI.run(["render", trace], in: scratch.url)
        #expect(svg.status == 0)
        #expect(svg.out.contains("<svg"))
        #expect(scratch.files == ["trace.json"])
    }

    /// Issue 5: operators with two sources on the top row crashed Graphviz (`free(): double
    /// free`). A real trace of zip, combineLatest and sample draws in every view and format.
    @Test func graphOfOperatorsWithTwoSourcesNeverCrashes() throws {
        let before = Resources.total
        var printed: [String] = []
        let document = Trace.record {
            let bag = DisposeBag()
            let left = PublishSubject<String>()
            let right = PublishSubject<String>()
            Observable.zip(left, right) { $0 + $1 }.subscribe(onNext: { printed.append("zip \($0)") }).disposed(by: bag)
            Observable.combineLatest(left, right) { $0 + $1 }.subscribe(onNext: { printed.append("latest \($0)") })
                .disposed(by: bag)
            left.sample(right).subscribe(onNext: { printed.append("sample \($0)") }).disposed(by: bag)
            left.onNext("1")
            right.onNext("A")
        }
        #expect(Resources.total == before)
        #expect(printed == ["zip 1A", "latest 1A", "sample 1"])
        let scratch = try Scratch()
        let trace = try scratch.write(document)
        for view in ["graph", "flow", "marbles", "resources"] {
            for format in ["svg", "png", "pdf", "dot"] {
                let result = try CLI.run(["render", trace, "--view", view, "-o", "\(view).\(format)"], in: scratch.url)
                #expect(!result.signalled, "\(view) \(format): rxtrace died of a signal: \(result.stderr.prefix(200))")
                #expect(result.status == 0, "\(view) \(format): status \(result.status): \(result.stderr.prefix(200))")
                #expect(result.stderr.isEmpty, "\(view) \(format): \(result.stderr.prefix(200))")
            }
        }
        #expect(String(decoding: try scratch.data("graph.svg"), as: UTF8.self).contains("CombineLatest"))
    }

    @Test func optionsReachTheViews() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        let filtered = try CLI.run(["render", trace, "--format", "dot", "--filter-type", "Disposer"], in: scratch.url)
        #expect(filtered.status == 0)
        #expect(filtered.out.contains("SinkDisposer") && !filtered.out.contains("AnonymousObservableSink"))
        let site = try CLI.run(["render", trace, "--format", "dot", "--filter-site", "main.swift:3"], in: scratch.url)
        #expect(site.out.contains("AnonymousDisposable") && !site.out.contains("SinkDisposer"))
        let flow = try CLI.run(
            ["render", trace, "--view", "flow", "--subscription", "4", "--format", "dot"], in: scratch.url)
        #expect(flow.status == 0)
        #expect(flow.out.contains("16 calls"))
    }
}

@Suite(.serialized) struct BadInputTests {
    /// Runs `render` on bad input: status 2, one line on stderr naming the problem, no output file.
    private func expectRejected(
        _ arguments: [String], scratch: Scratch, mentioning words: [String], status: Int32 = 2,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = scratch.files
        let result = try CLI.run(arguments, in: scratch.url)
        #expect(!result.signalled, "rxtrace died of a signal", sourceLocation: sourceLocation)
        #expect(result.status == status, "status \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        for word in words {
            #expect(
                result.stderr.contains(word), "stderr lacks \(word): \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(scratch.files == before, "files left behind: \(scratch.files)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func missingFile() throws {
        let scratch = try Scratch()
        try expectRejected(
            ["render", "nope.json", "-o", "out.svg"], scratch: scratch, mentioning: ["nope.json", "no such file"])
        try expectRejected(["leaks", "nope.json"], scratch: scratch, mentioning: ["no such file"])
        try expectRejected(["summary", "nope.json"], scratch: scratch, mentioning: ["no such file"])
        try expectRejected(
            ["report", "nope.json", "-o", "report.html"], scratch: scratch, mentioning: ["nope.json", "no such file"])
    }

    @Test func emptyFile() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Data(), "empty.json")
        try expectRejected(["render", trace, "-o", "out.svg"], scratch: scratch, mentioning: ["empty"])
        try expectRejected(["report", trace, "-o", "out.html"], scratch: scratch, mentioning: ["empty"])
    }

    @Test func truncatedAndMalformedJSON() throws {
        let scratch = try Scratch()
        let json = try Fixtures.reference().jsonData()
        let truncated = try scratch.write(json.prefix(json.count / 2), "truncated.json")
        try expectRejected(
            ["render", truncated, "-o", "out.svg"], scratch: scratch, mentioning: ["truncated.json", "JSON"])
        try expectRejected(
            ["report", truncated, "-o", "out.html"], scratch: scratch, mentioning: ["truncated.json", "JSON"])
        let malformed = try scratch.write(Data("{\"format\": \"rxtrace/1\", \"nodes\": [1, }".utf8), "malformed.json")
        try expectRejected(["render", malformed, "-o", "out.png"], scratch: scratch, mentioning: ["malformed.json"])
        let wrongShape = try scratch.write(Data("{\"format\": \"rxtrace/1\", \"nodes\": 3}".utf8), "shape.json")
        try expectRejected(["render", wrongShape, "-o", "out.pdf"], scratch: scratch, mentioning: ["invalid trace"])
    }

    @Test func unknownFormatVersion() throws {
        let scratch = try Scratch()
        var document = Fixtures.reference()
        document.format = "rxtrace/99"
        // rxtrace/1's form carries the document's format field (an rxtrace/2 header is always 2).
        let trace = try scratch.write(try document.jsonData(), "trace.json")
        try expectRejected(["render", trace, "-o", "out.svg"], scratch: scratch, mentioning: ["rxtrace/99"])
        try expectRejected(["report", trace, "-o", "out.html"], scratch: scratch, mentioning: ["rxtrace/99"])
    }

    @Test func randomBytes() throws {
        let scratch = try Scratch()
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let trace = try scratch.write(bytes, "random.bin")
        try expectRejected(["render", trace, "-o", "out.svg"], scratch: scratch, mentioning: ["random.bin"])
        try expectRejected(["leaks", trace], scratch: scratch, mentioning: ["random.bin"])
        try expectRejected(["report", trace], scratch: scratch, mentioning: ["random.bin"])
    }

    @Test func viewsThatDoNotFit() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        try expectRejected(
            ["render", trace, "--view", "flow", "--subscription", "99", "-o", "flow.svg"], scratch: scratch,
            mentioning: ["99"])
        try expectRejected(
            ["render", trace, "--filter-type", "NoSuchType", "-o", "graph.svg"], scratch: scratch,
            mentioning: ["filters"])
        let large = try scratch.write(Fixtures.manyChains(count: 1_200), "large.json")
        try expectRejected(
            ["render", large, "--expand", "-o", "graph.svg"], scratch: scratch, mentioning: ["6000 nodes", "limit"])
        try expectRejected(
            ["render", large, "--view", "marbles", "-o", "m.svg"], scratch: scratch, mentioning: ["no events"])
    }

    @Test func badUsage() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        try expectRejected(["render", trace, "-o", "graph.jpeg"], scratch: scratch, mentioning: ["--format"])
        try expectRejected(["render", trace, "--format", "png"], scratch: scratch, mentioning: ["-o"])
        let unknownView = try CLI.run(["render", trace, "--view", "pie"], in: scratch.url)
        #expect(unknownView.status == 2)
        #expect(unknownView.stderr.contains("pie"))
        let noCommand = try CLI.run(["frobnicate"], in: scratch.url)
        #expect(noCommand.status == 2)
    }

    @Test func unwritableOutput() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        try expectRejected(
            ["render", trace, "-o", "no/such/dir/graph.svg"], scratch: scratch, mentioning: ["cannot write"], status: 3)
        try expectRejected(
            ["report", trace, "-o", "no/such/dir/report.html"], scratch: scratch, mentioning: ["cannot write"],
            status: 3)
    }

    @Test func outputOntoADirectoryIsRefused() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("out.svg"), withIntermediateDirectories: false)
        try expectRejected(
            ["render", trace, "-o", "out.svg"], scratch: scratch, mentioning: ["out.svg", "is a directory"], status: 3)
        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(
                atPath: scratch.url.appendingPathComponent("out.svg").path,
                isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func outputThroughASymbolicLinkKeepsTheLink() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("real"), withIntermediateDirectories: false)
        let link = scratch.url.appendingPathComponent("graph.svg")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real/graph.svg")
        let result = try CLI.run(["render", trace, "-o", "graph.svg"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real/graph.svg")
        let svg = String(decoding: try scratch.data("real/graph.svg"), as: UTF8.self)
        #expect(svg.contains("<svg"))
    }

    /// A pipe (as `-o /dev/stdout` is when piped) is written in place, not replaced by a file.
    @Test func outputIntoAPipeIsWrittenInPlace() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        let fifo = scratch.url.appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // The reader opens the pipe at the same time as rxtrace (each open waits for the other).
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "cat pipe > received.dot"]
        reader.currentDirectoryURL = scratch.url
        try reader.run()
        let result = try CLI.run(["render", trace, "--format", "dot", "-o", "pipe"], in: scratch.url)
        // Never hang: a reader still waiting after ten seconds (rxtrace never opened the pipe) is stopped.
        let deadline = Date().addingTimeInterval(10)
        while reader.isRunning, Date() < deadline { usleep(20_000) }
        if reader.isRunning { reader.terminate() }
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe is still a pipe")
        let dot = String(decoding: try scratch.data("received.dot"), as: UTF8.self)
        #expect(dot.hasPrefix("digraph"))
    }
}

@Suite(.serialized) struct LeaksAndSummaryTests {
    @Test func leakedSubscriptionIsReportedByCallSite() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference(disposed: false))
        let result = try CLI.run(["leaks", trace], in: scratch.url)
        #expect(result.status == 1)
        // One root, the disposable subscribe returned, holding the whole subscription.
        #expect(
            result.out == """
                5 leaked nodes at 2 call sites, held by 1 root:

                BinaryDisposable #6 at main.swift:5: a subscription's disposable, still alive and never disposed
                  holds 5 leaked nodes: AnonymousDisposable 1, AnonymousObservableSink 1, AnonymousObserver 1, \
                BinaryDisposable 1, SinkDisposer 1
                  made at: main.swift:5 (4), main.swift:3 (1)

                (rxtrace leaks --nodes \(trace) lists every node by the call site that made it)

                """)
        // Every node, on request.
        let nodes = try CLI.run(["leaks", trace, "--nodes"], in: scratch.url)
        #expect(nodes.status == 1)
        #expect(nodes.out.contains("\nEvery node, by the call site that made it:\nmain.swift:5: 4 never disposed\n"))
        #expect(nodes.out.contains("main.swift:3: 1 never disposed"))
        for type in [
            "AnonymousObserver", "SinkDisposer", "AnonymousObservableSink", "BinaryDisposable", "AnonymousDisposable",
        ] {
            #expect(nodes.out.contains("  \(type) ("))
        }
        #expect(!nodes.out.contains("AnonymousObservable (producer)"))
        // No marks: --by-test says so.
        let byTest = try CLI.run(["leaks", trace, "--by-test"], in: scratch.url)
        #expect(byTest.status == 2 && byTest.stderr.contains("no test marks"), "\(byTest.stderr)")
    }

    @Test func disposedSubscriptionIsNoLeak() throws {
        let scratch = try Scratch()
        let result = try CLI.run(["leaks", try scratch.write(Fixtures.reference())], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("no leaks"))
    }

    @Test func synchronouslyCompletedSequenceIsNoLeak() throws {
        // The chain completed; its nodes are still referenced but the subscription is over.
        var document = Fixtures.mapSubject()
        for index in document.nodes.indices {
            document.nodes[index].disposed = nil
            document.nodes[index].deinitialized = nil
        }
        let scratch = try Scratch()
        let result = try CLI.run(["leaks", try scratch.write(document)], in: scratch.url)
        #expect(result.status == 0, "\(result.out)")
    }

    @Test func summaryCountsEverything() throws {
        let scratch = try Scratch()
        var document = Fixtures.reference(disposed: false)
        document.dropped = DroppedCounts(steps: 3, events: 1)
        document.nodes[1].anomalies = [
            TraceAnomalyRecord(kind: .eventAfterTermination, seq: 12, detail: "next(x) after completed")
        ]
        let result = try CLI.run(["summary", try scratch.write(document)], in: scratch.url)
        #expect(result.status == 0)
        for line in [
            "nodes: 6 (disposable 3, observer 1, producer 1, sink 1)", "types:", "  SinkDisposer: 1",
            "edges: 5 (forward 1, owns 3, run 1)", "steps by call: subscribe 1, schedule 1, run 2",
            "events: 2 kept (next 2)", "3 dropped", "subscriptions: 1",
            "  1: AnonymousObserver #2 at main.swift:5, 5 nodes", "anomalies: 1",
            "eventAfterTermination on AnonymousObserver #2", "leaked: 5 nodes at 2 call sites",
        ] {
            #expect(result.out.contains(line), "summary lacks \(line)")
        }
    }

    @Test func helpEverywhere() throws {
        let scratch = try Scratch()
        for arguments in [
            ["--help"], ["render", "--help"], ["report", "--help"], ["leaks", "--help"], ["summary", "--help"],
            ["run", "--help"],
            ["help", "render"],
        ] {
            let result = try CLI.run(arguments, in: scratch.url)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.out.contains("USAGE:"), "\(arguments)")
        }
        #expect(try CLI.run(["--help"], in: scratch.url).out.contains("Exit status"))
    }
}

@Suite(.serialized) struct RunCommandTests {
    /// A stand-in program: a shell script that copies a trace to $RXTRACE.
    private func program(in scratch: Scratch, writing trace: String?, status: Int = 0) throws -> String {
        let body = trace.map { "cp \"\(scratch.url.path)/\($0)\" \"$RXTRACE\"\n" } ?? ""
        let path = scratch.url.appendingPathComponent("program.sh")
        try "#!/bin/sh\n\(body)exit \(status)\n".write(to: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path.path)
        return path.path
    }

    @Test func runRendersEveryView() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference(), "recorded.json")
        let result = try CLI.run(
            ["run", try program(in: scratch, writing: trace), "--out", "diagrams"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let written =
            (try? FileManager.default.contentsOfDirectory(atPath: scratch.url.appendingPathComponent("diagrams").path))?
            .sorted()
        #expect(written == ["flow.svg", "graph.svg", "marbles.svg", "report.html", "resources.svg", "trace.rxt"])
        #expect(result.out.contains("wrote"))
    }

    @Test func runSkipsViewsThatDoNotFit() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.manyChains(count: 3), "recorded.json")
        let result = try CLI.run(["run", try program(in: scratch, writing: trace), "--out", "d"], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stderr.contains("skipped marbles"))
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("d/graph.svg").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("d/marbles.svg").path))
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("d/report.html").path))
    }

    @Test func programWithoutTraceFails() throws {
        let scratch = try Scratch()
        let result = try CLI.run(
            ["run", try program(in: scratch, writing: nil, status: 3), "--out", "d"], in: scratch.url)
        #expect(result.status == 4)
        #expect(result.stderr.contains("wrote no trace"))
        #expect(result.stderr.contains("exited with status 3"))
    }

    @Test func unknownProgramOrChapter() throws {
        let scratch = try Scratch()
        let chapter = try CLI.run(["run", "97"], in: scratch.url)
        #expect(chapter.status == 2)
        #expect(chapter.stderr.contains("chapter97"))
        let missing = try CLI.run(["run", "./does-not-exist"], in: scratch.url)
        #expect(missing.status == 2)
        #expect(scratch.files.isEmpty)
    }
}
