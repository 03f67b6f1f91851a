import RxCore
import RxTesting
import RxTrace

/// The properties every pipeline must keep, checked on one run of a case.
enum Properties {
    /// Runs `pipeline` (under a trace recorder when `traced`, and then once more untraced, which
    /// must give the same output) and returns what it broke, one line each; empty when it kept
    /// every property.
    static func violations(
        of pipeline: PipelineCase, traced: Bool, run: (PipelineCase) -> Outcome = PipelineRun.run
    ) -> [String] {
        let before = Resources.snapshot()
        let totalBefore = Resources.total
        var outcome: Outcome?
        var document: TraceDocument?
        if traced {
            document = Trace.record { outcome = run(pipeline) }
        } else {
            outcome = run(pipeline)
        }
        guard let outcome else { return ["the pipeline did not run"] }
        var found = grammar(outcome.events) + afterDisposal(outcome.events, at: pipeline.disposeAt)
        found += openSubscriptions(outcome)
        if let expected = Model.expected(pipeline) {
            let actual = outcome.events.map(Model.Timed.init)
            if actual != expected { found.append("the model expected \(expected), got \(actual)") }
        }
        let grown = Resources.snapshot().grown(since: before).filter { $0.value > 0 }
        if !grown.isEmpty { found.append("leaked: \(LeakCheck.describe(grown))") }
        if Resources.total != totalBefore {
            found.append("Resources.total went from \(totalBefore) to \(Resources.total)")
        }
        if let document {
            found += traceViolations(document)
            found += sameOutput(traced: outcome, untraced: run(pipeline))
        }
        return found
    }

    /// Tracing changes nothing a program does: the traced run's events and subscriptions are
    /// the untraced run's, one for one.
    static func sameOutput(traced: Outcome, untraced: Outcome) -> [String] {
        var found: [String] = []
        if "\(traced.events)" != "\(untraced.events)" {
            found.append("traced, the observer got \(traced.events); untraced \(untraced.events)")
        }
        let tracedSubscriptions = traced.subscriptions.map { "\($0.name): \($0.subscriptions)" }
        let untracedSubscriptions = untraced.subscriptions.map { "\($0.name): \($0.subscriptions)" }
        if tracedSubscriptions != untracedSubscriptions {
            found.append("traced, the subscriptions were \(tracedSubscriptions); untraced \(untracedSubscriptions)")
        }
        return found
    }

    /// `next* (error | completed)?`.
    static func grammar(_ events: [Recorded<Event<Int>>]) -> [String] {
        guard let stop = events.firstIndex(where: { $0.value.isStopEvent }), stop < events.count - 1 else { return [] }
        return ["\(events[stop + 1]) after the terminal \(events[stop])"]
    }

    /// Nothing reaches the observer at or after the disposal time.
    static func afterDisposal(_ events: [Recorded<Event<Int>>], at disposeAt: Int) -> [String] {
        events.filter { $0.time >= disposeAt }.map { "\($0) after disposal at \(disposeAt)" }
    }

    /// Every subscription to a testable observable was closed by the end.
    static func openSubscriptions(_ outcome: Outcome) -> [String] {
        outcome.subscriptions.flatMap { name, subscriptions in
            subscriptions.filter { $0.unsubscribe == Int.max }.map {
                "\(name): subscription at \($0.subscribe) never closed"
            }
        }
    }

    /// With tracing on: no anomaly was recorded, and no node of the graph is alive at the end.
    static func traceViolations(_ document: TraceDocument) -> [String] {
        var found = document.nodes.flatMap { node in
            node.anomalies.map { "trace anomaly \($0.kind) on \(node.type) #\(node.id): \($0.detail)" }
        }
        let alive = document.nodes.filter { $0.deinitialized == nil }
        if !alive.isEmpty {
            let types = alive.map { "\($0.type) #\($0.id)" }.joined(separator: ", ")
            found.append("trace: \(alive.count) nodes alive at the end: \(types)")
        }
        return found
    }
}
