import ChildProcess
import Foundation
import Testing

/// The drop-in modules against RxSwift 6.10.2 itself: the `conformance` program (built from
/// `Tests/Conformance` against this checkout's `RxSwift`, `RxRelay` and `RxTest`) runs the random
/// virtual-time pipelines of the golden data's seed, and prints what RxSwift printed for each,
/// but where `KnownDifferences` says why not (docs/reliability.md).
@Suite(.serialized) struct ConformanceTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let golden = directory.appendingPathComponent("Golden/rxswift-6.10.2.txt.gz")
    static let compatibilityPage = directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/compatibility.md")

    /// The `conformance` program beside the test bundle (`swift build --build-tests` builds it).
    static let program: URL? = {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        let root = directory.deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        return candidates.map { $0.appendingPathComponent("conformance") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }()

    @Test func theDropInPrintsWhatRxSwiftPrinted() throws {
        let rxSwift = try ConformanceOutput(parsing: Self.goldenText())
        let program = try #require(Self.program, "the conformance program is not built (swift build --build-tests)")
        // A few seconds normally; the limit only stops a pipeline that hangs.
        // Under `make asan` the program's pipelines, written as RxSwift users write them (hot
        // observables subscribed with `_ =`, a TestScheduler per pipeline still holding actions due
        // after it stopped), each end as a cycle nobody reaches, as with RxSwift; LeakSanitizer
        // would fail the program at exit for them. The core's own leaks are the live-count
        // checks' job in this process, so the child runs without leak detection.
        let sanitizer = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        let run = try Child.run(
            program, arguments: rxSwift.arguments, environment: ["ASAN_OPTIONS": sanitizer + "detect_leaks=0"],
            timeLimit: 300)
        // Each pipeline's description is written before it runs, so the last one names the culprit.
        let last = run.out.split(separator: "\n").last { $0.hasPrefix("== ") } ?? "before the first pipeline"
        try #require(
            run.status == 0 && !run.timedOut, "conformance ended with \(run.ending) in \(last): \(run.stderr)")
        let rxAnatomy = try ConformanceOutput(parsing: run.out)
        let report = compare(rxSwift: rxSwift, rxAnatomy: rxAnatomy, known: .current)
        print("conformance: \(report.summary(limit: 0).split(separator: "\n").first ?? "")")
        let passed = report.passed
        #expect(passed, Comment(rawValue: report.summary()))
        #expect(report.identical + report.excused.count + report.pending.count == rxSwift.pipelines.count)
    }

    @Test func everyRxSwiftBugExcusedIsNamedInTheCompatibilityPage() throws {
        let page = try String(contentsOf: Self.compatibilityPage, encoding: .utf8)
        for bug in RxSwiftBug.allCases {
            let named = page.contains(bug.documentedAs)
            #expect(named, "docs/compatibility.md no longer says \(bug.documentedAs)")
        }
    }

    /// The golden data, decompressed with gzip.
    static func goldenText() throws -> String {
        let gzip = ["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try #require(gzip, "gzip is not installed")
        let result = try Child.run(URL(fileURLWithPath: path), arguments: ["-dc", golden.path], timeLimit: 60)
        try #require(result.status == 0, "gzip -dc \(golden.lastPathComponent): \(result.stderr)")
        return result.out
    }
}
