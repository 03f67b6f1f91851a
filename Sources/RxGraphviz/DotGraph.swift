/// A small Graphviz graph model that prints as deterministic DOT text.
///
/// Views build one of these; `dotText` is what the `dot` format writes and what Graphviz lays
/// out for the other formats. Nothing here depends on dictionary order: attributes are kept in
/// the order they were set, nodes and edges in insertion order.
public struct DotGraph: Sendable, Equatable {
    public var name: String
    public var attributes: DotAttributes
    public var nodeDefaults: DotAttributes
    public var edgeDefaults: DotAttributes
    public var root: DotSubgraph

    public init(name: String, attributes: DotAttributes = [:], nodeDefaults: DotAttributes = [:], edgeDefaults: DotAttributes = [:]) {
        self.name = name
        self.attributes = attributes
        self.nodeDefaults = nodeDefaults
        self.edgeDefaults = edgeDefaults
        self.root = DotSubgraph(name: "")
    }

    /// Nodes in the whole graph, subgraphs included.
    public var nodeCount: Int { root.nodeCount }

    /// The graph as DOT text: same graph, same bytes.
    public var dotText: String {
        var out = "digraph \(DotID.quote(name)) {\n"
        DotGraph.writeAttributes(attributes, indent: "  ", to: &out)
        if !nodeDefaults.isEmpty { out += "  node [\(nodeDefaults.rendered)];\n" }
        if !edgeDefaults.isEmpty { out += "  edge [\(edgeDefaults.rendered)];\n" }
        root.writeBody(indent: "  ", to: &out)
        out += "}\n"
        return out
    }

    static func writeAttributes(_ attributes: DotAttributes, indent: String, to out: inout String) {
        for attribute in attributes.items {
            out += "\(indent)\(DotID.quote(attribute.key))=\(attribute.value.rendered);\n"
        }
    }
}

/// A subgraph: a cluster (drawn as a box) or a plain one used for ranks.
public struct DotSubgraph: Sendable, Equatable {
    public var name: String
    public var attributes: DotAttributes = [:]
    public var nodes: [DotNode] = []
    public var edges: [DotEdge] = []
    public var subgraphs: [DotSubgraph] = []

    public init(name: String, attributes: DotAttributes = [:]) {
        self.name = name
        self.attributes = attributes
    }

    var nodeCount: Int { nodes.count + subgraphs.reduce(0) { $0 + $1.nodeCount } }

    func writeBody(indent: String, to out: inout String) {
        for subgraph in subgraphs {
            out += "\(indent)subgraph \(DotID.quote(subgraph.name)) {\n"
            let inner = indent + "  "
            DotGraph.writeAttributes(subgraph.attributes, indent: inner, to: &out)
            subgraph.writeBody(indent: inner, to: &out)
            out += "\(indent)}\n"
        }
        for node in nodes {
            out += "\(indent)\(DotID.quote(node.id))"
            if !node.attributes.isEmpty { out += " [\(node.attributes.rendered)]" }
            out += ";\n"
        }
        for edge in edges {
            out += "\(indent)\(DotID.quote(edge.from)) -> \(DotID.quote(edge.to))"
            if !edge.attributes.isEmpty { out += " [\(edge.attributes.rendered)]" }
            out += ";\n"
        }
    }
}

public struct DotNode: Sendable, Equatable {
    public var id: String
    public var attributes: DotAttributes

    public init(_ id: String, _ attributes: DotAttributes = [:]) {
        self.id = id
        self.attributes = attributes
    }
}

public struct DotEdge: Sendable, Equatable {
    public var from: String
    public var to: String
    public var attributes: DotAttributes

    public init(_ from: String, _ to: String, _ attributes: DotAttributes = [:]) {
        self.from = from
        self.to = to
        self.attributes = attributes
    }
}

/// An attribute value: ordinary text (quoted and escaped) or an HTML-like label (`<…>`).
public enum DotValue: Sendable, Equatable, ExpressibleByStringLiteral {
    case text(String)
    case html(String)

    public init(stringLiteral value: String) { self = .text(value) }

    var rendered: String {
        switch self {
        case .text(let text): return DotID.quote(text)
        case .html(let html): return "<\(html)>"
        }
    }
}

/// Attributes in the order they were given (`["shape": "box", "label": "Map"]`).
public struct DotAttributes: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public private(set) var items: [(key: String, value: DotValue)]

    public init(dictionaryLiteral elements: (String, DotValue)...) {
        items = elements.map { (key: $0.0, value: $0.1) }
    }

    public var isEmpty: Bool { items.isEmpty }

    public subscript(key: String) -> DotValue? {
        get { items.first { $0.key == key }?.value }
        set {
            if let index = items.firstIndex(where: { $0.key == key }) {
                if let newValue { items[index].value = newValue } else { items.remove(at: index) }
            } else if let newValue {
                items.append((key: key, value: newValue))
            }
        }
    }

    var rendered: String {
        items.map { "\(DotID.quote($0.key))=\($0.value.rendered)" }.joined(separator: ", ")
    }

    public static func == (lhs: DotAttributes, rhs: DotAttributes) -> Bool {
        lhs.items.elementsEqual(rhs.items) { $0.key == $1.key && $0.value == $1.value }
    }
}

/// Quoting and escaping for DOT identifiers and HTML-like labels.
public enum DotID {
    /// Bare identifiers stay bare; everything else is double-quoted with `"` and `\` escaped,
    /// newlines written as DOT's `\n` (centred line break) and control characters dropped.
    public static func quote(_ text: String) -> String {
        if isBare(text) { return text }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r", "\t": out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func isBare(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !(first >= "0" && first <= "9") else { return false }
        let keywords: Set<String> = ["node", "edge", "graph", "digraph", "subgraph", "strict"]
        if keywords.contains(text.lowercased()) { return false }
        return text.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_" }
    }

    /// Escapes text for an HTML-like label cell.
    public static func html(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\r", "\t": out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Shortens `text` to `limit` characters with an ellipsis.
    public static func truncate(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
