import ArgumentParser
import Foundation
import RxGraphviz
import RxTrace

extension RxTraceCommand {
    /// `rxtrace report TRACE [-o report.html] [--expand] [--lang en|zh]`
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write one self-contained HTML page that replays the trace call by call.",
            discussion: """
                The page needs nothing else (no network, no other file; it opens from file:// in any \
                current browser): the subscription graph with pan and zoom; a replay of every call \
                (slider, play, step back and forward, the arrow keys) that highlights the caller, the \
                callee and the edge between them, fades nodes not born yet and greys disposed ones; \
                a panel for the node you click (type, kind, call site, lifetime, relations, events, \
                its marble lane); marbles of the current subscription; live objects over the run; an \
                events table with a filter; and the leaks and anomalies at the top, linked to their \
                nodes. Repeated inner subscriptions are one ×N node unless --expand is given. \
                Without -o the page goes to stdout. The page is in Chinese with --lang zh, or \
                without --lang where the locale is Chinese (LC_ALL, LC_MESSAGES or LANG starting \
                with zh); in English otherwise.

                Examples:
                  rxtrace report trace.rxt -o report.html
                  rxtrace report trace.rxt --expand -o everything.html
                  rxtrace report trace.rxt --lang zh -o report.zh.html
                """
        )

        @Argument(help: "The trace file (JSON written with RXTRACE=FILE).")
        var trace: String

        @Option(name: .shortAndLong, help: "The page to write (default: stdout).")
        var output: String?

        @Flag(help: "Draw every repeated inner subscription instead of one ×N node.")
        var expand = false

        @OptionGroup var language: ReportLanguageOption

        func run() throws {
            let strings = try language.language().strings
            let document = try readTrace(trace)
            noteIfCut(document, trace)
            let model = ReportModel(document, options: RenderOptions(expand: expand), words: strings)
            if let note = model.graphNote { Console.error("rxtrace: note: the report has no graph: \(note)") }
            let page = try ReportPage.html(model)
            if let output {
                try writeAtomically(page, to: output)
            } else {
                Console.out(page)
            }
        }
    }
}
