import CGraphviz
import Foundation
import Synchronization

/// The one place that touches Graphviz's C API: DOT text in, rendered bytes out.
///
/// Graphviz keeps global state (the DOT parser, the error buffer, plugin tables), so every call
/// goes through one lock around one shared context.
enum GraphvizC {
    /// A `GVC_t *` that is only ever used under `lock`.
    private struct Context: @unchecked Sendable {
        let gvc: OpaquePointer?
    }

    private static let lock = Mutex<Context?>(nil)

    /// Lays out `dot` with the `dot` engine and renders it with Graphviz's `format`
    /// (`svg`, `png`, `pdf`).
    static func render(dot: String, format: String) throws(RenderError) -> Data {
        let result: Result<Data, RenderError> = lock.withLock { context in
            if context == nil {
                // Errors are collected for aglasterr(), not printed on our stderr.
                _ = agseterr(AGMAX)
                context = Context(gvc: gvContext())
            }
            guard let gvc = context?.gvc else { return .failure(.graphviz("cannot create a Graphviz context")) }
            _ = agreseterrors()
            guard let graph = dot.withCString({ agmemread($0) }) else {
                return .failure(.graphviz("Graphviz could not parse the graph: \(lastError() ?? "syntax error")"))
            }
            defer { _ = agclose(graph) }
            guard gvLayout(gvc, graph, "dot") == 0 else {
                return .failure(.graphviz("Graphviz layout failed: \(lastError() ?? "unknown error")"))
            }
            defer { _ = gvFreeLayout(gvc, graph) }
            var bytes: UnsafeMutablePointer<CChar>? = nil
            var length: UInt32 = 0
            guard gvRenderData(gvc, graph, format, &bytes, &length) == 0, let bytes else {
                return .failure(.graphviz("Graphviz could not render \(format): \(lastError() ?? "no renderer for this format")"))
            }
            defer { gvFreeRenderData(bytes) }
            return .success(Data(bytes: bytes, count: Int(length)))
        }
        return try result.get()
    }

    /// The last error Graphviz collected (a malloc'd copy we own), first line only.
    private static func lastError() -> String? {
        guard let text = aglasterr() else { return nil }
        defer { free(text) }
        let message = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? nil : message.split(separator: "\n").first.map(String.init)
    }
}
