import ChildProcess
import Foundation
import RxTrace
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A traced program stopped by SIGINT, SIGTERM, SIGKILL or a `fatalError` leaves a trace that
/// `rxtrace summary`, `leaks` and `render` read: complete after SIGINT and SIGTERM (the program
/// finishes it, then dies of the signal), cut short after SIGKILL and a crash (what the writer
/// had written, up to a quarter of a second before).
@Suite(.serialized) struct KillTests {
    static let child: URL? = CLI.binary.map {
        $0.deletingLastPathComponent().appendingPathComponent("tracechild")
    }

    /// `RXTRACE_FORMAT`: the default (`rxtrace/3`) and `rxtrace/2`.
    static let formats: [String?] = [nil, "2"]

    @Test(arguments: [SIGINT, SIGTERM], formats) func aSignalFinishesTheTrace(signal: Int32, format: String?) throws {
        let (scratch, status) = try stopChild(mode: "wait", signal: signal, format: format)
        #expect(status.signal == signal, "tracechild ended with \(status.ending)")
        let url = scratch.url.appendingPathComponent("t.trace")
        let (trace, read) = try TraceDocument.readWithStatus(from: url)
        #expect(read.format == (format == nil ? "rxtrace/3" : "rxtrace/2"))
        #expect(read.endReason == (signal == SIGINT ? "SIGINT" : "SIGTERM") && !read.incompleteLastLine)
        if format == "2" {
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.split(separator: "\n").last?.hasPrefix("[\"end\",{\"reason\":\"\(read.endReason!)\"") == true)
        }
        #expect(trace.meta["cut"] == nil)
        try expectReadable(trace, scratch: scratch, cut: false)
    }

    @Test(arguments: ["SIGKILL", "fatalError"], formats)
    func aKillOrCrashLeavesWhatWasWritten(how: String, format: String?) throws {
        let (scratch, status) = try stopChild(
            mode: how == "SIGKILL" ? "wait" : "crash", signal: how == "SIGKILL" ? SIGKILL : nil, format: format)
        #expect(status.signalled, "tracechild ended with \(status.ending)")
        if how == "SIGKILL" { #expect(status.signal == SIGKILL) }
        let url = scratch.url.appendingPathComponent("t.trace")
        let (trace, read) = try TraceDocument.readWithStatus(from: url)
        #expect(read.format == (format == nil ? "rxtrace/3" : "rxtrace/2"))
        #expect(read.endReason == nil && read.cutShort)
        if format == "2" { #expect(!(try String(contentsOf: url, encoding: .utf8)).contains("[\"end\",")) }
        #expect(trace.meta["cut"]?.hasPrefix("seq ") == true)
        try expectReadable(trace, scratch: scratch, cut: true)
    }

    /// What every stopped run left: the 1,000 elements before "ready", the open subscription
    /// alive, the finished one disposed; and the three commands read it. The open subscription
    /// is a leak of a complete run (`leaks` exits 1), and only open at the cut of a cut one.
    private func expectReadable(_ trace: TraceDocument, scratch: Scratch, cut: Bool) throws {
        #expect(trace.events.filter { $0.kind == .next }.count >= 3000)
        #expect(trace.nodes.contains { $0.type == "FilterSink" && $0.disposed == nil })
        #expect(trace.nodes.contains { $0.type == "ObservableSequenceSink" && $0.disposed != nil })
        #expect(!Trace.leaks(in: trace).nodes.isEmpty)
        for arguments in [["summary", "t.trace"], ["render", "t.trace", "-o", "graph.svg"]] {
            let result = try CLI.run(arguments, in: scratch.url)
            #expect(result.status == 0 && !result.signalled, "rxtrace \(arguments[0]): \(result.stderr)")
        }
        // render and report draw what a cut trace holds, and say so: one line on stderr, a
        // banner on the page (its data carries the cut).
        for arguments in [
            ["render", "t.trace", "--view", "resources", "-o", "resources.svg"],
            ["report", "t.trace", "-o", "report.html"],
        ] {
            let result = try CLI.run(arguments, in: scratch.url)
            #expect(result.status == 0, "rxtrace \(arguments[0]): \(result.stderr)")
            let note = "rxtrace: note: t.trace was cut short at seq "
            #expect(result.stderr.hasPrefix(note) == cut, "rxtrace \(arguments[0]): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").filter { $0.contains("cut short") }.count == (cut ? 1 : 0))
        }
        let page = try String(contentsOf: scratch.url.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.contains("\"cut\":\"seq ") == cut)
        let leaks = try CLI.run(["leaks", "t.trace"], in: scratch.url)
        let said = String(decoding: leaks.stdout, as: UTF8.self)
        #expect(leaks.status == (cut ? 0 : 1) && !leaks.signalled, "rxtrace leaks: \(said) \(leaks.stderr)")
        #expect(said.contains("main.swift:"))
        #expect(said.contains("cut short") == cut)
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("graph.svg").path))
    }

    /// Runs the child under RXTRACE until it says "ready", then sends `signal` (or lets it crash).
    private func stopChild(mode: String, signal: Int32?, format: String?) throws -> (Scratch, Child.Result) {
        let program = try #require(
            Self.child.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil })
        let scratch = try Scratch()
        // No crash backtracer: it is a grandchild that would hold the child up (under
        // AddressSanitizer it never ended, and the crash test waited forever).
        let child = try Child(
            program, arguments: [mode],
            environment: [
                "RXTRACE": scratch.url.appendingPathComponent("t.trace").path, "RXTRACE_FORMAT": format,
                "SWIFT_BACKTRACE": "enable=no",
            ])
        // Never hang: "ready" within 20 s, the end within 20 s more (then SIGTERM, SIGKILL, and
        // an error if even that is not seen: Tests/ChildProcess).
        let deadline = Date().addingTimeInterval(20)
        func ready() -> Bool { String(decoding: child.output, as: UTF8.self).contains("ready") }
        while !ready(), Date() < deadline, child.isRunning { usleep(10_000) }
        #expect(ready())
        if let signal { child.send(signal) }
        let result = try child.wait(timeLimit: 20)
        #expect(!result.timedOut, "the child did not end")
        return (scratch, result)
    }
}
