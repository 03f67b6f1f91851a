import ChildProcess
import Foundation
import RxTrace
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `rxtrace top` following a running program that leaks one subscription per tick
/// (`tracechild leak`): in a real terminal (tmux), as plain lines, and on bad input.
@Suite(.serialized) struct TopTests {
    static let child: URL? = CLI.binary.map {
        $0.deletingLastPathComponent().appendingPathComponent("tracechild")
    }

    /// The call site of the leak in tracechild's source: `main.swift:N`.
    static let leakSite: String = {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TraceChild/main.swift")
        let lines = (try? String(contentsOf: source, encoding: .utf8))?.components(separatedBy: "\n") ?? []
        let index = lines.firstIndex { $0.contains("_ = ticker.filter") } ?? -1
        return "main.swift:\(index + 1)"
    }()

    static let ticks = 30

    /// The leaking program, writing `t.rxt` in `scratch`.
    private func startLeaking(in scratch: Scratch, milliseconds: Int = 150, maxMegabytes: String? = nil) throws -> Child
    {
        let program = try #require(
            Self.child.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil })
        return try Child(
            program, arguments: ["leak", String(Self.ticks), String(milliseconds)],
            environment: [
                "RXTRACE": scratch.url.appendingPathComponent("t.rxt").path, "RXTRACE_FORMAT": nil,
                "RXTRACE_MAX_MB": maxMegabytes, "SWIFT_BACKTRACE": "enable=no",
            ])
    }

    /// The live count in the leak's row of `text` (the last such row), if shown.
    private func leakRow(in text: String) -> Int? {
        text.components(separatedBy: "\n").last { $0.hasPrefix(Self.leakSite + " ") }
            .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
    }

    @Test func aGrowingRowInARealTerminal() throws {
        let tmux = try #require(Self.which("tmux"), "tmux is not installed")
        let rxtrace = try #require(CLI.binary)
        let scratch = try Scratch()
        // A server of its own, so no one's tmux is touched.
        let socket = "rxtrace-top-\(UUID().uuidString.prefix(8))"
        func tmuxRun(_ arguments: [String]) throws -> Child.Result {
            try Child.run(tmux, arguments: ["-L", socket] + arguments, directory: scratch.url, timeLimit: 20)
        }
        defer { _ = try? tmuxRun(["kill-server"]) }
        // top starts first: the file does not exist yet, and it waits for it.
        let command = "'\(rxtrace.path)' top t.rxt --interval 0.3; echo TOP-EXIT=$?; sleep 60"
        let started = try tmuxRun(["new-session", "-d", "-s", "top", "-x", "160", "-y", "40", command])
        #expect(started.status == 0, "tmux new-session: \(started.stderr)")
        func pane() throws -> String { try tmuxRun(["capture-pane", "-p", "-t", "top"]).out }

        let leaking = try startLeaking(in: scratch)
        var seen: [Int] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let screen = try pane()
            if screen.contains("TOP-EXIT=") { break }
            if let live = leakRow(in: screen), live != seen.last { seen.append(live) }
            usleep(200_000)
        }
        // The row grew while the program ran, redrawn in place.
        #expect(seen.count >= 3, "live counts seen in the leak's row: \(seen)")
        #expect(seen == seen.sorted(), "live counts seen in the leak's row: \(seen)")
        let result = try leaking.wait(timeLimit: 30)
        #expect(result.status == 0, "tracechild: \(result.ending) \(result.stderr)")

        // At the end record top leaves the live screen and prints the final state.
        var final = ""
        let end = Date().addingTimeInterval(20)
        while Date() < end {
            final = try pane()
            if final.contains("TOP-EXIT=") { break }
            usleep(100_000)
        }
        #expect(final.contains("TOP-EXIT=0"), "pane:\n\(final)")
        #expect(final.contains("ended (exit)"), "pane:\n\(final)")
        #expect(leakRow(in: final) == Self.ticks, "pane:\n\(final)")
        #expect(final.contains("CALL SITE") && final.contains("FilterSink"), "pane:\n\(final)")
    }

    @Test func plainLinesWhenNotATerminal() throws {
        let scratch = try Scratch()
        let leaking = try startLeaking(in: scratch)
        let result = try CLI.run(["top", "t.rxt", "--interval", "0.3"], in: scratch.url)
        _ = try leaking.wait(timeLimit: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let blocks = result.out.components(separatedBy: "--- ").dropFirst()
        // One block per refresh, the row growing, then the final state.
        let counts = blocks.compactMap { leakRow(in: $0) }
        #expect(counts.count >= 3, "\(result.out)")
        #expect(counts == counts.sorted(), "\(counts)")
        #expect(counts.last == Self.ticks)
        let last = try #require(blocks.last)
        #expect(last.hasPrefix("final\n"))
        #expect(last.contains("ended (exit) at seq"))
        // No terminal control sequences in plain output.
        #expect(!result.out.contains("\u{1B}"))
    }

    /// Bounded by `RXTRACE_MAX_MB`, the file is replaced by each new segment: top follows them,
    /// keeping the subscriptions each one carries over.
    @Test func followsTheSegmentsOfABoundedTrace() throws {
        let scratch = try Scratch()
        let leaking = try startLeaking(in: scratch, milliseconds: 100, maxMegabytes: "0.005")
        let result = try CLI.run(["top", "t.rxt", "--interval", "0.3"], in: scratch.url)
        _ = try leaking.wait(timeLimit: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let final = try #require(result.out.components(separatedBy: "--- final\n").last)
        #expect(leakRow(in: final) == Self.ticks, "\(final)")
        let segments = final.split(separator: "\n").first?.split(separator: "·").last { $0.contains("segments") }
        #expect((segments.flatMap { Int($0.split(separator: " ").first ?? "") } ?? 0) >= 2, "\(final)")
        // The steady subscription, disposed at the end, is not counted alive.
        #expect(final.contains("live subscriptions \(Self.ticks) "), "\(final)")
    }

    @Test func ctrlCPrintsTheFinalState() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Data(Self.header(meta: [:]).utf8), "open.rxt")
        let program = try #require(CLI.binary)
        let top = try Child(program, arguments: ["top", trace, "--interval", "0.2"], directory: scratch.url)
        #expect(Self.firstRefresh(of: top), "top printed nothing within 20 s")
        top.send(SIGINT)
        let result = try top.wait(timeLimit: 20)
        #expect(result.status == 0 && !result.signalled, "\(result.ending) \(result.stderr)")
        #expect(result.out.contains("--- final\n"))
        #expect(result.out.contains("live subscriptions 1"))
        #expect(result.out.contains("main.swift:3 "))
    }

    @Test func aMissingFileIsAwaitedThenOneLine() throws {
        let scratch = try Scratch()
        let result = try CLI.run(["top", "nothing.rxt", "--wait", "0.3"], in: scratch.url)
        #expect(result.status == 2)
        #expect(result.stderr == "rxtrace: nothing.rxt: no such file (waited 0.3 s)\n")
        #expect(result.out.isEmpty)
    }

    @Test(arguments: [
        ("text", "hello\n", "not a trace"),
        ("rxtrace/1", "{\"dropped\":{},\"edges\":[],\"format\":\"rxtrace/1\"}\n", "only a streamed trace"),
        ("malformed", header(meta: [:]) + "[\"v\",oops]\n", ":5: malformed record"),
    ])
    func badInputIsOneLine(name: String, content: String, says: String) throws {
        let scratch = try Scratch()
        let file = try scratch.write(Data(content.utf8), "bad.rxt")
        let result = try CLI.run(["top", file, "--interval", "0.1"], in: scratch.url)
        #expect(result.status == 2, "\(name)")
        #expect(result.stderr.hasPrefix("rxtrace: bad.rxt"), "\(name): \(result.stderr)")
        #expect(result.stderr.contains(says), "\(name): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(name): \(result.stderr)")
    }

    /// A program that ended without its end record (its pid gone): the state, then one line.
    @Test func aProgramGoneWithoutItsEndRecord() throws {
        let scratch = try Scratch()
        // A shell's pid, free once it has ended (its reuse within the test is not expected).
        let pid = try #require(Self.endedPid)
        let trace = try scratch.write(
            Data(Self.header(meta: ["pid": String(pid), "host": ProcessInfo.processInfo.hostName]).utf8), "cut.rxt")
        let result = try CLI.run(["top", trace, "--interval", "0.1"], in: scratch.url)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("cut.rxt: cut short at seq 4: the program (pid \(pid)) ended"), "\(result.stderr)")
        #expect(result.out.contains("main.swift:3 "))
    }

    @Test func aFileThatShrinksIsOneLine() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Data(Self.header(meta: [:]).utf8), "shrinks.rxt")
        let program = try #require(CLI.binary)
        let top = try Child(program, arguments: ["top", trace, "--interval", "0.1"], directory: scratch.url)
        #expect(Self.firstRefresh(of: top), "top printed nothing within 20 s")
        try Data("{\"format\":\"rxtrace/2\"}\n".utf8).write(to: scratch.url.appendingPathComponent(trace))
        let result = try top.wait(timeLimit: 20)
        #expect(result.status == 2, "\(result.ending)")
        #expect(result.stderr.contains("shrank"), "\(result.stderr)")
    }

    /// Waits (20 s at most) until `top` has shown its first refresh: it is then following the file
    /// and handling signals.
    static func firstRefresh(of top: Child) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, top.isRunning {
            if String(decoding: top.output, as: UTF8.self).contains("CALL SITE") { return true }
            usleep(20_000)
        }
        return false
    }

    /// A streamed trace's first lines: one subscription alive at `main.swift:3`, no end record.
    static func header(meta: [String: String]) -> String {
        let fields = meta.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",")
        return """
            {"format":"rxtrace/2","meta":{\(fields)}}
            ["n",1,"producer","PublishSubject","main.swift:1",null,1,"main"]
            ["n",2,"observer","AnonymousObserver","main.swift:3",null,2,"main"]
            ["v",4,2,"next","1",0.1,0,"main"]

            """
    }

    /// The pid of a process that has ended: a shell that printed its own.
    static var endedPid: Int32? {
        let shell = try? Child.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo $$"], timeLimit: 10)
        return shell.flatMap { Int32($0.out.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    static func which(_ name: String) -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }
}
