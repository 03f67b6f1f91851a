import RxCore

/// The shape of a trace as the views and the CLI need it: top-level subscriptions, the inner
/// subscriptions nested in them (flatMap & co.), which nodes leaked.
///
/// A top-level subscription is a connected piece of the subscription side of the graph (sinks,
/// observers, disposables, scheduled items joined by `forward` and `owns` edges). Inside it, a
/// sink is *inner* when the producer that ran it is not on the source chain of the
/// subscription's own observer — an observable made per element, like the `just` in
/// `flatMap { .just($0) }`. Inner sinks, the observers they forward to, the disposers that own
/// them and the producers that made only them form the inner subscriptions.
package struct TraceStructure {
    package struct Subscription {
        /// 1-based, in order of the subscription's first node.
        package var number: Int
        /// The observer at the end of the chain (no outgoing `forward`), or the first node.
        package var root: UInt64
        /// Every node of the subscription outside its inner subscriptions, in id order.
        package var nodes: [UInt64]
        package var inner: [InnerSubscription]
        /// All node ids, inner ones included.
        package var allNodes: Set<UInt64>
        /// Producers whose sinks are in this subscription (source chain included).
        package var producers: Set<UInt64>
    }

    package struct InnerSubscription {
        /// In id order; producers made for it come first.
        package var nodes: [UInt64]
        /// Equal for inner subscriptions that draw the same.
        package var signature: String
    }

    package let document: TraceDocument
    package let byID: NodeLookup
    /// What was left open (`leaked` is its nodes' ids).
    package let leaks: TraceLeakReport
    package let leaked: Set<UInt64>
    package let subscriptions: [Subscription]
    /// Producers, observables and subjects not owned by an inner subscription, in id order.
    package let observables: [UInt64]
    /// Which subscription each subscription-side node belongs to (index into `subscriptions`).
    package let subscriptionOf: [UInt64: Int]

    package static let subscriptionKinds: Set<TraceNodeKind> = [.sink, .observer, .disposable, .scheduled]

    package init(_ document: TraceDocument) {
        self.document = document
        let byID = NodeLookup(document.nodes)
        self.byID = byID
        leaks = TraceLeakReport(document)
        leaked = Set(leaks.nodes.map(\.id))

        var outgoing: [UInt64: [TraceEdge]] = [:]
        var incoming: [UInt64: [TraceEdge]] = [:]
        for edge in document.edges {
            outgoing[edge.from, default: []].append(edge)
            incoming[edge.to, default: []].append(edge)
        }
        func isSubscriptionSide(_ id: UInt64) -> Bool {
            byID[id].map { Self.subscriptionKinds.contains($0.kind) } ?? false
        }

        // Top-level subscriptions: components over forward and owns edges.
        var finder = UnionFind()
        for node in document.nodes where Self.subscriptionKinds.contains(node.kind) { finder.add(node.id) }
        for edge in document.edges
        where (edge.relation == .forward || edge.relation == .owns)
            && isSubscriptionSide(edge.from) && isSubscriptionSide(edge.to)
        {
            finder.union(edge.from, edge.to)
        }
        var components: [UInt64: [UInt64]] = [:]
        for node in document.nodes where Self.subscriptionKinds.contains(node.kind) {
            components[finder.find(node.id), default: []].append(node.id)
        }
        let ordered = components.values.map { $0.sorted() }.sorted { $0[0] < $1[0] }

        var subscribedBy: [UInt64: [UInt64]] = [:]
        var subscribers: [UInt64: [UInt64]] = [:]
        for step in document.steps where step.call == .subscribe && byID[step.to] != nil && !isSubscriptionSide(step.to)
        {
            subscribedBy[step.from, default: []].append(step.to)
            subscribers[step.to, default: []].append(step.from)
        }
        var innerProducers = Set<UInt64>()
        var subscriptions: [Subscription] = []
        var subscriptionOf: [UInt64: Int] = [:]
        for (index, members) in ordered.enumerated() {
            let memberSet = Set(members)
            let root =
                members.first { id in
                    let kind = byID[id]!.kind
                    return (kind == .observer || kind == .sink)
                        && !(outgoing[id] ?? []).contains { $0.relation == .forward }
                } ?? members[0]

            // The source chain: producers that ran a sink forwarding to the root, or that the
            // root subscribed to, and everything they were built on.
            var chain = Set<UInt64>()
            var pending: [UInt64] = []
            for edge in incoming[root] ?? [] where edge.relation == .forward {
                for run in incoming[edge.from] ?? [] where run.relation == .run { pending.append(run.from) }
            }
            for edge in incoming[root] ?? [] where edge.relation == .run { pending.append(edge.from) }
            pending.append(contentsOf: subscribedBy[root] ?? [])
            while let producer = pending.popLast() {
                guard chain.insert(producer).inserted else { continue }
                for edge in outgoing[producer] ?? [] where edge.relation == .source { pending.append(edge.to) }
            }

            func runProducers(_ id: UInt64) -> [UInt64] {
                (incoming[id] ?? []).filter { $0.relation == .run }.map(\.from)
            }
            // Inner sinks, and inner observers subscribed straight to a producer made per element
            // (`just` delivers without a sink); then what they forward to, then the disposers
            // owning inner nodes.
            var inner = Set<UInt64>()
            for id in members where byID[id]!.kind == .sink {
                let producers = runProducers(id)
                if !producers.isEmpty, !chain.isEmpty, producers.allSatisfy({ !chain.contains($0) }) {
                    inner.insert(id)
                }
            }
            for id in members where id != root && byID[id]!.kind == .observer {
                let producers = (subscribedBy[id] ?? []).filter { byID[$0]!.kind == .producer }
                if !producers.isEmpty, !chain.isEmpty, producers.allSatisfy({ !chain.contains($0) }) {
                    inner.insert(id)
                }
            }
            var frontier = Array(inner)
            while let id = frontier.popLast() {
                for edge in outgoing[id] ?? [] where edge.relation == .forward && memberSet.contains(edge.to) {
                    let target = edge.to
                    guard target != root, !inner.contains(target) else { continue }
                    if runProducers(target).contains(where: { chain.contains($0) }) { continue }
                    inner.insert(target)
                    frontier.append(target)
                }
            }
            if !inner.isEmpty {
                // The inner workers joined by forward edges: one piece per inner subscription.
                var workers = UnionFind()
                for id in inner { workers.add(id) }
                for id in inner.sorted() {
                    for edge in outgoing[id] ?? [] where edge.relation == .forward && inner.contains(edge.to) {
                        workers.union(id, edge.to)
                    }
                }
                // Disposers owning the sinks or observers of one inner subscription directly (not
                // merge's disposable of them all), then what only they own.
                var changed = true
                while changed {
                    changed = false
                    for id in members where !inner.contains(id) && byID[id]!.kind == .disposable {
                        let owned = (outgoing[id] ?? []).filter { $0.relation == .owns }.map(\.to)
                        let owners = (incoming[id] ?? []).filter { $0.relation == .owns }.map(\.from)
                        let ownedWorkers = owned.filter { inner.contains($0) && byID[$0]!.kind != .disposable }
                        let pieces = Set(ownedWorkers.map { workers.find($0) })
                        let ownsInnerWorker = pieces.count == 1
                        let ownedOnlyByInner = !owners.isEmpty && owners.allSatisfy { inner.contains($0) }
                        if ownsInnerWorker || ownedOnlyByInner {
                            inner.insert(id)
                            changed = true
                        }
                    }
                }
            }

            // Inner subscriptions: components of the inner nodes.
            var innerFinder = UnionFind()
            for id in inner { innerFinder.add(id) }
            for id in inner.sorted() {
                for edge in outgoing[id] ?? []
                where (edge.relation == .forward || edge.relation == .owns) && inner.contains(edge.to) {
                    innerFinder.union(id, edge.to)
                }
            }
            var groups: [UInt64: [UInt64]] = [:]
            for id in inner { groups[innerFinder.find(id), default: []].append(id) }
            // A producer that ran sinks of exactly one inner subscription (or that only its
            // observers subscribed to) belongs to it.
            var groupOf: [UInt64: UInt64] = [:]
            for (key, ids) in groups { for id in ids { groupOf[id] = key } }
            var producersOf: [UInt64: [UInt64]] = [:]
            for id in inner.sorted() where byID[id]!.kind == .sink || byID[id]!.kind == .observer {
                let made = byID[id]!.kind == .sink ? runProducers(id) : (subscribedBy[id] ?? [])
                for producer in made where byID[producer]!.kind == .producer {
                    let targets =
                        byID[id]!.kind == .sink
                        ? Set((outgoing[producer] ?? []).filter { $0.relation == .run }.map(\.to))
                        : Set(subscribers[producer] ?? [])
                    let owningGroups = Set(targets.map { groupOf[$0] ?? 0 })
                    if owningGroups.count == 1, owningGroups.first != 0, !chain.contains(producer),
                        !(producersOf[groupOf[id]!] ?? []).contains(producer)
                    {
                        producersOf[groupOf[id]!, default: []].append(producer)
                        innerProducers.insert(producer)
                    }
                }
            }
            var innerSubscriptions: [InnerSubscription] = []
            for key in groups.keys.sorted(by: { groups[$0]!.min()! < groups[$1]!.min()! }) {
                let ids = (producersOf[key] ?? []).sorted() + groups[key]!.sorted()
                innerSubscriptions.append(InnerSubscription(nodes: ids, signature: ""))
            }

            var allProducers = chain
            for id in members { for producer in runProducers(id) { allProducers.insert(producer) } }
            let outer = members.filter { !inner.contains($0) }
            for id in members { subscriptionOf[id] = index }
            subscriptions.append(
                Subscription(
                    number: index + 1, root: root, nodes: outer, inner: innerSubscriptions,
                    allNodes: memberSet.union(innerSubscriptions.flatMap(\.nodes)), producers: allProducers))
        }

        // Signatures once every node's place is known.
        let leaked = self.leaked
        func state(_ node: TraceNode) -> String {
            leaked.contains(node.id) ? "leaked" : (node.disposed != nil || node.deinitialized != nil ? "gone" : "alive")
        }
        for s in subscriptions.indices {
            for i in subscriptions[s].inner.indices {
                let ids = subscriptions[s].inner[i].nodes
                var position: [UInt64: Int] = [:]
                for (offset, id) in ids.enumerated() { position[id] = offset }
                var parts = ids.map { id -> String in
                    let node = byID[id]!
                    return "\(node.kind.rawValue)|\(node.type)|\(node.callSite ?? "")|\(state(node))"
                }
                var edgeParts: [String] = []
                for id in ids {
                    for edge in outgoing[id] ?? [] {
                        if let to = position[edge.to] {
                            edgeParts.append("\(position[id]!)-\(edge.relation.rawValue)->\(to)")
                        } else {
                            edgeParts.append("\(position[id]!)-\(edge.relation.rawValue)->#\(edge.to)")
                        }
                    }
                    for edge in incoming[id] ?? [] where position[edge.from] == nil {
                        edgeParts.append("#\(edge.from)-\(edge.relation.rawValue)->\(position[id]!)")
                    }
                }
                parts.append(edgeParts.sorted().joined(separator: ","))
                subscriptions[s].inner[i].signature = parts.joined(separator: ";")
            }
        }
        self.subscriptions = subscriptions
        self.subscriptionOf = subscriptionOf
        observables = document.nodes.filter {
            !Self.subscriptionKinds.contains($0.kind) && !innerProducers.contains($0.id)
        }
        .map(\.id).sorted()
    }

    /// The subscription holding node `id` (any of its nodes names it).
    package func subscription(containing id: UInt64) -> Subscription? {
        if let index = subscriptionOf[id] { return subscriptions[index] }
        return subscriptions.first { $0.allNodes.contains(id) }
    }
}

/// Union-find with path halving; the smaller id becomes the root so results are deterministic.
/// A top-level subscription of a trace, for listings such as `rxtrace summary`.
public struct TraceSubscriptionInfo: Sendable, Equatable {
    /// 1-based, in order of creation.
    public var number: Int
    /// The observer at the end of its chain.
    public var root: TraceNode
    /// Nodes, inner subscriptions included.
    public var nodeCount: Int
    /// Inner subscriptions (flatMap & co.).
    public var innerCount: Int
}

extension Trace {
    /// The top-level subscriptions of a trace, in order of creation.
    public static func subscriptions(in document: TraceDocument) -> [TraceSubscriptionInfo] {
        subscriptions(of: TraceStructure(document))
    }

    package static func subscriptions(of structure: TraceStructure) -> [TraceSubscriptionInfo] {
        structure.subscriptions.map {
            TraceSubscriptionInfo(
                number: $0.number, root: structure.byID[$0.root]!, nodeCount: $0.allNodes.count,
                innerCount: $0.inner.count)
        }
    }
}

/// A node by id, without copying the nodes: their positions in the document's array (on a large
/// trace a dictionary of node copies would hold most of the memory).
package struct NodeLookup {
    private let nodes: [TraceNode]
    private var position: [UInt64: Int] = [:]

    init(_ nodes: [TraceNode]) {
        self.nodes = nodes
        position.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() { position[node.id] = index }
    }

    package subscript(id: UInt64) -> TraceNode? {
        position[id].map { nodes[$0] }
    }
}

struct UnionFind {
    private var parent: [UInt64: UInt64] = [:]

    mutating func add(_ id: UInt64) {
        if parent[id] == nil { parent[id] = id }
    }

    mutating func find(_ id: UInt64) -> UInt64 {
        var current = id
        while let next = parent[current], next != current {
            let grand = parent[next] ?? next
            parent[current] = grand
            current = grand
        }
        return current
    }

    mutating func union(_ a: UInt64, _ b: UInt64) {
        let ra = find(a), rb = find(b)
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }
}
