import Foundation
import RxTrace
import Testing

/// `call from→to detail` for each step, the way the documents list step1…step9.
func stepLines(_ document: TraceDocument) -> [String] {
    document.steps.map { step in
        "\(step.call.rawValue) \(step.from)→\(step.to)" + (step.detail.map { " \($0)" } ?? "")
    }
}

/// `id kind type callSite` for each node.
func nodeLines(_ document: TraceDocument) -> [String] {
    document.nodes.map { "\($0.id) \($0.kind.rawValue) \($0.type) \($0.callSite ?? "-")" }
}

/// `from -relation-> to` for each edge, sorted.
func edgeLines(_ document: TraceDocument) -> Set<String> {
    Set(document.edges.map { "\($0.from) -\($0.relation.rawValue)-> \($0.to)" })
}

/// `node kind(value)` for each event.
func eventLines(_ document: TraceDocument) -> [String] {
    document.events.map { "\($0.node) \(TraceEventKind.describe($0.kind, $0.value))" }
}

/// Runs `body` and checks that it left every core object it made deallocated, and no tracer
/// installed.
func checkingNoLeaks<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) rethrows -> T {
    let before = Resources.snapshot()
    let result = try body()
    let grown = Resources.snapshot().grown(since: before)
    #expect(grown.isEmpty, "leaked: \(grown)", sourceLocation: sourceLocation)
    #expect(Tracing.tracer == nil, "a tracer is still installed", sourceLocation: sourceLocation)
    return result
}

extension TraceNode {
    /// The node without when it was born and changed: the same run recorded twice differs only
    /// there.
    var withoutTimes: TraceNode {
        var node = self
        node.createdAt = nil
        node.disposedAt = nil
        node.deinitializedAt = nil
        node.terminatedAt = nil
        return node
    }
}
