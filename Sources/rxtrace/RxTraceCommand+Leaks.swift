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
                and neither are sequences that completed synchronously. A trace cut short (no end \
                record: a crash, a kill) cannot tell a leak from a subscription still running at the \
                cut: what was open then is listed as such, and the exit status is 0.

                Example:
                  rxtrace leaks trace.json || echo "something leaked"
                """
        )

        @Argument(help: "The trace file.")
        var trace: String

        func run() throws {
            let (graph, _, status) = try readTraceGraph(trace)
            let report = TraceLeakReport(graph)
            if status.cutShort {
                // What was open at the cut may have been about to finish: not called leaks.
                var text =
                    "trace cut short at seq \(status.lastSeq) (no end record: the program crashed, was killed, or is still running)\n"
                guard !report.isEmpty else {
                    Console.out(
                        text + "nothing was open at the cut: every subscription so far was disposed or terminated\n")
                    return
                }
                text +=
                    "\(report.nodes.count) node\(report.nodes.count == 1 ? " was" : "s were") open at the cut, at \(report.groups.count) call site\(report.groups.count == 1 ? "" : "s") (not called leaks: the run stopped before they could finish):\n"
                text += describe(report, verb: "open at the cut")
                Console.out(text)
                return
            }
            guard !report.isEmpty else {
                Console.out("no leaks: every subscription in \(trace) was disposed or terminated\n")
                return
            }
            var text =
                "\(report.nodes.count) leaked node\(report.nodes.count == 1 ? "" : "s") at \(report.groups.count) call site\(report.groups.count == 1 ? "" : "s"):\n"
            text += describe(report, verb: "never disposed")
            Console.out(text)
            throw ExitCode(CLIError.leaksStatus)
        }

        /// One paragraph per call site, nodes by type.
        func describe(_ report: TraceLeakReport, verb: String) -> String {
            var text = ""
            for group in report.groups {
                text += "\(group.callSite): \(group.nodes.count) \(verb)\n"
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
            return text
        }
    }
}
