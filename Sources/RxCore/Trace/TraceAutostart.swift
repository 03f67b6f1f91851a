import Foundation
import Synchronization

/// `RXTRACE=trace.json swift run MyApp`: records any program that links RxCore, with no code
/// change, and writes the trace when the program exits (also through `exit()`).
///
/// The environment is read once, when the core makes its first object (the check sits where
/// nodes are born, never on a per-event path). Variables:
///
/// - `RXTRACE=path` — install a `TraceRecorder` and write its trace to `path` at exit
///   (through a temporary file renamed into place).
/// - `RXTRACE_KEEP=all|events|graph` — what to keep (default `all`; `graph` keeps nodes, edges
///   and resource samples only).
/// - `RXTRACE_RING=N` — capacity of the step ring and of the event ring (default 1,000,000 each).
public enum TraceAutostart {
    private struct Running {
        var recorder: TraceRecorder
        var url: URL
    }

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
        for name in ["RXTRACE_KEEP", "RXTRACE_RING"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        if start(environment: environment) != nil {
            atexit { TraceAutostart.finish() }
        }
    }()

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

    /// Starts recording as `environment` asks (`RXTRACE`, `RXTRACE_KEEP`, `RXTRACE_RING`):
    /// installs a recorder and returns it, or nil when `RXTRACE` is unset or a tracer is
    /// installed already. The core calls this itself; tests call it directly, then `finish()`.
    @discardableResult
    public static func start(environment: [String: String]) -> TraceRecorder? {
        guard let path = environment["RXTRACE"], !path.isEmpty else { return nil }
        let options = options(from: environment)
        return running.withLock { running -> TraceRecorder? in
            guard running == nil, Tracing.tracer == nil else { return nil }
            let recorder = TraceRecorder(options: options)
            running = Running(recorder: recorder, url: URL(fileURLWithPath: path))
            Tracing.tracer = recorder
            return recorder
        }
    }

    /// Whether an environment-started recording is running.
    public static var isRecording: Bool { running.withLock { $0 != nil } }

    /// Stops the environment-started recording and writes its trace (what `atexit` does).
    /// Returns the path written, or nil when nothing was recording or the write failed (which
    /// is said in one line on stderr).
    @discardableResult
    public static func finish() -> String? {
        guard
            let current = running.withLock({ running -> Running? in
                defer { running = nil }
                return running
            })
        else { return nil }
        if Tracing.tracer === current.recorder { Tracing.tracer = nil }
        let document = current.recorder.snapshot(meta: ["arguments": CommandLine.arguments.joined(separator: " ")])
        do {
            try document.write(to: current.url)
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
