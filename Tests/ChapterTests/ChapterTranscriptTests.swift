import ChildProcess
import Foundation
import RxTrace
import Testing
import Workbook

/// Runs each built chapter executable and compares its standard output with
/// `Golden/chapterNN.txt`. The goldens were checked line by line against Rx semantics (each
/// chapter's README says where they differ from the documents and why), so a change in a
/// transcript is a change in behaviour.
@Suite struct ChapterTranscriptTests {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()

    /// `02` for every `Chapters/02-Topic/` folder.
    static var chapterNumbers: [String] {
        let folders =
            (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Chapters").path))
            ?? []
        return folders.filter { $0.first?.isNumber == true }.map { String($0.prefix(2)) }.sorted()
    }

    /// Where SwiftPM put the products: next to the test bundle.
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    /// Runs a built chapter to the end (output to files, two minutes at most: Tests/ChildProcess).
    static func run(
        _ executable: URL, arguments: [String] = [], environment: [String: String?] = [:]
    ) throws -> Child.Result {
        try Child.run(executable, arguments: arguments, environment: environment, timeLimit: 120)
    }

    /// `debug()` starts each line with the local time; everything else is deterministic.
    static func masked(_ transcript: String) -> String {
        let pattern = try! NSRegularExpression(pattern: #"(?m)^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}: "#)
        let range = NSRange(transcript.startIndex..., in: transcript)
        return pattern.stringByReplacingMatches(in: transcript, range: range, withTemplate: "<time>: ")
    }

    @Test func everyChapterHasAGoldenTranscript() {
        #expect(Self.chapterNumbers.count >= 18)
        for number in Self.chapterNumbers {
            for name in ["chapter\(number).txt", "chapter\(number).answers.txt"] {
                let golden = Self.testsDirectory.appendingPathComponent("Golden/\(name)")
                #expect(FileManager.default.fileExists(atPath: golden.path), "no golden \(name) for chapter \(number)")
            }
        }
    }

    @Test(arguments: chapterNumbers)
    func transcriptMatchesGolden(_ number: String) throws {
        try Self.expectGolden(number, arguments: [], golden: "chapter\(number).txt")
    }

    /// `chapterNN --answers` prints what the chapter's exercises really print (the answers the
    /// README leaves out), and nothing else.
    @Test(arguments: chapterNumbers)
    func answersMatchGolden(_ number: String) throws {
        try Self.expectGolden(number, arguments: ["--answers"], golden: "chapter\(number).answers.txt")
    }

    /// Runs `chapterNN arguments` and compares what it prints with `Golden/<golden>`, naming the
    /// first line that differs.
    static func expectGolden(_ number: String, arguments: [String], golden name: String) throws {
        let executable = productsDirectory.appendingPathComponent("chapter\(number)")
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "chapter\(number) is not built at \(executable.path)")
        let goldenURL = testsDirectory.appendingPathComponent("Golden/\(name)")
        try #require(FileManager.default.fileExists(atPath: goldenURL.path), "no golden \(name)")
        let golden = try String(contentsOf: goldenURL, encoding: .utf8)
        let run = try run(executable, arguments: arguments)
        let command = (["chapter\(number)"] + arguments).joined(separator: " ")
        #expect(run.status == 0, "\(command) ended with \(run.ending): \(run.stderr)")
        let actual = masked(run.out)
        if actual != golden {
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let g = golden.split(separator: "\n", omittingEmptySubsequences: false)
            let first = (0..<min(a.count, g.count)).first { a[$0] != g[$0] } ?? min(a.count, g.count)
            let got = first < a.count ? String(a[first]) : "<end>"
            let want = first < g.count ? String(g[first]) : "<end>"
            Issue.record("\(command) differs from \(name) at line \(first + 1):\n  got:  \(got)\n  want: \(want)")
        }
    }

    /// `--diagrams DIR` writes a trace (format rxtrace/2) and the three views for each main
    /// example, and does not change what the chapter prints.
    @Test func diagramsAreWrittenWithoutChangingTheTranscript() throws {
        let executable = Self.productsDirectory.appendingPathComponent("chapter02")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chapter-diagrams-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.run(executable, arguments: ["--diagrams", directory.path])
        #expect(run.status == 0)
        let golden = try String(
            contentsOf: Self.testsDirectory.appendingPathComponent("Golden/chapter02.txt"), encoding: .utf8)
        #expect(run.out == golden)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        let trace = directory.appendingPathComponent("mojito.trace.json")
        #expect(files.contains("mojito.trace.json"))
        #expect(files.count >= 4, "expected the trace and the graph, flow and marbles views, got \(files.sorted())")
        #expect(try Data(contentsOf: trace).starts(with: Data("{\"format\":\"rxtrace/2\"".utf8)))
        let types = try TraceDocument.read(from: trace).nodes.map(\.type)
        for type in ["AnonymousObservable", "AnonymousObservableSink", "AnonymousObserver", "SinkDisposer"] {
            #expect(types.contains(type), "the mojito trace has no \(type)")
        }
    }

    /// Under RXTRACE the chapter prints the same and the whole run's trace is written at exit.
    @Test func rxtraceWritesTheWholeRun() throws {
        let executable = Self.productsDirectory.appendingPathComponent("chapter04")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chapter04-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: path) }
        let run = try Self.run(executable, environment: ["RXTRACE": path.path])
        #expect(run.status == 0)
        let golden = try String(
            contentsOf: Self.testsDirectory.appendingPathComponent("Golden/chapter04.txt"), encoding: .utf8)
        #expect(run.out == golden)
        // Streamed as rxtrace/3, finished at exit.
        let (trace, status) = try TraceDocument.readWithStatus(from: path)
        #expect(status.format == "rxtrace/3")
        #expect(status.endReason == "exit" && !status.cutShort)
        #expect(trace.nodes.count > 20)
        #expect(trace.meta["cut"] == nil)
    }

    @Test func missingDiagramsDirectoryIsAnError() throws {
        let executable = Self.productsDirectory.appendingPathComponent("chapter01")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path))
        let run = try Self.run(executable, arguments: ["--diagrams"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--diagrams needs a directory"))
        #expect(run.out.isEmpty)
    }

    @Test func anUnknownLanguageIsAnError() throws {
        let executable = Self.productsDirectory.appendingPathComponent("chapter01")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path))
        for arguments in [["--answers", "--lang", "fr"], ["--answers", "--lang"]] {
            let run = try Self.run(executable, arguments: arguments)
            #expect(run.status == 2)
            #expect(run.stderr.contains("--lang takes en or zh"))
            #expect(run.out.isEmpty)
        }
    }

    @Test func exampleNamesBecomeFileNames() {
        #expect(Diagrams.slug("combineLatest 1") == "combinelatest-1")
        #expect(Diagrams.slug("step1…step9") == "step1-step9")
        #expect(Diagrams.slug("Dispose Sample") == "dispose-sample")
        #expect(Diagrams.slug("…") == "example")
        #expect(Diagrams.slug("[weak self]") == "weak-self")
    }
}
