import ArgumentParser
import Foundation
import RxTrace

extension RxTraceCommand {
    /// `rxtrace convert TRACE --to json|v2|v3|perfetto [-o FILE]`
    struct Convert: ParsableCommand {
        /// What `convert` writes.
        enum Target: String, ExpressibleByArgument, CaseIterable {
            /// `rxtrace/1`: one JSON document, the documented form other tools read.
            case json
            /// `rxtrace/2`: JSON lines, strings interned.
            case v2
            /// `rxtrace/3`: binary records after a JSON header line.
            case v3
            /// A timeline in the JSON Trace Event Format, for Perfetto's UI and chrome://tracing.
            case perfetto
        }

        static let configuration = CommandConfiguration(
            abstract:
                "Write a trace in another format: rxtrace/1 JSON, rxtrace/2, rxtrace/3, or a timeline for Perfetto.",
            discussion: """
                Reads an rxtrace/1, rxtrace/2 or rxtrace/3 trace (a cut-short one too: the output's meta then \
                says "cut": "seq N") and writes it whole. Without -o it goes to stdout; with -o the \
                file is replaced whole or not at all.

                --to perfetto writes the JSON Trace Event Format that ui.perfetto.dev and \
                chrome://tracing open: a track per thread with every delivery on it, a span per \
                subscription (sink or observer), and an arrow for each element that crossed from one \
                thread to another. It streams: a large rxtrace/2 or rxtrace/3 trace converts in bounded memory.

                Examples:
                  rxtrace convert trace.rxt --to json -o trace.json
                  rxtrace convert trace.rxt --to v2 -o trace.jsonl
                  rxtrace convert trace.rxt --to perfetto -o run.json
                  rxtrace convert trace.rxt --to json | jq '.nodes | length'
                """
        )

        @Argument(help: "The trace file.")
        var trace: String

        @Option(help: "json (rxtrace/1), v2 (rxtrace/2), v3 (rxtrace/3) or perfetto (Trace Event Format timeline).")
        var to: Target

        @Option(name: .shortAndLong, help: "The output file (default: stdout).")
        var output: String?

        func run() throws {
            if to == .perfetto { return try convertToTimeline() }
            let document = try readTrace(trace)
            let data: Data
            switch to {
            case .json:
                do {
                    data = try document.jsonData()
                } catch {
                    throw CLIError.badInput("\(trace): cannot write as JSON: \(error.localizedDescription)")
                }
            case .v2:
                data = document.jsonLinesData()
            case .v3:
                data = document.binaryData()
            case .perfetto:
                return
            }
            if let output {
                try writeAtomically(data, to: output)
            } else {
                if to == .v3 && output == nil && isatty(STDOUT_FILENO) != 0 {
                    throw CLIError.badInput("rxtrace/3 is binary: write it to a file (-o FILE) or a pipe")
                }
                Console.out(data)
                if to == .json { Console.out("\n") }
            }
        }
    }
}
