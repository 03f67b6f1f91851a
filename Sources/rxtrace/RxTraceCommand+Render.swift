import ArgumentParser
import Foundation
import RxGraphviz
import RxTrace

extension RxTraceCommand {
    /// `rxtrace render TRACE [--view …] [--format …] [-o FILE]`
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw one view of a trace as SVG, PNG, PDF or DOT.",
            discussion: """
                Views: graph (the subscription graph), flow (the numbered calls of one subscription), \
                marbles (events per node over time), resources (live counts over the steps).
                The format comes from --format, else from the extension of -o, else svg. \
                Without -o, svg and dot go to stdout; png and pdf need -o.

                Examples:
                  rxtrace render trace.rxt -o graph.svg
                  rxtrace render trace.rxt --view flow --subscription 2 --format dot
                  rxtrace render trace.rxt --view marbles --filter-type Map -o marbles.png
                """
        )

        @Argument(help: "The trace file (JSON written with RXTRACE=FILE).")
        var trace: String

        @Option(help: "graph, flow, marbles or resources.")
        var view: RenderView = .graph

        @Option(help: "svg, png, pdf or dot (default: from -o's extension, else svg).")
        var format: RenderFormat?

        @Option(name: .shortAndLong, help: "The output file (default: stdout, for svg and dot).")
        var output: String?

        @Flag(help: "Draw every repeated inner subscription instead of one ×N node.")
        var expand = false

        @Option(help: "Keep only nodes whose type contains this text.")
        var filterType: String?

        @Option(help: "Keep only nodes whose call site contains this text (e.g. main.swift:12).")
        var filterSite: String?

        @Option(help: "Any node id of the subscription to draw (flow, marbles). Default: the first subscription.")
        var subscription: UInt64?

        func resolvedFormat() throws -> RenderFormat {
            if let format { return format }
            guard let output else { return .svg }
            let ext = URL(fileURLWithPath: output).pathExtension
            guard let format = RenderFormat(pathExtension: ext) else {
                throw CLIError.badInput("cannot tell the format from \"\(output)\"; use --format svg|png|pdf|dot")
            }
            return format
        }

        func run() throws {
            let format = try resolvedFormat()
            if output == nil && (format == .png || format == .pdf) {
                throw CLIError.badInput("\(format.rawValue) is binary: give an output file with -o FILE")
            }
            // The graph view needs no steps but `subscribe` and no events: stream the file.
            let document = view == .graph ? try readTraceGraph(trace).graph : try readTrace(trace)
            noteIfCut(document, trace)
            let options = RenderOptions(
                expand: expand, filterType: filterType, filterSite: filterSite, subscription: subscription)
            let data: Data
            do {
                data = try TraceRenderer.render(document, view: view, format: format, options: options)
            } catch {
                throw CLIError(error)
            }
            if let output {
                try writeAtomically(data, to: output)
            } else {
                Console.out(data)
            }
        }
    }
}
