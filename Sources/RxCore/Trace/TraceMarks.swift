extension RxTracer {
    /// A tracer that keeps no marks ignores them (the built-in recorder keeps every one).
    public func mark(_ kind: TraceMarkKind, name: String) {}
}

extension Tracing {
    /// Marks a point of the run in the trace being recorded, if one is: a test starting or
    /// ending. RxTesting's `.noLeaks` trait and RxTest's test observer mark every test, so that
    /// `rxtrace leaks --by-test` can say what each one left behind. (RxSwift has no trace, so
    /// no marks: this is RxCore's.)
    ///
    /// ```swift
    /// Tracing.mark(.testStarted, "LeakTests/leavesABag()")
    /// // … the test …
    /// Tracing.mark(.testEnded, "LeakTests/leavesABag()")
    /// ```
    public static func mark(_ kind: TraceMarkKind, _ name: String) {
        #if !RX_NO_TRACE
        TraceAutostart.check() // `RXTRACE`: a test may mark its start before it makes an Rx object
        #endif
        active?.mark(kind, name: name)
    }
}
