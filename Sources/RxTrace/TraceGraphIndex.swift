import RxCore

/// The nodes and edges of a document by position, for the analyses (`TraceStructure`,
/// `TraceLeakReport`): node ids are dense (a counter from 1), so a node's position comes from an
/// array by id (`NodeIndex`), and each node's edges are a slice of one array sorted by `from`
/// (outgoing) and one sorted by `to` (incoming), in document order within a node. On a large
/// trace, dictionaries of per-node edge arrays were most of the analysis' time and memory.
///
/// Positions `0..<nodeCount` are the document's nodes, in its order. An edge end that names no
/// node (a hand-made document; read files are checked) gets a position above them, with no node.
final class TraceGraphIndex {
    let nodes: [TraceNode]
    /// Ids of the positions past the nodes (edge ends that name no node).
    private(set) var extraIDs: [UInt64] = []
    private(set) var index = NodeIndex()

    /// Outgoing edges of position `p`: `outTo[outStart[p]..<outStart[p + 1]]` and the same range
    /// of `outRelation`.
    private(set) var outStart: [Int32] = []
    private(set) var outTo: [Int32] = []
    private(set) var outRelation: [TraceRelation] = []
    /// Incoming edges of position `p`, likewise.
    private(set) var inStart: [Int32] = []
    private(set) var inFrom: [Int32] = []
    private(set) var inRelation: [TraceRelation] = []

    var nodeCount: Int { nodes.count }
    /// Nodes and extra ends.
    var positionCount: Int { nodes.count + extraIDs.count }

    init(_ document: TraceDocument) {
        nodes = document.nodes
        for (position, node) in nodes.enumerated() { index.insert(node.id, position) }
        let edges = document.edges
        var from = [Int32](repeating: 0, count: edges.count)
        var to = [Int32](repeating: 0, count: edges.count)
        for (number, edge) in edges.enumerated() {
            from[number] = Int32(position(adding: edge.from))
            to[number] = Int32(position(adding: edge.to))
        }
        let count = positionCount
        (outStart, outTo, outRelation) = Self.slices(count, edges, keys: from, values: to)
        (inStart, inFrom, inRelation) = Self.slices(count, edges, keys: to, values: from)
    }

    private func position(adding id: UInt64) -> Int {
        if let known = index[id] { return known }
        let position = positionCount
        extraIDs.append(id)
        index.insert(id, position)
        return position
    }

    /// A counting sort of the edges by `keys` (stable: document order within a key).
    private static func slices(
        _ count: Int, _ edges: [TraceEdge], keys: [Int32], values: [Int32]
    ) -> ([Int32], [Int32], [TraceRelation]) {
        var start = [Int32](repeating: 0, count: count + 1)
        for key in keys { start[Int(key) + 1] += 1 }
        for position in 0..<count { start[position + 1] += start[position] }
        var next = start
        var targets = [Int32](repeating: 0, count: edges.count)
        var relations = [TraceRelation](repeating: .source, count: edges.count)
        for number in edges.indices {
            let key = Int(keys[number])
            let slot = Int(next[key])
            next[key] += 1
            targets[slot] = values[number]
            relations[slot] = edges[number].relation
        }
        return (start, targets, relations)
    }

    /// The position of node or edge end `id`.
    func position(of id: UInt64) -> Int? { index[id] }

    func id(at position: Int) -> UInt64 {
        position < nodes.count ? nodes[position].id : extraIDs[position - nodes.count]
    }

    /// The node at `position`, nil for an edge end that names no node.
    func node(at position: Int) -> TraceNode? {
        position < nodes.count ? nodes[position] : nil
    }

    func kind(at position: Int) -> TraceNodeKind? {
        position < nodes.count ? nodes[position].kind : nil
    }

    func outgoing(_ position: Int) -> Range<Int> { Int(outStart[position])..<Int(outStart[position + 1]) }
    func incoming(_ position: Int) -> Range<Int> { Int(inStart[position])..<Int(inStart[position + 1]) }
}

/// A node by id, without copying the nodes: their positions in the document's array (on a large
/// trace a dictionary of node copies would hold most of the memory).
package struct NodeLookup {
    let graph: TraceGraphIndex

    package subscript(id: UInt64) -> TraceNode? {
        graph.position(of: id).flatMap { graph.node(at: $0) }
    }
}
