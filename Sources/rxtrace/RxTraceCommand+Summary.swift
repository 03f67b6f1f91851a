import ArgumentParser
import Foundation
import RxTrace

extension RxTraceCommand {
    /// `rxtrace summary TRACE`
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Counts by kind and type, subscriptions, events, dropped entries and anomalies.",
            discussion: """
                Example:
                  rxtrace summary trace.rxt
                """
        )

        @Argument(help: "The trace file.")
        var trace: String

        func run() throws {
            let (graph, counts, status) = try readTraceGraph(trace)
            var text = "trace \(trace) (\(status.format))\n"
            for key in graph.meta.keys.sorted() { text += "  \(key): \(graph.meta[key]!)\n" }

            // One structure, whose leak report the summary shares (a large trace is analysed once).
            let structure = TraceStructure(graph)
            let summary = TraceSummary(graph: graph, counts: counts, leaks: structure.leaks)
            text += summary.description + "\n"
            text += "types:\n"
            for (type, count) in summary.nodesByType.sorted(by: {
                $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
            }) {
                text += "  \(type): \(count)\n"
            }
            var steps = "steps by call:"
            for call in TraceCall.allCases {
                let count = summary.stepsByCall[call] ?? 0
                if count > 0 { steps += " \(call.rawValue) \(count)," }
            }
            text += steps.hasSuffix(",") ? String(steps.dropLast()) + "\n" : steps + " none\n"
            // Only the listed ones are made (each holds a copy of its root node).
            let subscriptionCount = structure.subscriptions.count
            text += "subscriptions: \(subscriptionCount)\n"
            for info in Trace.subscriptions(of: structure, limit: 20) {
                text +=
                    "  \(info.number): \(info.root.type) #\(info.root.id)"
                    + "\(info.root.callSite.map { " at \($0)" } ?? ""), \(info.nodeCount) nodes"
                text += info.innerCount > 0 ? ", \(info.innerCount) inner\n" : "\n"
            }
            if subscriptionCount > 20 { text += "  … \(subscriptionCount - 20) more\n" }

            if !summary.leaks.isEmpty {
                let what = summary.cutAt == nil ? "the leaked nodes" : "what was open at the cut"
                text += "(see rxtrace leaks \(trace) for \(what) by call site)\n"
            }
            Console.out(text)
        }
    }
}
