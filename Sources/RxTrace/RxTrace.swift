/// RxTrace: reading, checking and analysing traces, and recording scopes.
///
/// The recorder itself (`TraceRecorder`, the `RXTRACE` autostart) lives in RxCore, so that any
/// program linking the core can be recorded with no code change
/// (`RXTRACE=trace.rxt swift run MyApp`). This module re-exports RxCore and adds
/// `Trace.record { … }`, `TraceDocument.read(from:)` with one-line errors, and the analyses
/// `Trace.leaks(in:)` and `Trace.summary(of:)`. See docs/trace-format.md.
@_exported import RxCore
