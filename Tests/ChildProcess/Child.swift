import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A program the tests run as a child process, started with `posix_spawn` and waited for with
/// `waitpid`, so that the wait is in the test's hands:
///
/// - standard input is `/dev/null`; standard output and standard error go to temporary files
///   (unlinked at once), not pipes: a child that fills one pipe while the runner waits on the
///   other would wait forever;
/// - the child leads a process group of its own, and past its time limit the whole group gets
///   SIGTERM, then SIGKILL after a short grace: a grandchild (a shell's `sleep`, Swift's crash
///   backtracer) goes with it;
/// - the wait after SIGKILL is bounded too, and ends in `DidNotEnd` rather than a hang.
///
/// The child's end is seen by `waitpid` on its own pid, whatever its grandchildren still hold
/// open (Foundation's `Process` on Linux sees a child end only once every process holding its
/// descriptors has closed them, which under AddressSanitizer a crashed child's backtracer never
/// did).
///
/// `Child.run` runs a program to the end; `Child(…)` starts one to watch while it runs
/// (`output`, `isRunning`, `send(_:)`), then `wait(timeLimit:)`.
public final class Child {
    /// How a child ended and what it wrote.
    public struct Result: Sendable {
        /// The exit status; when a signal ended the child, 128 + the signal's number, as a shell
        /// says it.
        public var status: Int32
        /// The signal that ended the child, nil when it exited.
        public var signal: Int32?
        /// The time limit stopped the child (its status then says by which signal, unless it
        /// still managed to exit).
        public var timedOut: Bool
        /// Everything the child wrote to standard output (and standard error too, when it was
        /// started with `errorsToOutput`).
        public var stdout: Data
        /// Everything the child wrote to standard error, as text.
        public var stderr: String

        public var signalled: Bool { signal != nil }
        /// How it ended, for messages: "exit 3", "signal 9 (stopped at its time limit)".
        public var ending: String {
            (signal.map { "signal \($0)" } ?? "exit \(status)") + (timedOut ? " (stopped at its time limit)" : "")
        }
        /// Standard output as text.
        public var out: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The child was still running after SIGKILL and the bounded wait that follows it.
    public struct DidNotEnd: Error, CustomStringConvertible {
        public var program: String
        public var seconds: TimeInterval
        public var description: String {
            "\(program) did not end, even after SIGKILL (waited \(Int(seconds)) s more)"
        }
    }

    /// A call to the system failed before the child ran.
    public struct SpawnFailed: Error, CustomStringConvertible {
        public var description: String
    }

    /// The program's file name, for messages.
    public let name: String
    public let pid: pid_t
    /// Seconds between SIGTERM and SIGKILL at the time limit.
    public let grace: TimeInterval
    /// Seconds waited after SIGKILL before `DidNotEnd`.
    public let killWait: TimeInterval
    private let outFile: Int32
    private let errFile: Int32?
    private var ended: (status: Int32, signal: Int32?)?

    /// Runs `executable` to the end, or until `timeLimit` seconds have passed (then SIGTERM,
    /// `grace` seconds later SIGKILL, and `DidNotEnd` if even that is not seen within
    /// `killWait` seconds).
    ///
    /// `environment` changes this process's environment for the child: a value replaces or
    /// adds a variable, nil removes it. `directory` is the child's working directory (this
    /// process's when nil). With `errorsToOutput`, standard error goes to `stdout` too,
    /// interleaved as written.
    public static func run(
        _ executable: URL, arguments: [String] = [], environment: [String: String?] = [:], directory: URL? = nil,
        errorsToOutput: Bool = false, timeLimit: TimeInterval, grace: TimeInterval = 2, killWait: TimeInterval = 10
    ) throws -> Result {
        let child = try Child(
            executable, arguments: arguments, environment: environment, directory: directory,
            errorsToOutput: errorsToOutput, grace: grace, killWait: killWait)
        return try child.wait(timeLimit: timeLimit)
    }

    /// Starts `executable` (arguments as in `run`).
    public init(
        _ executable: URL, arguments: [String] = [], environment: [String: String?] = [:], directory: URL? = nil,
        errorsToOutput: Bool = false, grace: TimeInterval = 2, killWait: TimeInterval = 10
    ) throws {
        name = executable.lastPathComponent
        self.grace = grace
        self.killWait = killWait
        outFile = try Self.captureFile("stdout")
        do {
            errFile = errorsToOutput ? nil : try Self.captureFile("stderr")
        } catch {
            close(outFile)
            throw error
        }
        do {
            pid = try Self.spawn(
                executable, arguments: arguments, environment: environment, directory: directory, stdout: outFile,
                stderr: errFile ?? outFile)
        } catch {
            close(outFile)
            if let errFile { close(errFile) }
            throw error
        }
    }

    deinit {
        if ended == nil {
            // Left running by a test that failed early: not left behind.
            kill(-pid, SIGKILL)
            _ = awaitEnd(seconds: killWait)
        }
        close(outFile)
        if let errFile { close(errFile) }
    }

    /// Whether the child still runs (it is reaped as soon as it is seen to have ended).
    public var isRunning: Bool { poll() == nil }

    /// What the child has written to standard output so far.
    public var output: Data { Self.contents(of: outFile) }

    /// Sends `signal` to the child (not to its process group).
    public func send(_ signal: Int32) {
        if ended == nil { kill(pid, signal) }
    }

    /// Waits for the child to end, at most `timeLimit` seconds; then stops it as `run` says.
    public func wait(timeLimit: TimeInterval) throws -> Result {
        var timedOut = false
        var end = awaitEnd(seconds: timeLimit)
        if end == nil {
            timedOut = true
            kill(-pid, SIGTERM)
            end = awaitEnd(seconds: grace)
        }
        if end == nil {
            kill(-pid, SIGKILL)
            end = awaitEnd(seconds: killWait)
        }
        guard let end else { throw DidNotEnd(program: name, seconds: killWait) }
        return Result(
            status: end.status, signal: end.signal, timedOut: timedOut, stdout: Self.contents(of: outFile),
            stderr: errFile.map { String(decoding: Self.contents(of: $0), as: UTF8.self) } ?? "")
    }

    /// The child's end, waiting for it at most `seconds`; nil if it still runs.
    private func awaitEnd(seconds: TimeInterval) -> (status: Int32, signal: Int32?)? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let end = poll() { return end }
            if Date() >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// Reaps the child if it has ended.
    private func poll() -> (status: Int32, signal: Int32?)? {
        if let ended { return ended }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, WNOHANG) } while result == -1 && errno == EINTR
        guard result == pid else {
            // -1 (ECHILD): someone else reaped it, which nothing in the tests does; say so
            // rather than wait for a child that is gone.
            if result == -1 { ended = (-1, nil) }
            return ended
        }
        // The <sys/wait.h> macros, which Swift does not import: the low 7 bits are the signal
        // (0: exited), the next byte the exit status; 0x7f would be a stopped child, which
        // WNOHANG without WUNTRACED never reports.
        let signal = status & 0x7f
        ended = signal == 0 ? ((status >> 8) & 0xff, nil) : (128 + signal, signal)
        return ended
    }

    /// A new temporary file, open for reading and writing and already unlinked: nothing is left
    /// behind, whatever happens to the test.
    private static func captureFile(_ stream: String) throws -> Int32 {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "child-\(stream)-\(UUID().uuidString)"
        ).path
        let file = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw SpawnFailed(description: "cannot create \(path): \(Self.lastError)") }
        unlink(path)
        return file
    }

    /// The whole file (the child shares its offset, so read by position).
    private static func contents(of file: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, off_t(data.count)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    private static var lastError: String { String(cString: strerror(errno)) }

    #if canImport(Darwin)
    private static func addChdir(_ actions: inout posix_spawn_file_actions_t?, _ path: String) -> Int32 {
        posix_spawn_file_actions_addchdir_np(&actions, path)
    }
    #else
    private typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>)
        -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29) and `…_addclosefrom_np` (2.34),
    /// which Swift's Glibc module does not declare, looked up by name.
    private static let glibc: (chdir: AddChdir?, closeFrom: AddCloseFrom?) = {
        let process = dlopen(nil, RTLD_NOW)
        return (
            dlsym(process, "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: AddChdir.self) },
            dlsym(process, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }
        )
    }()

    private static func addChdir(_ actions: inout posix_spawn_file_actions_t, _ path: String) -> Int32 {
        guard let chdir = glibc.chdir else { return ENOSYS }
        return chdir(&actions, path)
    }
    #endif

    private static func spawn(
        _ executable: URL, arguments: [String], environment: [String: String?], directory: URL?, stdout: Int32,
        stderr: Int32
    ) throws -> pid_t {
        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        if let directory {
            guard addChdir(&actions, directory.path) == 0 else {
                throw SpawnFailed(description: "cannot run \(executable.path) in \(directory.path)")
            }
        }
        // Its own process group (so that the time limit stops grandchildren too), every signal
        // at its default and none blocked, whatever this test process does with them.
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        #if canImport(Darwin)
        // Only the three descriptors above, none of this process's others.
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_CLOEXEC_DEFAULT
        #else
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        // Only the three descriptors above, none of this process's others (glibc 2.34 and later;
        // before, the descriptors this process opens without O_CLOEXEC are inherited).
        if let closeFrom = Self.glibc.closeFrom { _ = closeFrom(&actions, 3) }
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SpawnFailed(description: "cannot run \(executable.path): \(String(cString: strerror(result)))")
        }
        return pid
    }
}
