import Foundation
import RxGraphviz

/// The page `rxtrace report` writes: `Report/report.html` with its style (`report.css`), its
/// script (`report.js`), the laid-out graph, the trace's data and the page's words in one
/// language (`ReportStrings`) put in. The three files are
/// embedded in the binary when it is built (SwiftPM's `embedInCode`), so `rxtrace` needs no
/// file beside it and the page needs nothing from the network.
enum ReportPage {
    /// The page for `model`, its text in the language of `model.words`.
    static func html(_ model: ReportModel) throws(CLIError) -> Data {
        let strings = model.words
        let data: Data
        let table: Data
        let text: [String: String]
        do {
            data = try model.json()
            table = try scriptSafeJSON(strings)
            let object = try JSONSerialization.jsonObject(with: table) as? [String: Any] ?? [:]
            text = object.compactMapValues { $0 as? String }
        } catch {
            throw CLIError.rendering("cannot encode the report's data: \(error)")
        }
        func format(_ key: String, _ values: [String: String]) -> String {
            values.reduce(text[key] ?? key) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
        }
        let reason = model.graphNote ?? format("noGraphReason", [:])
        let graph = model.svg ?? "<p class=\"note\">\(escape(format("noGraph", ["reason": reason])))</p>"
        let speeds = [1, 2, 5, 20, 100, 1000].map { rate in
            let label = format(rate == 1 ? "speedOne" : "speedOther", ["n": "\(rate)"])
            return "          <option value=\"\(rate)\"\(rate == 2 ? " selected" : "")>\(escape(label))</option>"
        }
        var values: [String: Data] = [
            "page-title": Data(escape(format("pageTitle", ["title": model.title])).utf8),
            "speed-options": Data(speeds.joined(separator: "\n").utf8),
            "strings": table,
            "style": Data(PackageResources.report_css),
            "script": Data(PackageResources.report_js),
            "graph": Data(graph.utf8),
            "data": data,
        ]
        for (key, value) in text { values["t.\(key)"] = Data(escape(value).utf8) }
        return fill(PackageResources.report_html, values)
    }

    /// `value` as JSON that can sit inside `<script>`: every `<` is written `\u003c`.
    static func scriptSafeJSON(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try encoder.encode(value)
        return Data(String(decoding: json, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c").utf8)
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
