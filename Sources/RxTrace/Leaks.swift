/// What a trace left alive: every subscription-side node (sink, observer, disposable, scheduled
/// item) that was never disposed, never deinitialised and whose subscription never terminated.
///
/// ```swift
/// let report = TraceLeakReport(document)
/// for group in report.groups { print(group.callSite, group.nodes.map(\.type)) }
/// ```
///
/// Observables, producers and subjects are not subscriptions and are never reported. A sequence
/// that completed or failed is not a leak even if a node of it is still referenced: the
/// subscription is over (rxjs-spy's false positive), so every node connected to a node that
/// received `completed` or `error` — through `forward` and `owns` edges — is excused.
public struct TraceLeakReport: Sendable, Equatable {
    /// Leaked nodes sharing one call site.
    public struct Group: Sendable, Equatable {
        /// `main.swift:5`, or `unknown call site`.
        public var callSite: String
        /// In id order.
        public var nodes: [TraceNode]
    }

    /// Leaked nodes in id order.
    public let nodes: [TraceNode]
    /// Grouped by call site, groups in order of their first node.
    public let groups: [Group]

    public var isEmpty: Bool { nodes.isEmpty }

    public init(_ document: TraceDocument) {
        let subscriptionKinds: Set<TraceNodeKind> = [.sink, .observer, .disposable, .scheduled]
        let byID = Dictionary(document.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        // Union-find over the subscription side of the graph.
        var parent: [UInt64: UInt64] = [:]
        func find(_ id: UInt64) -> UInt64 {
            var root = id
            while let next = parent[root], next != root { root = next }
            var current = id
            while let next = parent[current], next != root { parent[current] = root; current = next }
            return root
        }
        for node in document.nodes where subscriptionKinds.contains(node.kind) { parent[node.id] = node.id }
        for edge in document.edges where edge.relation == .forward || edge.relation == .owns {
            guard parent[edge.from] != nil, parent[edge.to] != nil else { continue }
            let a = find(edge.from), b = find(edge.to)
            if a != b { parent[max(a, b)] = min(a, b) }
        }
        var terminated = Set<UInt64>()
        for event in document.events where event.kind != .next && parent[event.node] != nil {
            terminated.insert(find(event.node))
        }

        var leaked: [TraceNode] = []
        for node in document.nodes.sorted(by: { $0.id < $1.id }) where subscriptionKinds.contains(node.kind) {
            guard node.disposed == nil, node.deinitialized == nil, !terminated.contains(find(node.id)) else { continue }
            leaked.append(node)
        }
        nodes = leaked

        var order: [String] = []
        var members: [String: [TraceNode]] = [:]
        for node in leaked {
            let site = node.callSite ?? byID[node.id]?.fileID ?? "unknown call site"
            if members[site] == nil { order.append(site) }
            members[site, default: []].append(node)
        }
        groups = order.map { Group(callSite: $0, nodes: members[$0]!) }
    }
}
