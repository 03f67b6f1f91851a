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
                  rxtrace summary trace.json
                """
        )

        @Argument(help: "The trace file.")
        var trace: String

        func run() throws {
            let document = try readTrace(trace)
            var text = "trace \(trace) (\(document.format))\n"
            for key in document.meta.keys.sorted() { text += "  \(key): \(document.meta[key]!)\n" }

            text += TraceSummary(document).description + "\n"
            var byType: [String: Int] = [:]
            for node in document.nodes { byType[node.type, default: 0] += 1 }
            text += "types:\n"
            for (type, count) in byType.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                text += "  \(type): \(count)\n"
            }
            var steps = "steps by call:"
            for call in TraceCall.allCases {
                let count = document.steps.filter { $0.call == call }.count
                if count > 0 { steps += " \(call.rawValue) \(count)," }
            }
            text += steps.hasSuffix(",") ? String(steps.dropLast()) + "\n" : steps + " none\n"
            let subscriptions = Trace.subscriptions(in: document)
            text += "subscriptions: \(subscriptions.count)\n"
            for info in subscriptions.prefix(20) {
                text +=
                    "  \(info.number): \(info.root.type) #\(info.root.id)\(info.root.callSite.map { " at \($0)" } ?? ""), \(info.nodeCount) nodes"
                text += info.innerCount > 0 ? ", \(info.innerCount) inner\n" : "\n"
            }
            if subscriptions.count > 20 { text += "  … \(subscriptions.count - 20) more\n" }

            let leaks = TraceLeakReport(document)
            if !leaks.isEmpty { text += "(see rxtrace leaks \(trace) for the leaked nodes by call site)\n" }
            Console.out(text)
        }
    }
}
