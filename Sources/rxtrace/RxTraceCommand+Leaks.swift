import ArgumentParser
import Foundation
import RxTrace

extension RxTraceCommand {
    /// `rxtrace leaks TRACE`
    struct Leaks: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List what was left alive: never disposed, never terminated. Exits 1 when there is any.",
            discussion: """
                Reports every sink, observer, disposable and scheduled item still alive at the end of \
                the run that was never disposed and whose subscription never completed or failed, \
                grouped by the call site that made it. Observables and subjects are not reported, \
                and neither are sequences that completed synchronously.

                Example:
                  rxtrace leaks trace.json || echo "something leaked"
                """
        )

        @Argument(help: "The trace file.")
        var trace: String

        func run() throws {
            let document = try readTrace(trace)
            let report = TraceLeakReport(document)
            guard !report.isEmpty else {
                Console.out("no leaks: every subscription in \(trace) was disposed or terminated\n")
                return
            }
            var text =
                "\(report.nodes.count) leaked node\(report.nodes.count == 1 ? "" : "s") at \(report.groups.count) call site\(report.groups.count == 1 ? "" : "s"):\n"
            for group in report.groups {
                text += "\(group.callSite): \(group.nodes.count) never disposed\n"
                var order: [String] = []
                var byType: [String: [TraceNode]] = [:]
                for node in group.nodes {
                    if byType[node.type] == nil { order.append(node.type) }
                    byType[node.type, default: []].append(node)
                }
                for type in order {
                    let nodes = byType[type]!
                    let ids = nodes.prefix(8).map { "#\($0.id)" }.joined(separator: " ") + (nodes.count > 8 ? " …" : "")
                    text += "  \(type) (\(nodes[0].kind.rawValue))\(nodes.count > 1 ? " ×\(nodes.count)" : "") \(ids)\n"
                }
            }
            Console.out(text)
            throw ExitCode(CLIError.leaksStatus)
        }
    }
}
