import ArgumentParser
import Foundation
import RxTrace

extension RxTraceCommand {
    /// `rxtrace leaks TRACE [--nodes] [--by-test]`
    struct Leaks: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say what was left alive, by the roots that hold it. Exits 1 when there is any.",
            discussion: """
                A leaked node is a sink, observer, disposable or scheduled item still alive at the end of \
                the run, never disposed, whose subscription never completed or failed; observables and \
                subjects are not leaked nodes, and neither are sequences that completed synchronously. \
                The report starts from the roots: each object still alive at the end that holds leaked \
                nodes and that nothing in the trace holds (a DisposeBag its owner keeps, a subject user \
                code keeps, a subscription whose disposable was dropped), with its call site and what it \
                holds, counted by type and by call site. --nodes also lists every leaked node by the call \
                site that made it.

                --by-test reads the test marks a suite run under RXTRACE leaves (RxTesting's .noLeaks \
                trait, RxTest's XCTest observer) and says, for each test, what it made that was still \
                open when it ended, and whether that was still held at the end of the run or let go \
                later; then what leaked outside every test.

                A trace cut short (no end record: a crash, a kill) cannot tell a leak from a subscription \
                still running at the cut: what was open then is listed as such, and the exit status is 0.

                Examples:
                  rxtrace leaks trace.rxt || echo "something leaked"
                  rxtrace leaks trace.rxt --nodes
                  RXTRACE=tests.rxt swift test && rxtrace leaks tests.rxt --by-test
                """
        )

        @Argument(help: "The trace file.")
        var trace: String

        @Flag(help: "Also list every leaked node, by the call site that made it.")
        var nodes = false

        @Flag(name: .customLong("by-test"), help: "Say what each test left open when it ended (from the test marks).")
        var byTest = false

        func run() throws {
            let (graph, _, status) = try readTraceGraph(trace)
            if byTest { return try runByTest(graph, status: status) }
            let report = TraceLeakReport(graph)
            if status.cutShort {
                // What was open at the cut may have been about to finish: not called leaks.
                var text = Self.cutLine(status) + "\n"
                guard !report.isEmpty else {
                    Console.out(
                        text + "nothing was open at the cut: every subscription so far was disposed or terminated\n")
                    return
                }
                text +=
                    "\(plural(report.nodes.count, "node")) \(report.nodes.count == 1 ? "was" : "were") "
                    + "open at the cut, "
                    + "held by \(plural(report.roots.count, "root")) (not called leaks: the run stopped before "
                    + "they could finish):\n\n"
                text += Self.describe(report.roots, noun: "open node")
                text += nodes ? "\n" + Self.describe(report, verb: "open at the cut") : Self.nodesHint(trace)
                Console.out(text)
                return
            }
            guard !report.isEmpty else {
                Console.out("no leaks: every subscription in \(trace) was disposed or terminated\n")
                return
            }
            var text =
                "\(plural(report.nodes.count, "leaked node")) at \(plural(report.groups.count, "call site")), "
                + "held by \(plural(report.roots.count, "root")):\n\n"
            text += Self.describe(report.roots, noun: "leaked node")
            text += nodes ? "\n" + Self.describe(report, verb: "never disposed") : Self.nodesHint(trace)
            Console.out(text)
            throw ExitCode(CLIError.leaksStatus)
        }

        /// `--by-test`: each test's leftovers, then what leaked outside every test.
        func runByTest(_ graph: TraceDocument, status: TraceReadStatus) throws {
            let report = TraceTestReport(graph)
            var text = status.cutShort ? Self.cutLine(status) + "\n" : ""
            guard !report.tests.isEmpty else {
                throw CLIError.badInput(
                    "\(trace): no test marks (record the suite with RXTRACE and RxTesting's .noLeaks trait, "
                        + "or RxTest for XCTest)")
            }
            let left = report.testsWithLeftovers
            text +=
                "\(plural(report.tests.count, "test")): \(left) left subscriptions open when "
                + "\(left == 1 ? "it" : "they") "
                + "ended, \(report.testsWithoutLeftovers) left none\n"
            if report.testsOverlapped {
                text +=
                    "note: some tests ran at the same time; what each left is told by time, so theirs may be mixed "
                    + "(run them one at a time: swift test --no-parallel, @Suite(.serialized))\n"
            }
            for test in report.tests where !test.leftovers.isEmpty {
                let ending = test.ended == nil ? " (the run stopped during it)" : ""
                text +=
                    "\n\(test.name)\(ending): \(plural(test.leftovers.count, "node")) open when it ended, "
                    + "held by \(plural(test.roots.count, "root"))\n"
                text += Self.describe(test.roots, noun: "node", indent: "  ")
                if !test.stillHeld.isEmpty {
                    text += "  still held at the end of the run: \(test.stillHeld.count) of \(test.leftovers.count)\n"
                }
                if !test.releasedLater.isEmpty {
                    let last = test.releasedLater.map { Self.letGo($0) }.max() ?? 0
                    let during =
                        report.tests.last { $0.started < last && ($0.ended ?? .max) >= last }
                        .map { " (the last at seq \(last), during \($0.name))" }
                        ?? " (the last at seq \(last), outside any test)"
                    text +=
                        "  released after it ended: \(test.releasedLater.count) of \(test.leftovers.count)\(during)\n"
                }
                if !test.overlapping.isEmpty {
                    text += "  ran at the same time as: \(test.overlapping.prefix(5).joined(separator: ", "))"
                    text += test.overlapping.count > 5 ? " and \(test.overlapping.count - 5) more\n" : "\n"
                }
            }
            if !report.outside.isEmpty {
                text +=
                    "\nStill held at the end of the run, made outside any test: "
                    + "\(plural(report.outside.count, "node")), held by \(plural(report.outsideRoots.count, "root"))\n"
                text += Self.describe(report.outsideRoots, noun: "node", indent: "  ")
            }
            if report.tests.contains(where: { !$0.stillHeld.isEmpty }) {
                text +=
                    "\nStill held at the end of the run is not proof of a leak in the test: XCTest keeps every test "
                    + "case object, and what its properties hold, until the run ends; a global or a static keeps "
                    + "what it holds too.\n"
            }
            Console.out(text)
            if !status.cutShort && (left > 0 || !report.leaks.isEmpty) { throw ExitCode(CLIError.leaksStatus) }
        }

        /// When a node stopped being open: disposed, terminated or deinitialised, the earliest.
        static func letGo(_ node: TraceNode) -> UInt64 {
            [node.disposed, node.terminated, node.deinitialized].compactMap { $0 }.min() ?? 0
        }

        static func cutLine(_ status: TraceReadStatus) -> String {
            "trace cut short at seq \(status.lastSeq) (no end record: the program crashed, was killed, "
                + "or is still running)"
        }

        static func nodesHint(_ trace: String) -> String {
            "\n(rxtrace leaks --nodes \(trace) lists every node by the call site that made it)\n"
        }

        /// Most roots listed, and most types and call sites per root.
        static let rootLimit = 50
        static let typeLimit = 8
        static let siteLimit = 5

        /// One paragraph per root: what it is, why it is there, what it holds.
        static func describe(_ roots: [TraceLeakReport.Root], noun: String, indent: String = "") -> String {
            var text = ""
            for root in roots.prefix(rootLimit) {
                let node = root.node
                var head = "\(indent)\(node.type) #\(node.id) at \(node.callSite ?? "an unknown call site")"
                if !root.cycle.isEmpty {
                    head += " (with " + root.cycle.map { "\($0.type) #\($0.id)" }.joined(separator: ", ") + ")"
                }
                text += head + ": \(root.cause.explanation)\n"
                let types = root.types
                var holds = "\(indent)  holds \(plural(root.held.count, noun)): "
                holds += types.prefix(typeLimit).map { "\($0.type) \($0.count)" }.joined(separator: ", ")
                if types.count > typeLimit { holds += ", … (\(types.count - typeLimit) more types)" }
                text += holds + "\n"
                let sites = root.callSites
                var made = "\(indent)  made at: "
                made += sites.prefix(siteLimit).map { "\($0.callSite) (\($0.count))" }.joined(separator: ", ")
                if sites.count > siteLimit { made += ", … (\(sites.count - siteLimit) more call sites)" }
                text += made + "\n"
            }
            if roots.count > rootLimit { text += "\(indent)… and \(roots.count - rootLimit) more roots\n" }
            return text
        }

        /// One paragraph per call site, nodes by type.
        static func describe(_ report: TraceLeakReport, verb: String) -> String {
            var text = "Every node, by the call site that made it:\n"
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

/// `1 root`, `3 roots`.
func plural(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}
