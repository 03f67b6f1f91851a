import Foundation
import Synchronization

/// Recording scopes, and the analyses other parts share (`leaks(in:)`, `summary(of:)`).
///
/// ```swift
/// let trace = Trace.record {
///     let d = Observable<String>.create { observer in
///         observer.onNext("mojito")
///         return Disposables.create()
///     }.subscribe(onNext: { print($0) })
///     d.dispose()
/// }
/// try trace.write(to: URL(fileURLWithPath: "trace.json"))
/// ```
///
/// The recorder itself is RxCore's `TraceRecorder`, so a program run with `RXTRACE=trace.rxt`
/// is recorded with no code change (see `TraceAutostart` and docs/trace-format.md).
public enum Trace {
    private static let scopeLock = Mutex<Void>(())

    /// Records everything `body` does and returns it as a trace document.
    ///
    /// Installs a `TraceRecorder` with `options`, runs `body`, uninstalls it and returns its
    /// snapshot (taken after `body`'s locals are gone, so what is alive in it outlives `body`).
    ///
    /// Scopes nest: when a `TraceRecorder` is installed already (an enclosing `record`, or
    /// `RXTRACE`), no new one is installed; the document is the enclosing recording's part from
    /// the start of `body` (nodes born in it, their edges, later steps, events and samples, with
    /// the enclosing recording's ids), and the enclosing recording keeps everything. `options`
    /// then does not apply. A tracer of another kind installed already is a programming error
    /// (precondition failure).
    public static func record(
        options: TraceRecorder.Options = TraceRecorder.Options(), _ body: () throws -> Void
    ) rethrows -> TraceDocument {
        if let installed = Tracing.tracer {
            guard let enclosing = installed as? TraceRecorder else {
                preconditionFailure(
                    "Trace.record: a tracer that is not a TraceRecorder (\(type(of: installed))) is installed; "
                        + "uninstall it first"
                )
            }
            return try enclosing.record(meta: ["scope": "nested"], body)
        }
        let recorder = TraceRecorder(options: options)
        scopeLock.withLock { _ in
            precondition(Tracing.tracer == nil, "Trace.record: another tracer was installed concurrently")
            Tracing.tracer = recorder
        }
        defer {
            scopeLock.withLock { _ in
                if Tracing.tracer === recorder { Tracing.tracer = nil }
            }
        }
        try body()
        return recorder.snapshot()
    }

    /// What `document` left alive, grouped by call site (see `TraceLeakReport`).
    public static func leaks(in document: TraceDocument) -> TraceLeakReport {
        TraceLeakReport(document)
    }

    /// Counts and headlines of `document` (see `TraceSummary`).
    public static func summary(of document: TraceDocument) -> TraceSummary {
        TraceSummary(document)
    }
}
