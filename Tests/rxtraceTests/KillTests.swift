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

    @Test(arguments: [SIGINT, SIGTERM]) func aSignalFinishesTheTrace(signal: Int32) throws {
        let (scratch, status) = try stopChild(mode: "wait", signal: signal)
        #expect(status.signalled && status.code == signal)
        let text = try String(contentsOf: scratch.url.appendingPathComponent("t.trace"), encoding: .utf8)
        let reason = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(text.split(separator: "\n").last?.hasPrefix("[\"end\",{\"reason\":\"\(reason)\"") == true)
        let trace = try TraceDocument.read(from: scratch.url.appendingPathComponent("t.trace"))
        #expect(trace.meta["cut"] == nil)
        try expectReadable(trace, scratch: scratch, cut: false)
    }

    @Test(arguments: ["SIGKILL", "fatalError"]) func aKillOrCrashLeavesWhatWasWritten(how: String) throws {
        let (scratch, status) = try stopChild(
            mode: how == "SIGKILL" ? "wait" : "crash", signal: how == "SIGKILL" ? SIGKILL : nil)
        #expect(status.signalled)
        if how == "SIGKILL" { #expect(status.code == SIGKILL) }
        let text = try String(contentsOf: scratch.url.appendingPathComponent("t.trace"), encoding: .utf8)
        #expect(!text.contains("[\"end\","))
        let trace = try TraceDocument.read(from: scratch.url.appendingPathComponent("t.trace"))
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
        let leaks = try CLI.run(["leaks", "t.trace"], in: scratch.url)
        let said = String(decoding: leaks.stdout, as: UTF8.self)
        #expect(leaks.status == (cut ? 0 : 1) && !leaks.signalled, "rxtrace leaks: \(said) \(leaks.stderr)")
        #expect(said.contains("main.swift:"))
        #expect(said.contains("cut short") == cut)
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("graph.svg").path))
    }

    /// Runs the child under RXTRACE until it says "ready", then sends `signal` (or lets it crash).
    private func stopChild(mode: String, signal: Int32?) throws -> (Scratch, (signalled: Bool, code: Int32)) {
        let child = try #require(
            Self.child.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil })
        let scratch = try Scratch()
        let process = Process()
        process.executableURL = child
        process.arguments = [mode]
        var environment = ProcessInfo.processInfo.environment
        environment["RXTRACE"] = scratch.url.appendingPathComponent("t.trace").path
        environment["RXTRACE_FORMAT"] = nil
        // No crash backtracer: it is a grandchild that inherits the child's descriptors, so
        // Foundation does not see the child end while it runs, and under AddressSanitizer it
        // never ends (the crash test then waited forever).
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Never hang: "ready" within 20 s.
        var said = Data()
        let deadline = Date().addingTimeInterval(20)
        let reader = output.fileHandleForReading
        while !String(decoding: said, as: UTF8.self).contains("ready"), Date() < deadline, process.isRunning {
            said.append(reader.availableData)
        }
        #expect(String(decoding: said, as: UTF8.self).contains("ready"))
        if let signal { kill(process.processIdentifier, signal) }
        let end = Date().addingTimeInterval(20)
        while process.isRunning, Date() < end { usleep(10_000) }
        #expect(!process.isRunning, "the child did not end")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        // Bounded, never `waitUntilExit()`: a test that cannot see its child end fails, it does not hang.
        let killed = Date().addingTimeInterval(10)
        while process.isRunning, Date() < killed { usleep(10_000) }
        guard !process.isRunning else { throw ChildDidNotEnd() }
        return (scratch, (process.terminationReason == .uncaughtSignal, process.terminationStatus))
    }
}

/// The child was still running 10 s after SIGKILL (as Foundation sees it).
private struct ChildDidNotEnd: Error, CustomStringConvertible {
    var description: String { "tracechild did not end, even after SIGKILL" }
}
