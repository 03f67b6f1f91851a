import Foundation
import RxGraphviz

/// The page `rxtrace report` writes: `Report/report.html` with its style (`report.css`), its
/// script (`report.js`), the laid-out graph and the trace's data put in. The three files are
/// embedded in the binary when it is built (SwiftPM's `embedInCode`), so `rxtrace` needs no
/// file beside it and the page needs nothing from the network.
enum ReportPage {
    /// The page for `model`.
    static func html(_ model: ReportModel) throws(CLIError) -> Data {
        let data: Data
        do {
            data = try model.json()
        } catch {
            throw CLIError.rendering("cannot encode the report's data: \(error)")
        }
        let graph =
            model.svg ?? "<p class=\"note\">No graph: \(escape(model.graphNote ?? "it could not be drawn")).</p>"
        let values: [String: Data] = [
            "title": Data(escape(model.title).utf8),
            "style": Data(PackageResources.report_css),
            "script": Data(PackageResources.report_js),
            "graph": Data(graph.utf8),
            "data": data,
        ]
        return fill(PackageResources.report_html, values)
    }

    /// Replaces each `<!--rxtrace:NAME-->` of `template` with `values[NAME]`, in one pass: what
    /// is put in is never searched again.
    static func fill(_ template: [UInt8], _ values: [String: Data]) -> Data {
        let open = Array("<!--rxtrace:".utf8)
        let close = Array("-->".utf8)
        var out = Data(capacity: template.count + values.values.reduce(0) { $0 + $1.count })
        var index = 0
        var copied = 0
        while index + open.count <= template.count {
            guard template[index..<index + open.count].elementsEqual(open) else {
                index += 1
                continue
            }
            var end = index + open.count
            while end + close.count <= template.count && !template[end..<end + close.count].elementsEqual(close) {
                end += 1
            }
            let name = String(decoding: template[(index + open.count)..<end], as: UTF8.self)
            guard let value = values[name] else {
                index += 1
                continue
            }
            out.append(contentsOf: template[copied..<index])
            out.append(value)
            index = end + close.count
            copied = index
        }
        out.append(contentsOf: template[copied...])
        return out
    }

    /// Text for HTML element content or an attribute.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
