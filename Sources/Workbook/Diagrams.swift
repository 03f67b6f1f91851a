import Foundation
import RxCore
import RxTrace

/// The diagrams of a chapter's main examples.
///
/// `chapterNN --diagrams DIR` writes, for each `example(…, draw: true)`, the example's trace
/// (`DIR/<example>.trace.json`, format `rxtrace/2`) and its views: `graph`, `flow` and `marbles`.
/// `RXTRACE=FILE chapterNN` writes the trace of the whole run to `FILE` when it exits (the
/// core's `TraceAutostart` does it; the examples' own recordings are read out of that one).
public enum Diagrams {
    /// The views written for each main example.
    public static let views = ["graph", "flow", "marbles"]

    /// Where `--diagrams` writes, when it was given.
    public private(set) static var directory: URL?

    /// Turns a trace into one view file: SVG through RxGraphviz by default
    /// (`DiagramOutput.render`); `DiagramOutput.write` writes text only.
    nonisolated(unsafe) public static var renderer: (TraceDocument, _ view: String, _ base: URL) throws -> URL? =
        DiagramOutput.render

    /// True when the main examples are to be drawn.
    public static var isEnabled: Bool { directory != nil }

    static func configure(arguments: [String]) {
        if let index = arguments.firstIndex(of: "--diagrams") {
            guard index + 1 < arguments.count else {
                FileHandle.standardError.write(Data("error: --diagrams needs a directory\n".utf8))
                exit(2)
            }
            let url = URL(fileURLWithPath: arguments[index + 1], isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                FileHandle.standardError.write(
                    Data("error: cannot create \(url.path): \(error.localizedDescription)\n".utf8))
                exit(2)
            }
            directory = url
        }
    }

    /// Records `body` on its own and writes its trace and views under `directory`.
    static func record(_ name: String, _ body: () -> Void) {
        guard let directory else { return body() }
        let document = trace(meta: ["example": name], body)
        let base = directory.appendingPathComponent(slug(name))
        // A second run replaces the files of the first; views this run does not draw (a view
        // that did not fit) must not survive from an earlier run, so all are removed first.
        for suffix in ["trace.json", "graph.svg", "flow.svg", "flow.txt", "marbles.svg", "graph.dot", "marbles.txt"] {
            try? FileManager.default.removeItem(at: base.appendingPathExtension(suffix))
        }
        do {
            try document.write(to: base.appendingPathExtension("trace.json"))
            for view in views {
                _ = try renderer(document, view, base)
            }
        } catch {
            FileHandle.standardError.write(Data("error: diagrams of \(name): \(error.localizedDescription)\n".utf8))
        }
    }

    /// `combineLatest 1` → `combinelatest-1`.
    public static func slug(_ name: String) -> String {
        var out = ""
        for ch in name.lowercased() {
            if ch.isLetter || ch.isNumber, ch.isASCII { out.append(ch) } else if !out.hasSuffix("-") { out.append("-") }
        }
        while out.hasSuffix("-") { out.removeLast() }
        while out.hasPrefix("-") { out.removeFirst() }
        return out.isEmpty ? "example" : out
    }
}

extension Diagrams {
    /// Records what `body` does and returns the trace, whatever the command line said: for
    /// chapters that print the recorded calls as part of the lesson.
    ///
    /// Under `RXTRACE` (the core's recorder runs for the whole program) the example's part of
    /// that recording is read back with `record(meta:_:)`, so the whole-run trace keeps it too.
    public static func trace(meta: [String: String] = [:], _ body: () -> Void) -> TraceDocument {
        if let running = Tracing.tracer as? TraceRecorder {
            return running.record(meta: meta, body)
        }
        let outer = Tracing.tracer
        let recorder = TraceRecorder()
        Tracing.tracer = recorder
        body()
        Tracing.tracer = outer
        return recorder.snapshot(meta: meta)
    }
}

extension Diagrams {
    /// What `trace` left alive, per call site, as RxTrace's leak report groups it: each call
    /// site with the types of the nodes made there that were never disposed nor terminated.
    /// Node ids are left out so the lines read the same in any recording.
    public static func leaks(in trace: TraceDocument) -> [(callSite: String, types: [String])] {
        Trace.leaks(in: trace).groups.map { group in
            (group.callSite, group.nodes.map(\.type))
        }
    }
}
