import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the signal handler writes the signal's number (a write is all a handler may do).
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// `RXTRACE=trace.json swift run MyApp`: records any program that links RxCore, with no code
/// change. Streamed (`rxtrace/3`): the trace is written while the program runs and finished at
/// exit (also through `exit()`), SIGINT or SIGTERM; a crash leaves what was written. With
/// `RXTRACE_FORMAT=1`, the whole trace is written at exit as one `rxtrace/1` JSON document.
///
/// The environment is read once, when the core makes its first object (the check sits where
/// nodes are born, never on a per-event path). Variables:
///
/// - `RXTRACE=path` — install a `TraceRecorder` and write its trace to `path` at exit
///   (through a temporary file renamed into place).
/// - `RXTRACE_KEEP=all|events|graph` — what to keep (default `all`; `graph` keeps nodes, edges
///   and resource samples only).
/// - `RXTRACE_RING=N` — capacity of the step ring and of the event ring (default 1,000,000 each;
///   `RXTRACE_FORMAT=1` only: a streamed recording keeps no ring).
/// - `RXTRACE_FORMAT=1|2|3` — `rxtrace/1` written at exit, or streamed: `rxtrace/3` (binary
///   records, the default) or `rxtrace/2` (JSON lines).
/// - `RXTRACE_MAX_MB=N` — streamed: when the file reaches N MB, its oldest part is dropped
///   (the file starts again with the nodes still alive and a `drop` line saying what went).
public enum TraceAutostart {
    private struct Running {
        var recorder: TraceRecorder
        var url: URL
        var writer: TraceStreamWriter?
    }

    /// The format `RXTRACE` writes when `RXTRACE_FORMAT` is not set.
    public static let defaultFormat = TraceFormat.v3

    private static let running = Mutex<Running?>(nil)

    /// Set once `once` has run: objects check this flag (an atomic load) rather than the lazy
    /// global's `swift_once`, which is a call into the runtime for every object.
    private static let checked = Atomic<Bool>(false)

    /// Reads the environment at the first object the core makes.
    @inline(__always)
    static func check() {
        if !checked.load(ordering: .acquiring) { checkOnce() }
    }

    @inline(never)
    private static func checkOnce() {
        _ = once
        checked.store(true, ordering: .releasing)
    }

    /// Evaluated once, at the first object the core makes.
    static let once: Void = {
        guard let path = getenv("RXTRACE").map({ String(cString: $0) }), !path.isEmpty else { return }
        var environment: [String: String] = ["RXTRACE": path]
        for name in ["RXTRACE_KEEP", "RXTRACE_RING", "RXTRACE_FORMAT", "RXTRACE_MAX_MB"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        if start(environment: environment) != nil {
            atexit { TraceAutostart.finish() }
            if running.withLock({ $0?.writer != nil }) { installSignalHandlers() }
        }
    }()

    /// The format the variables ask for (an unknown value falls back to the default, with one
    /// line on stderr).
    public static func format(from environment: [String: String]) -> TraceFormat {
        guard let value = environment["RXTRACE_FORMAT"], !value.isEmpty else { return defaultFormat }
        switch value.lowercased() {
        case "1", "v1", "json", "rxtrace/1": return .v1
        case "2", "v2", "rxtrace/2": return .v2
        case "3", "v3", "rxtrace/3": return .v3
        default:
            warn("RXTRACE_FORMAT=\(value) is not 1, 2 or 3; writing \(defaultFormat.rawValue)")
            return defaultFormat
        }
    }

    /// `RXTRACE_MAX_MB` in bytes (nil: unset, or not a positive number, said in one line).
    public static func maxBytes(from environment: [String: String]) -> Int? {
        guard let value = environment["RXTRACE_MAX_MB"], !value.isEmpty else { return nil }
        guard let megabytes = Double(value.replacingOccurrences(of: "_", with: "")), megabytes > 0,
            megabytes < Double(Int.max >> 21)
        else {
            warn("RXTRACE_MAX_MB=\(value) is not a positive number of megabytes; the trace is not bounded")
            return nil
        }
        return Int(megabytes * 1_048_576)
    }

    /// SIGINT and SIGTERM (when the program left them at their default): the trace is finished
    /// (everything recorded written, then the `end` line), then the signal is raised again with
    /// its default action, so that the program ends as it would have. The handler only writes
    /// the signal's number to a pipe; a thread of ours does the rest.
    private static func installSignalHandlers() {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return }
        let readEnd = pipeEnds[0]
        signalPipe = pipeEnds[1]
        let thread = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) != 1 {
                if errno != EINTR { return }
            }
            let number = Int32(byte)
            TraceAutostart.finish(reason: number == SIGINT ? "SIGINT" : "SIGTERM")
            signal(number, SIG_DFL)
            raise(number)
        }
        thread.name = "rxtrace signals"
        thread.start()
        for number in [SIGINT, SIGTERM] {
            let previous = signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipe, &byte, 1)
            }
            // The program handles (or ignores) it itself: leave it so.
            if previous != nil { signal(number, previous) }
        }
    }

    /// The recording options the variables ask for (unknown values fall back to the defaults,
    /// with one line on stderr).
    public static func options(from environment: [String: String]) -> TraceRecorder.Options {
        var options = TraceRecorder.Options()
        if let keep = environment["RXTRACE_KEEP"], !keep.isEmpty {
            if let value = TraceRecorder.Keep(rawValue: keep.lowercased()) {
                options.keep = value
            } else {
                warn("RXTRACE_KEEP=\(keep) is not one of all, events, graph; keeping all")
            }
        }
        if let ring = environment["RXTRACE_RING"], !ring.isEmpty {
            if let value = Int(ring.replacingOccurrences(of: "_", with: "")), value >= 0 {
                options.ringCapacity = value
            } else {
                warn("RXTRACE_RING=\(ring) is not a count; using \(TraceRecorder.Options.defaultRingCapacity)")
            }
        }
        return options
    }

    /// Starts recording as `environment` asks (`RXTRACE`, `RXTRACE_KEEP`, `RXTRACE_RING`,
    /// `RXTRACE_FORMAT`): installs a recorder and returns it, or nil when `RXTRACE` is unset, a
    /// tracer is installed already, or (streamed) the file cannot be created (said in one line
    /// on stderr). The core calls this itself; tests call it directly, then `finish()`.
    @discardableResult
    public static func start(environment: [String: String]) -> TraceRecorder? {
        start(environment: environment, mirror: nil)
    }

    /// `start(environment:)`, streaming the same records to `mirror` too, in another format: one
    /// run recorded in two formats, for tests that compare them (not with `RXTRACE_MAX_MB`).
    @discardableResult
    package static func start(
        environment: [String: String], mirror: (path: String, format: TraceFormat)?
    ) -> TraceRecorder? {
        guard let path = environment["RXTRACE"], !path.isEmpty else { return nil }
        let options = options(from: environment)
        let format = format(from: environment)
        return running.withLock { running -> TraceRecorder? in
            guard running == nil, Tracing.tracer == nil else { return nil }
            let url = URL(fileURLWithPath: path)
            guard format != .v1 else {
                let recorder = TraceRecorder(options: options)
                running = Running(recorder: recorder, url: url)
                Tracing.tracer = recorder
                return recorder
            }
            let recorder = TraceRecorder(options: options, streamed: true)
            // The pid and host let `rxtrace top` tell a program that ended without its end record.
            let meta = recorder.meta([
                "arguments": CommandLine.arguments.joined(separator: " "), "pid": String(getpid()),
                "host": ProcessInfo.processInfo.hostName,
            ])
            let maxBytes = maxBytes(from: environment)
            switch TraceStreamWriter.create(
                path: url.path, recorder: recorder, meta: meta, maxBytes: maxBytes, format: format, mirror: mirror)
            {
            case .failure(let error):
                warn(error.reason)
                return nil
            case .success(let writer):
                running = Running(recorder: recorder, url: url, writer: writer)
                Tracing.tracer = recorder
                writer.start()
                return recorder
            }
        }
    }

    /// Reads the environment now if the core has not yet (it does at its first object), so that
    /// a tracer installed before any object is made (RxDistributedTracing's) can wrap the
    /// recorder `RXTRACE` asks for rather than keep it out.
    public static func checkEnvironment() { check() }

    /// Whether an environment-started recording is running.
    public static var isRecording: Bool { running.withLock { $0 != nil } }

    /// Stops the environment-started recording and writes its trace (what `atexit` does).
    /// Returns the path written, or nil when nothing was recording or the write failed (which
    /// is said in one line on stderr).
    @discardableResult
    public static func finish() -> String? { finish(reason: "exit") }

    @discardableResult
    static func finish(reason: String) -> String? {
        guard
            let current = running.withLock({ running -> Running? in
                defer { running = nil }
                return running
            })
        else { return nil }
        if Tracing.tracer === current.recorder { Tracing.tracer = nil }
        if let writer = current.writer {
            if let failure = writer.finish(reason: reason) {
                warn(failure)
                return nil
            }
            return current.url.path
        }
        let document = current.recorder.snapshot(meta: ["arguments": CommandLine.arguments.joined(separator: " ")])
        do {
            try document.write(to: current.url, format: .v1)
            return current.url.path
        } catch {
            warn(error.localizedDescription)
            return nil
        }
    }

    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data("rxtrace: \(message)\n".utf8))
    }
}
