import CGraphviz
import Foundation
import Synchronization

/// The one place that touches Graphviz's C API: DOT text in, rendered bytes out.
///
/// Graphviz keeps global state (the DOT parser, the error buffer, plugin tables), so every call
/// goes through one lock around one shared context.
enum GraphvizC {
    /// Why Graphviz gave no picture; only a failed layout is worth another try with simpler settings.
    enum Failure: Error, Equatable {
        /// The DOT text did not parse.
        case parse(String)
        /// `gvLayout` failed or reported an error while laying out (the layout is not trusted).
        case layout(String)
        /// No renderer for the format, or the renderer failed.
        case render(String)

        var message: String {
            switch self {
            case .parse(let message), .layout(let message), .render(let message): return message
            }
        }
    }

    /// A `GVC_t *` that is only ever used under `lock`.
    private struct Context: @unchecked Sendable {
        let gvc: OpaquePointer?
    }

    private static let lock = Mutex<Context?>(nil)

    /// Lays out `dot` with the `dot` engine and renders it with Graphviz's `format`
    /// (`svg`, `png`, `pdf`).
    ///
    /// A layout that reports an error (`agerr` at level `AGERR`, e.g. "lost a b edge" or
    /// "Pshortestpath failed" after "triangulation failed") is a `.layout` failure: its half-made
    /// data is not rendered and not handed to `gvFreeLayout` — `dot_cleanup` is where Graphviz
    /// 2.42 double-frees on inconsistent layouts — so it is leaked on purpose (a few kilobytes, on
    /// an error path only).
    static func render(dot: String, format: String) -> Result<Data, Failure> {
        lock.withLock { context in
            if context == nil {
                // Errors are collected for aglasterr(), not printed on our stderr.
                _ = agseterr(AGMAX)
                context = Context(gvc: gvContext())
            }
            guard let gvc = context?.gvc else { return .failure(.layout("cannot create a Graphviz context")) }
            _ = agreseterrors()
            guard let graph = dot.withCString({ agmemread($0) }) else {
                return .failure(.parse("Graphviz could not parse the graph: \(lastError() ?? "syntax error")"))
            }
            defer { _ = agclose(graph) }
            _ = agreseterrors()
            let laidOut = gvLayout(gvc, graph, "dot") == 0
            // The highest level reported since the reset: AGWARN (0) or AGERR (1).
            let level = agreseterrors()
            guard laidOut, level < Int32(AGERR.rawValue) else {
                return .failure(.layout("Graphviz layout failed: \(lastError() ?? "unknown error")"))
            }
            defer { _ = gvFreeLayout(gvc, graph) }
            var bytes: UnsafeMutablePointer<CChar>? = nil
            var length: UInt32 = 0
            guard gvRenderData(gvc, graph, format, &bytes, &length) == 0, let bytes else {
                return .failure(
                    .render("Graphviz could not render \(format): \(lastError() ?? "no renderer for this format")"))
            }
            defer { gvFreeRenderData(bytes) }
            return .success(Data(bytes: bytes, count: Int(length)))
        }
    }

    /// The last error Graphviz collected (a malloc'd copy we own), first line only.
    private static func lastError() -> String? {
        guard let text = aglasterr() else { return nil }
        defer { free(text) }
        let message = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? nil : message.split(separator: "\n").first.map(String.init)
    }
}
