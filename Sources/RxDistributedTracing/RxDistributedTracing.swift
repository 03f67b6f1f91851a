@_exported import RxCore
import Synchronization
import Tracing

/// Subscriptions as spans of swift-distributed-tracing, and the request's `ServiceContext`
/// carried to every delivery (docs/distributed-tracing.md). RxAnatomy's addition: RxSwift has
/// no such module.
///
/// ```swift
/// InstrumentationSystem.bootstrap(otelTracer)   // swift-otel, or any Tracer
/// RxDistributedTracing.install()                // before the app makes its observables
/// ```
public enum RxDistributedTracing {
    private static let installed = Mutex<RxSpanTracer?>(nil)

    /// Installs an `RxSpanTracer` as the core's tracer, starting spans with `tracer` (nil, the
    /// default: `InstrumentationSystem.tracer`, looked up at each `subscribe`). Observables,
    /// subjects and observers made from now on are traced; make them after installing.
    ///
    /// `RXTRACE` recordings go on: the environment is read first, and a tracer installed
    /// already (its recorder) is wrapped, seeing every call as before. Installing again replaces
    /// the previous span tracer (ending its open spans).
    @discardableResult
    public static func install(tracer: (any Tracer)? = nil) -> RxSpanTracer {
        TraceAutostart.checkEnvironment()
        return installed.withLock { installed in
            var underneath = RxCore.Tracing.tracer
            if let previous = installed, underneath === previous {
                underneath = previous.wrapped
                previous.endAll()
            }
            let spans = RxSpanTracer(tracer: tracer, wrapping: underneath)
            RxCore.Tracing.tracer = spans
            installed = spans
            return spans
        }
    }

    /// Uninstalls the span tracer: its open spans end (`rx.end` = `uninstalled`) and the tracer it
    /// wrapped, if any, is installed again. Nothing happens when another tracer has replaced it.
    public static func uninstall() {
        installed.withLock { installed in
            guard let spans = installed else { return }
            installed = nil
            if RxCore.Tracing.tracer === spans { RxCore.Tracing.tracer = spans.wrapped }
            spans.endAll()
        }
    }

    /// The span tracer installed by `install`, while it is the core's tracer.
    public static var current: RxSpanTracer? {
        installed.withLock { installed in installed.flatMap { RxCore.Tracing.tracer === $0 ? $0 : nil } }
    }
}
