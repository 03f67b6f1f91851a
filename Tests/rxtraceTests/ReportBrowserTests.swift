import ChildProcess
import Foundation
import RxTrace
import Testing

/// Whether the browser test can run here: Debian's `chromium` and `chromium-driver`, and
/// Selenium for `python3`. `make test` installs them when missing and sets
/// `RXANATOMY_BROWSER_TEST=1`, which makes the test run (and fail) whatever is missing; a plain
/// `swift test` on a machine without them skips it.
enum Browser {
    static let required = ProcessInfo.processInfo.environment["RXANATOMY_BROWSER_TEST"] == "1"

    static let available: Bool = {
        let manager = FileManager.default
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        func installed(_ name: String) -> Bool {
            paths.contains { manager.isExecutableFile(atPath: "\($0)/\(name)") }
        }
        guard installed("chromium"), installed("chromedriver") else { return false }
        return (try? Browser.python(["-c", "import selenium"], timeout: 30).status) == 0
    }()

    static var shouldRun: Bool { required || available }

    /// The package's root, where `Tests/Browser/` and `out/` are.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `python3` with `arguments`; output and errors together.
    static func python(_ arguments: [String], timeout: TimeInterval) throws -> (status: Int32, output: String) {
        let run = try Child.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3"] + arguments, errorsToOutput: true,
            timeLimit: timeout)
        return (run.status, run.out)
    }
}

/// `rxtrace report` in a real browser: Debian's headless Chromium, driven through Selenium by
/// `Tests/Browser/report_browser.py`, on the report of chapter 02's mojito trace and on one of
/// a subscription nobody disposed. This side records the traces, writes the pages and says what
/// they must show; the script clicks and reads. Screenshots stay in `out/browser-test/`.
@Suite(
    .serialized,
    .enabled(if: Browser.shouldRun, "needs chromium, chromium-driver and selenium (make test installs them)"))
struct ReportBrowserTests {
    @Test func replayPanelFilterAndLeakLinksWorkInChromium() throws {
        let run = try Self.check(lang: "en")
        let screenshot = run.artifacts.appendingPathComponent("report-mojito-forwardOn.png")
        #expect(FileManager.default.fileExists(atPath: screenshot.path))
    }

    /// The same walk on the pages `--lang zh` writes: the controls work the same, every string
    /// the check looks for comes from the Chinese table, the pages say `<html lang="zh">`, and
    /// no string of the English table is left where a reader sees it.
    @Test func theChinesePageWorksTheSameAndShowsNoEnglish() throws {
        let run = try Self.check(lang: "zh")
        #expect(run.output.contains("none of") && run.output.contains("English strings left"), "\(run.output)")
        let screenshot = run.artifacts.appendingPathComponent("report-mojito-forwardOn.zh.png")
        #expect(FileManager.default.fileExists(atPath: screenshot.path))
    }

    /// Records the traces, writes their pages in `lang` (and an English one to compare with) and
    /// walks them in Chromium.
    static func check(lang: String) throws -> (output: String, artifacts: URL) {
        let scratch = try Scratch()
        let rxtrace = try #require(CLI.binary, "\(CLIMissing())")

        // Chapter 02's own trace of the mojito example.
        let chapter = rxtrace.deletingLastPathComponent().appendingPathComponent("chapter02")
        let chapterRun = try CLI.run(["--diagrams", "chapter02"], in: scratch.url, program: chapter)
        #expect(chapterRun.status == 0, "chapter02 failed: \(chapterRun.stderr)")
        let mojitoTrace = "chapter02/mojito.trace.json"
        let mojito = try TraceDocument.read(from: scratch.url.appendingPathComponent(mojitoTrace))

        // A real recording of a subscription left open.
        let before = Resources.total
        var forgotten: Disposable?
        let leaky = Trace.record {
            let subject = PublishSubject<String>()
            forgotten = subject.map { $0.uppercased() }.subscribe(onNext: { _ in })
            subject.onNext("mojito")
        }
        forgotten?.dispose()
        forgotten = nil
        #expect(Resources.total == before, "the leaky example itself leaked")
        let leaks = TraceLeakReport(leaky)
        #expect(!leaks.isEmpty)

        // The same trace cut short: its `end` line gone, as a killed program leaves it.
        let whole = String(decoding: leaky.jsonLinesData(), as: UTF8.self).split(separator: "\n")
        try (whole.dropLast().joined(separator: "\n") + "\n").write(
            to: scratch.url.appendingPathComponent("cut.rxt"), atomically: true, encoding: .utf8)
        let cut = try TraceDocument.read(from: scratch.url.appendingPathComponent("cut.rxt"))
        let cutSeq = try #require(cut.meta["cut"])
        for (trace, page) in [
            (mojitoTrace, "mojito.html"), (try scratch.write(leaky, "leaky.json"), "leaky.html"),
            ("cut.rxt", "cut.html"),
        ] {
            let result = try CLI.run(["report", trace, "--lang", lang, "-o", page], in: scratch.url)
            #expect(result.status == 0, "rxtrace report \(trace): \(result.stderr)")
        }
        let english = try CLI.run(["report", mojitoTrace, "--lang", "en", "-o", "english.html"], in: scratch.url)
        #expect(english.status == 0, "rxtrace report --lang en: \(english.stderr)")

        // What the mojito page must show, from its trace.
        let sink = try #require(mojito.nodes.first { $0.type == "AnonymousObservableSink" })
        let observer = try #require(mojito.nodes.first { $0.type == "AnonymousObserver" })
        let steps = mojito.steps.sorted { $0.seq < $1.seq }
        let forwardOn = try #require(steps.firstIndex { $0.call == .forwardOn })
        let after = forwardOn + 1 < steps.count ? steps[forwardOn + 1].seq : UInt64.max
        let later = try #require(mojito.nodes.first { $0.created > after }, "no node is born after forwardOn")
        func count(_ match: (TraceEvent) -> Bool) -> Int { mojito.events.filter(match).count }
        let typeOf = Dictionary(uniqueKeysWithValues: mojito.nodes.map { ($0.id, $0.type) })
        func describe(_ node: TraceNode) -> [String: Any] {
            ["id": node.id, "type": node.type, "site": node.callSite ?? ""]
        }
        let expected: [String: Any] = [
            "mojito": [
                "sink": describe(sink), "observer": describe(observer), "laterNode": later.id,
                "events": mojito.events.count,
                "filters": [
                    ["mojito", count { $0.value?.contains("mojito") == true }],
                    ["AnonymousObserver", count { typeOf[$0.node] == "AnonymousObserver" }],
                    ["no such event", 0],
                ],
            ],
            "leaky": ["sites": leaks.groups.map(\.callSite), "leaked": leaks.nodes.map(\.id)],
            "cut": ["cut": cutSeq, "open": leaks.nodes.count, "roots": leaks.roots.count],
        ]
        let artifacts = Browser.root.appendingPathComponent("out/browser-test")
        let json = String(
            decoding: try JSONSerialization.data(withJSONObject: expected, options: .sortedKeys), as: UTF8.self)
        let run = try Browser.python(
            [
                Browser.root.appendingPathComponent("Tests/Browser/report_browser.py").path, "check",
                "--mojito", scratch.url.appendingPathComponent("mojito.html").path,
                "--leaky", scratch.url.appendingPathComponent("leaky.html").path,
                "--cut", scratch.url.appendingPathComponent("cut.html").path,
                "--expect", json, "--artifacts", artifacts.path, "--lang", lang,
            ] + (lang == "en" ? [] : ["--english", scratch.url.appendingPathComponent("english.html").path]),
            timeout: 240)
        #expect(run.status == 0, "the browser check failed:\n\(run.output)")
        #expect(
            run.output.contains("ok: mojito") && run.output.contains("ok: leaky") && run.output.contains("ok: cut"),
            "\(run.output)")
        return (run.output, artifacts)
    }
}
