import ArgumentParser
import Foundation
import RxGraphviz
import RxTrace

extension RxTraceCommand {
    /// `rxtrace summary TRACE`
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Counts by kind and type, subscriptions, events, dropped entries and anomalies.",
            discussion: """
                Example:
                  rxtrace summary trace.json
                """
        )

        @Argument(help: "The trace file.")
        var trace: String

        func run() throws {
            let document = try readTrace(trace)
            var text = "trace \(trace) (\(document.format))\n"
            for key in document.meta.keys.sorted() { text += "  \(key): \(document.meta[key]!)\n" }

            text += "nodes: \(document.nodes.count)\n"
            for kind in TraceNodeKind.allCases {
                let count = document.nodes.filter { $0.kind == kind }.count
                if count > 0 { text += "  \(kind.rawValue): \(count)\n" }
            }
            var byType: [String: Int] = [:]
            for node in document.nodes { byType[node.type, default: 0] += 1 }
            text += "types:\n"
            for (type, count) in byType.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                text += "  \(type): \(count)\n"
            }
            text += "edges: \(document.edges.count)"
            text += counts(TraceRelation.allCases.map { relation in (relation.rawValue, document.edges.filter { $0.relation == relation }.count) })
            text += "steps: \(document.steps.count)"
            text += counts(TraceCall.allCases.map { call in (call.rawValue, document.steps.filter { $0.call == call }.count) })
            text += "events: \(document.events.count)"
            text += counts(TraceEventKind.allCases.map { kind in (kind.rawValue, document.events.filter { $0.kind == kind }.count) })
            text += "resource samples: \(document.resources.count)\n"
            let dropped = document.dropped
            text += "dropped: \(dropped.steps) steps, \(dropped.events) events, \(dropped.resources) resource samples\n"

            let subscriptions = TraceRenderer.subscriptions(in: document)
            text += "subscriptions: \(subscriptions.count)\n"
            for info in subscriptions.prefix(20) {
                text += "  \(info.number): \(info.root.type) #\(info.root.id)\(info.root.callSite.map { " at \($0)" } ?? ""), \(info.nodeCount) nodes"
                text += info.innerCount > 0 ? ", \(info.innerCount) inner\n" : "\n"
            }
            if subscriptions.count > 20 { text += "  … \(subscriptions.count - 20) more\n" }

            let anomalies = document.nodes.flatMap { node in node.anomalies.map { (node, $0) } }
            text += "anomalies: \(anomalies.count)\n"
            for (node, anomaly) in anomalies.prefix(20) {
                text += "  \(anomaly.kind.rawValue) on \(node.type) #\(node.id)\(node.callSite.map { " at \($0)" } ?? "") (step \(anomaly.seq)): \(anomaly.detail)\n"
            }
            if anomalies.count > 20 { text += "  … \(anomalies.count - 20) more\n" }

            let leaks = TraceLeakReport(document)
            text += "leaked: \(leaks.nodes.count) nodes at \(leaks.groups.count) call sites\(leaks.isEmpty ? "" : " (see rxtrace leaks)")\n"
            Console.out(text)
        }

        private func counts(_ pairs: [(String, Int)]) -> String {
            let shown = pairs.filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }
            return shown.isEmpty ? "\n" : " (" + shown.joined(separator: ", ") + ")\n"
        }
    }
}
