import ChildProcess
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The runner every test target uses for its child processes (Tests/ChildProcess): what it
/// reports, and that no child can make it wait past its time limit, its grace and its bounded
/// wait after SIGKILL.
@Suite struct ChildTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    static func sh(
        _ script: String, timeLimit: TimeInterval = 30, grace: TimeInterval = 2,
        environment: [String: String?] = [:], directory: URL? = nil, errorsToOutput: Bool = false
    ) throws -> Child.Result {
        try Child.run(
            shell, arguments: ["-c", script], environment: environment, directory: directory,
            errorsToOutput: errorsToOutput, timeLimit: timeLimit, grace: grace)
    }

    /// A child that writes more to standard error than a pipe holds (64 KB on Linux) before it
    /// ends its standard output: the runner gets both in full, and does not wait forever.
    @Test func runnerReadsBothStreamsInFull() throws {
        let run = try Self.sh("yes e | head -c 300000 >&2; yes o | head -c 300000; exit 3", timeLimit: 60)
        #expect(run.status == 3 && run.signal == nil && !run.timedOut)
        #expect(run.stderr == String(repeating: "e\n", count: 150_000))
        #expect(run.out == String(repeating: "o\n", count: 150_000))
    }

    @Test func exitStatusIsReported() throws {
        let run = try Self.sh("echo out; echo err >&2; exit 3")
        #expect(run.status == 3)
        #expect(run.signal == nil && !run.signalled && !run.timedOut)
        #expect(run.out == "out\n" && run.stderr == "err\n")
    }

    /// The shell kills itself: the signal is reported, and the status says it as a shell would.
    @Test func aSignalIsReported() throws {
        let run = try Self.sh("ulimit -c 0; echo before; kill -SEGV $$; echo after")
        #expect(run.signal == SIGSEGV && run.signalled)
        #expect(run.status == 128 + SIGSEGV)
        #expect(!run.timedOut)
        #expect(run.out == "before\n")
    }

    /// Past the time limit the child gets SIGTERM, and the result says the limit stopped it.
    @Test func theTimeLimitStopsAChild() throws {
        let start = Date()
        let run = try Self.sh("echo started; sleep 30", timeLimit: 1)
        let elapsed = Date().timeIntervalSince(start)
        #expect(run.timedOut)
        #expect(run.signal == SIGTERM)
        #expect(run.out == "started\n")
        #expect(elapsed >= 1 && elapsed < 10, "took \(elapsed) s")
    }

    /// A child that ignores SIGTERM (and its `sleep`, which inherits that) is ended by SIGKILL
    /// after the grace, grandchild included, and the call returns in bounded time.
    @Test func aChildThatIgnoresSIGTERMIsKilled() throws {
        let start = Date()
        let run = try Self.sh("trap '' TERM; sleep 30 & echo $!; wait", timeLimit: 1, grace: 0.5)
        let elapsed = Date().timeIntervalSince(start)
        #expect(run.timedOut)
        #expect(run.signal == SIGKILL && run.status == 128 + SIGKILL)
        #expect(elapsed >= 1.5 && elapsed < 10, "took \(elapsed) s")
        #if os(Linux)
        // The `sleep` was in the child's process group: it got SIGKILL too.
        let sleeper = try #require(Int32(run.out.trimmingCharacters(in: .whitespacesAndNewlines)))
        let gone = Date().addingTimeInterval(5)
        while Self.isAlive(sleeper), Date() < gone { usleep(10_000) }
        #expect(!Self.isAlive(sleeper), "the grandchild \(sleeper) outlived the child")
        #endif
    }

    /// Alive: in /proc and not a zombie (a killed orphan may wait a moment for init to reap it).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.range(of: ") ", options: .backwards)
        else { return false }
        return stat[close.upperBound...].first != "Z"
    }

    /// Changes to the environment (nil removes a variable), the working directory, and
    /// standard input at end of file.
    @Test func environmentDirectoryAndInput() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        setenv("CHILD_TEST_REMOVED", "inherited", 1)
        setenv("CHILD_TEST_KEPT", "inherited", 1)
        defer {
            unsetenv("CHILD_TEST_REMOVED")
            unsetenv("CHILD_TEST_KEPT")
        }
        let run = try Self.sh(
            "pwd -P; echo \"$CHILD_TEST_SET\"; echo \"${CHILD_TEST_REMOVED-unset}\"; echo \"$CHILD_TEST_KEPT\"; cat",
            environment: ["CHILD_TEST_SET": "set", "CHILD_TEST_REMOVED": nil], directory: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let real = directory.resolvingSymlinksInPath().path
        #expect(run.out == "\(real)\nset\nunset\ninherited\n")
    }

    #if os(Linux)
    /// The child gets standard input, output and error, and none of this process's other
    /// descriptors (one it held would keep a pipe of this process open, or a file busy).
    @Test func onlyTheThreeStandardDescriptorsAreInherited() throws {
        let open = Glibc.open("/dev/null", O_RDONLY) // without O_CLOEXEC
        try #require(open > 2)
        defer { close(open) }
        let run = try Self.sh("[ -e /proc/$$/fd/\(open) ] && echo inherited || echo closed; ls /proc/$$/fd")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.out == "closed\n0\n1\n2\n")
    }
    #endif

    @Test func errorsCanGoToOutput() throws {
        let run = try Self.sh("echo a; echo b >&2; echo c", errorsToOutput: true)
        #expect(run.out == "a\nb\nc\n")
        #expect(run.stderr.isEmpty)
    }

    /// A child watched while it runs: its output so far, then a signal of the test's choosing.
    @Test func aRunningChildCanBeWatchedAndSignalled() throws {
        let child = try Child(Self.shell, arguments: ["-c", "echo ready; exec sleep 30"])
        let deadline = Date().addingTimeInterval(10)
        while !child.output.starts(with: Data("ready".utf8)), Date() < deadline { usleep(5_000) }
        #expect(child.isRunning)
        #expect(child.output == Data("ready\n".utf8))
        child.send(SIGINT)
        let run = try child.wait(timeLimit: 10)
        #expect(!run.timedOut)
        #expect(run.signal == SIGINT)
        #expect(!child.isRunning)
    }

    @Test func aProgramThatCannotRunIsAnError() throws {
        #expect(throws: Child.SpawnFailed.self) {
            try Child.run(URL(fileURLWithPath: "/nonexistent/program"), timeLimit: 5)
        }
        #expect(throws: Child.SpawnFailed.self) {
            try Child.run(
                Self.shell, arguments: ["-c", "true"], directory: URL(fileURLWithPath: "/nonexistent"), timeLimit: 5)
        }
    }
}
