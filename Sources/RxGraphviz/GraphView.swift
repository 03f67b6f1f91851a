import RxTrace

/// The `graph` view: observables in assembly order on top, the sinks their `run` made below,
/// the final observer at the end of each chain, disposers dashed; one cluster per top-level
/// subscription with its inner subscriptions nested. Disposed nodes are grey, leaked ones red.
struct GraphView {
    let document: TraceDocument
    let options: RenderOptions
    /// The labels' words (the report's language; English for `rxtrace render`).
    let words: ReportStrings
    let structure: TraceStructure

    init(
        _ document: TraceDocument, _ options: RenderOptions, structure: TraceStructure? = nil,
        words: ReportStrings = .english
    ) {
        self.document = document
        self.options = options
        self.structure = structure ?? TraceStructure(document)
        self.words = words
    }

    /// Above this many drawn nodes the layout trades some polish for speed.
    static let largeGraph = 300

    /// The graph, and where each trace node went in it.
    struct Drawing {
        var graph: DotGraph
        /// The drawn node of each trace node that is drawn (`n5`; a collapsed group's members
        /// share theirs, `c1_12`). Drawn nodes and edges carry these as their SVG ids.
        var placement: [UInt64: String]
        /// How many inner subscriptions each collapsed node stands for.
        var collapsed: [String: Int]
        /// The drawn edges: SVG id and drawn ends, in the trace's direction.
        var edges: [Edge]

        struct Edge {
            var id: String
            var from: String
            var to: String
        }
    }

    func tooLarge(_ count: Int) -> RenderError {
        .viewDoesNotFit(
            "graph view: \(count) nodes to draw, more than the limit of \(options.maxNodes); narrow it with "
                + "--filter-type or --filter-site\(options.expand ? " or drop --expand" : "")"
        )
    }

    func build() throws(RenderError) -> DotGraph {
        try drawing().graph
    }

    /// How many nodes the drawing will have, counted without building it (each collapsed group
    /// of inner subscriptions is one).
    func drawnCount() -> Int {
        func matching(_ ids: [UInt64]) -> Int { ids.reduce(0) { $0 + (options.matches(structure.byID[$1]!) ? 1 : 0) } }
        var count = matching(structure.observables)
        for subscription in structure.subscriptions {
            count += matching(subscription.nodes)
            var bySignature: [String: [Int]] = [:]
            for (index, inner) in subscription.inner.enumerated() {
                bySignature[inner.signature, default: []].append(index)
            }
            for members in bySignature.values {
                if !options.expand && members.count > 1 {
                    let representative = subscription.inner[members[0]].nodes.compactMap { structure.byID[$0] }
                    if representative.contains(where: options.matches) { count += 1 }
                } else {
                    for index in members { count += matching(subscription.inner[index].nodes) }
                }
            }
        }
        return count
    }

    func drawing() throws(RenderError) -> Drawing {
        guard !document.nodes.isEmpty else { throw .viewDoesNotFit("graph view: the trace has no nodes") }
        // Counted first: a graph too large to draw is refused before any of it is built.
        let expected = drawnCount()
        guard expected > 0 else { throw .viewDoesNotFit("graph view: no node matches the filters") }
        guard expected <= options.maxNodes else { throw tooLarge(expected) }
        var graph = DotGraph(
            name: "subscriptions",
            attributes: [
                "rankdir": "TB", "newrank": "true", "compound": "true", "fontname": "Helvetica", "fontsize": "11",
                "nodesep": "0.3", "ranksep": "0.45", "labelloc": "t",
                "label": .text(title),
            ],
            nodeDefaults: [
                "fontname": "Helvetica", "fontsize": "10", "style": "filled", "fillcolor": .text(Palette.liveFill),
            ],
            edgeDefaults: ["fontname": "Helvetica", "fontsize": "8"])

        // Where each trace node is drawn (collapsed groups share one drawn node).
        var drawn: [UInt64: String] = [:]
        var collapsed: [String: Int] = [:]

        // Observables on top, in assembly (id) order.
        var top = DotSubgraph(name: "observables", attributes: ["rank": "min"])
        for id in structure.observables {
            let node = structure.byID[id]!
            guard options.matches(node) else { continue }
            top.nodes.append(dotNode(node))
            drawn[id] = "n\(id)"
        }
        if !top.nodes.isEmpty { graph.root.subgraphs.append(top) }

        for subscription in structure.subscriptions {
            var cluster = DotSubgraph(
                name: "cluster_s\(subscription.number)",
                attributes: [
                    "label": .text(clusterLabel(subscription)), "style": "rounded", "color": "#999999",
                    "fontcolor": "#444444",
                ])
            for id in subscription.nodes {
                let node = structure.byID[id]!
                guard options.matches(node) else { continue }
                cluster.nodes.append(dotNode(node))
                drawn[id] = "n\(id)"
            }
            // Inner subscriptions, repeated ones collapsed unless --expand.
            var bySignature: [String: [Int]] = [:]
            var signatureOrder: [String] = []
            for (index, inner) in subscription.inner.enumerated() {
                if bySignature[inner.signature] == nil { signatureOrder.append(inner.signature) }
                bySignature[inner.signature, default: []].append(index)
            }
            var innerNumber = 0
            for signature in signatureOrder {
                let members = bySignature[signature]!
                if !options.expand && members.count > 1 {
                    let groups = members.map { subscription.inner[$0] }
                    let representative = groups[0].nodes.compactMap { structure.byID[$0] }
                    guard representative.contains(where: options.matches) else { continue }
                    let name = "c\(subscription.number)_\(groups[0].nodes[0])"
                    cluster.nodes.append(collapsedNode(name: name, nodes: representative, count: members.count))
                    collapsed[name] = members.count
                    for group in groups { for id in group.nodes { drawn[id] = name } }
                } else {
                    for index in members {
                        innerNumber += 1
                        var nested = DotSubgraph(
                            name: "cluster_s\(subscription.number)_i\(subscription.inner[index].nodes[0])",
                            attributes: [
                                "label": .text(words.graphInner), "style": "rounded,dashed", "color": "#bbbbbb",
                                "fontcolor": "#777777",
                            ])
                        for id in subscription.inner[index].nodes {
                            let node = structure.byID[id]!
                            guard options.matches(node) else { continue }
                            nested.nodes.append(dotNode(node))
                            drawn[id] = "n\(id)"
                        }
                        if !nested.nodes.isEmpty { cluster.subgraphs.append(nested) }
                    }
                }
            }
            if !cluster.nodes.isEmpty || !cluster.subgraphs.isEmpty { graph.root.subgraphs.append(cluster) }
        }

        let count = graph.nodeCount
        guard count > 0 else { throw .viewDoesNotFit("graph view: no node matches the filters") }
        guard count <= options.maxNodes else { throw tooLarge(count) }

        if count > Self.largeGraph {
            // Large graphs: fewer crossing-minimisation and network-simplex passes keep the
            // layout to seconds; the picture stays readable because clusters keep it ordered.
            graph.attributes["mclimit"] = "0.2"
            graph.attributes["nslimit"] = "2"
            graph.attributes["nslimit1"] = "2"
            graph.attributes["remincross"] = "false"
            graph.attributes["searchsize"] = "10"
        }

        var edges: [Drawing.Edge] = []
        var seen = Set<String>()
        for edge in document.edges {
            guard let from = drawn[edge.from], let to = drawn[edge.to], from != to else { continue }
            let id = Self.edgeID(from: from, to: to, relation: edge.relation)
            guard seen.insert(id).inserted else { continue }
            graph.root.edges.append(dotEdge(from: from, to: to, relation: edge.relation))
            edges.append(Drawing.Edge(id: id, from: from, to: to))
        }
        if count > Self.largeGraph {
            // Edge labels become layout nodes in dot; external labels are placed afterwards.
            graph.root.mapEdges { $0.moveLabelOutside() }
        }
        // The observables share the top rank: labels on edges between them go outside, or
        // Graphviz 2.42 corrupts the layout (see `withFlatEdgeLabelsOutside`).
        return Drawing(graph: graph.withFlatEdgeLabelsOutside(), placement: drawn, collapsed: collapsed, edges: edges)
    }

    /// The SVG id of the drawn edge `from -relation-> to` (drawn node names, in the trace's
    /// direction even where the edge is drawn the other way round).
    private static func edgeID(from: String, to: String, relation: TraceRelation) -> String {
        "\(from)-\(relation.rawValue)-\(to)"
    }

    private var title: String {
        let program = document.meta["program"].map { "\($0) — " } ?? ""
        let count = structure.subscriptions.count
        let nodes = words.format(words.nodesOther, ["n": "\(document.nodes.count)"])
        let subscriptions = words.format(
            count == 1 ? words.subscriptionsOne : words.subscriptionsOther, ["n": "\(count)"])
        return program + words.format(words.graphTitle, ["nodes": nodes, "subscriptions": subscriptions])
    }

    private func clusterLabel(_ subscription: TraceStructure.Subscription) -> String {
        let root = structure.byID[subscription.root]!
        let site = root.callSite.map { words.format(words.graphClusterSite, ["site": $0]) } ?? ""
        let inner =
            subscription.inner.isEmpty
            ? "" : words.format(words.graphClusterInner, ["n": "\(subscription.inner.count)"])
        return words.format(
            words.graphCluster, ["n": "\(subscription.number)", "root": root.shortName, "site": site, "inner": inner])
    }

    private func shape(_ kind: TraceNodeKind) -> (shape: String, style: String) {
        switch kind {
        case .producer, .observable: return ("box", "rounded,filled")
        case .subject: return ("hexagon", "filled")
        case .sink: return ("box", "filled")
        case .observer: return ("ellipse", "filled")
        case .disposable: return ("box", "dashed,filled")
        case .scheduled: return ("parallelogram", "filled")
        }
    }

    private func colours(_ all: [TraceNode]) -> DotAttributes {
        // Producers made for an inner subscription are never disposed; its workers tell its state.
        let workers = all.filter { TraceStructure.subscriptionKinds.contains($0.kind) }
        let nodes = workers.isEmpty ? all : workers
        if nodes.contains(where: { structure.leaked.contains($0.id) }) {
            return ["fillcolor": .text(Palette.leakedFill), "color": .text(Palette.leakedLine), "penwidth": "2"]
        }
        if nodes.allSatisfy({
            $0.disposed != nil || ($0.deinitialized != nil && TraceStructure.subscriptionKinds.contains($0.kind))
        }) {
            return [
                "fillcolor": .text(Palette.disposedFill), "fontcolor": .text(Palette.disposedText),
                "color": .text(Palette.disposedText),
            ]
        }
        if nodes.allSatisfy({ !TraceStructure.subscriptionKinds.contains($0.kind) }) {
            return ["fillcolor": .text(Palette.observableFill)]
        }
        return [:]
    }

    private func dotNode(_ node: TraceNode) -> DotNode {
        let (shape, style) = shape(node.kind)
        let name = "n\(node.id)"
        var attributes: DotAttributes = [
            "id": .text(name), "label": .text("\(node.type)\n\(node.siteAndID)"), "shape": .text(shape),
            "style": .text(style),
        ]
        for item in colours([node]).items { attributes[item.key] = item.value }
        return DotNode(name, attributes)
    }

    private func collapsedNode(name: String, nodes: [TraceNode], count: Int) -> DotNode {
        // Producer → sink → observer, the way an element travels.
        let order: [TraceNodeKind] = [.producer, .observable, .subject, .sink, .observer, .scheduled]
        let workers = nodes.filter { $0.kind != .disposable }
            .sorted { (order.firstIndex(of: $0.kind) ?? 9, $0.id) < (order.firstIndex(of: $1.kind) ?? 9, $1.id) }
        let types = (workers.isEmpty ? nodes : workers).map(\.type).joined(separator: " → ")
        let sites = Array(Set(nodes.compactMap(\.callSite))).sorted().joined(separator: ", ")
        var label = "\(types)\n"
        if !sites.isEmpty { label += "\(sites)\n" }
        label += "×\(count)"
        var attributes: DotAttributes = ["id": .text(name), "label": .text(label), "shape": "box3d", "style": "filled"]
        for item in colours(nodes).items { attributes[item.key] = item.value }
        return DotNode(name, attributes)
    }

    private func dotEdge(from: String, to: String, relation: TraceRelation) -> DotEdge {
        var edge = styledEdge(from: from, to: to, relation: relation)
        var attributes: DotAttributes = ["id": .text(Self.edgeID(from: from, to: to, relation: relation))]
        for item in edge.attributes.items { attributes[item.key] = item.value }
        edge.attributes = attributes
        return edge
    }

    private func styledEdge(from: String, to: String, relation: TraceRelation) -> DotEdge {
        switch relation {
        case .source:
            // Drawn from the source so a chain reads left to right in assembly order.
            return DotEdge(
                to, from,
                [
                    "label": "source", "dir": "back", "color": .text(Palette.source),
                    "fontcolor": .text(Palette.source),
                    "arrowtail": "empty",
                ])
        case .run:
            return DotEdge(from, to, ["label": "run", "color": .text(Palette.run), "fontcolor": .text(Palette.run)])
        case .forward:
            return DotEdge(
                from, to,
                [
                    "label": "forward", "color": .text(Palette.forward), "fontcolor": .text(Palette.forward),
                    "penwidth": "2",
                ])
        case .owns:
            // Drawn from the owned node so disposers sit below what they dispose.
            return DotEdge(
                to, from,
                [
                    "label": "owns", "dir": "back", "style": "dashed", "color": .text(Palette.owns),
                    "fontcolor": .text(Palette.owns),
                ])
        case .subscribes:
            // Drawn from the subject so subjects stay on top with the other observables.
            return DotEdge(
                to, from,
                [
                    "label": "subscribes", "dir": "back", "style": "dotted", "color": .text(Palette.subscribes),
                    "fontcolor": .text(Palette.subscribes), "penwidth": "1.5",
                ])
        }
    }
}
