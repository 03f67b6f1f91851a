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

    public init(
        name: String, attributes: DotAttributes = [:], nodeDefaults: DotAttributes = [:],
        edgeDefaults: DotAttributes = [:]
    ) {
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
        return text.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_"
        }
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

// MARK: - Layout safety

extension DotGraph {
    /// The same graph with the label of every flat edge — one whose ends a `rank` constraint
    /// puts on the same rank — moved to `xlabel`.
    ///
    /// Graphviz 2.42's `dot` turns the label of a flat edge into a virtual node on an extra rank,
    /// and two labelled flat edges that share an end (`{rank=same; a; b; c} a -> c [label=x];
    /// b -> c [label=y]`) corrupt its layout: `gvFreeLayout` double-frees, or spline routing first
    /// fails with "triangulation failed". External labels are placed after the layout, so they
    /// take no part in it.
    public func withFlatEdgeLabelsOutside() -> DotGraph {
        let groups = rankGroups()
        guard !groups.isEmpty else { return self }
        var copy = self
        copy.root.mapEdges { edge in
            guard edge.attributes["label"] != nil,
                groups.contains(where: { $0.contains(edge.from) && $0.contains(edge.to) })
            else { return }
            edge.moveLabelOutside()
        }
        return copy
    }

    /// A graph that is cheaper and sturdier to lay out, for a second try after Graphviz failed:
    /// no rank constraints, no `newrank`, no ports, straight edges, every edge label external.
    /// Nodes, clusters and colours stay, so the picture still says the same.
    public func simplifiedForLayout() -> DotGraph {
        var copy = self
        copy.attributes["newrank"] = nil
        copy.attributes["splines"] = "line"
        copy.root.simplifyForLayout()
        return copy
    }

    /// The node sets that share one rank: every `rank=same` subgraph on its own, all
    /// `min`/`source` subgraphs together, all `max`/`sink` subgraphs together.
    func rankGroups() -> [Set<String>] {
        var same: [Set<String>] = []
        var top = Set<String>()
        var bottom = Set<String>()
        func visit(_ subgraph: DotSubgraph) {
            for child in subgraph.subgraphs {
                if case .text(let rank)? = child.attributes["rank"] {
                    switch rank {
                    case "same": same.append(child.memberIDs)
                    case "min", "source": top.formUnion(child.memberIDs)
                    case "max", "sink": bottom.formUnion(child.memberIDs)
                    default: break
                    }
                }
                visit(child)
            }
        }
        visit(root)
        return (same + [top, bottom]).filter { $0.count > 1 }
    }
}

extension DotSubgraph {
    /// Every node this subgraph holds, nested subgraphs and edge ends included (DOT puts an
    /// edge's ends in the subgraph that declares the edge).
    var memberIDs: Set<String> {
        var ids = Set(nodes.map(\.id))
        for edge in edges { ids.insert(edge.from); ids.insert(edge.to) }
        for subgraph in subgraphs { ids.formUnion(subgraph.memberIDs) }
        return ids
    }

    mutating func mapEdges(_ body: (inout DotEdge) -> Void) {
        for index in edges.indices { body(&edges[index]) }
        for index in subgraphs.indices { subgraphs[index].mapEdges(body) }
    }

    mutating func simplifyForLayout() {
        attributes["rank"] = nil
        for index in edges.indices {
            edges[index].moveLabelOutside()
            edges[index].attributes["tailport"] = nil
            edges[index].attributes["headport"] = nil
        }
        for index in subgraphs.indices { subgraphs[index].simplifyForLayout() }
    }
}

extension DotEdge {
    /// `label` becomes `xlabel`, in the same place (an `xlabel` already there wins).
    mutating func moveLabelOutside() {
        attributes.rename("label", to: "xlabel")
    }
}

extension DotAttributes {
    /// Gives the value of `key` to `newKey`, where `key` was; drops it if `newKey` is already set.
    mutating func rename(_ key: String, to newKey: String) {
        guard let index = items.firstIndex(where: { $0.key == key }) else { return }
        if self[newKey] != nil {
            items.remove(at: index)
        } else {
            items[index].key = newKey
        }
    }
}
