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
///
/// Built over node positions (`TraceGraphIndex`): arrays by position and stamps instead of
/// dictionaries and sets by id, so a trace of a million nodes is analysed in a fraction of the
/// time it takes to read. What only some callers use is computed when asked: `allNodes`,
/// `producers` and the inner subscriptions' `signature`.
package struct TraceStructure {
    package struct Subscription {
        /// 1-based, in order of the subscription's first node.
        package var number: Int
        /// The observer at the end of the chain (no outgoing `forward`), or the first node.
        package var root: UInt64
        /// Every node of the subscription outside its inner subscriptions, in id order.
        package var nodes: [UInt64]
        package var inner: [InnerSubscription]
        /// How many nodes `allNodes` holds.
        package var nodeCount: Int
        let context: StructureContext

        /// All node ids, inner ones included.
        package var allNodes: Set<UInt64> {
            var all = Set(nodes)
            for subscription in inner { all.formUnion(subscription.nodes) }
            return all
        }

        /// Producers whose sinks are in this subscription (source chain included).
        package var producers: Set<UInt64> {
            let graph = context.graph
            guard let root = graph.position(of: root) else { return [] }
            var found = Set<Int>()
            context.sourceChain(of: root) { found.insert($0).inserted }
            var members = nodes
            for subscription in inner {
                members += subscription.nodes.filter { id in
                    graph.position(of: id).flatMap(graph.kind(at:)).map(TraceStructure.isSubscriptionKind) ?? false
                }
            }
            for id in members {
                guard let position = graph.position(of: id) else { continue }
                for slot in graph.incoming(position) where graph.inRelation[slot] == .run {
                    found.insert(Int(graph.inFrom[slot]))
                }
            }
            return Set(found.map(graph.id(at:)))
        }
    }

    package struct InnerSubscription {
        /// In id order; producers made for it come first.
        package var nodes: [UInt64]
        let context: StructureContext

        /// Equal for inner subscriptions that draw the same (computed on each use: only the
        /// graph view groups by it).
        package var signature: String { context.signature(of: nodes) }
    }

    package let document: TraceDocument
    package let byID: NodeLookup
    /// What was left open (`leaked` is its nodes' ids).
    package let leaks: TraceLeakReport
    package let leaked: Set<UInt64>
    package let subscriptions: [Subscription]
    /// Producers, observables and subjects not owned by an inner subscription, in id order.
    package let observables: [UInt64]
    /// Which subscription each subscription-side node belongs to (index into `subscriptions`),
    /// by position; -1 for the others.
    private let subscriptionOf: [Int32]
    private let context: StructureContext

    package static let subscriptionKinds: Set<TraceNodeKind> = [.sink, .observer, .disposable, .scheduled]

    static func isSubscriptionKind(_ kind: TraceNodeKind) -> Bool {
        switch kind {
        case .sink, .observer, .disposable, .scheduled: true
        default: false
        }
    }

    package init(_ document: TraceDocument) {
        self.document = document
        let graph = TraceGraphIndex(document)
        byID = NodeLookup(graph: graph)
        leaks = TraceLeakReport(document, graph: graph)
        leaked = Set(leaks.nodes.map(\.id))
        let nodeCount = graph.nodeCount
        let count = graph.positionCount
        let nodes = graph.nodes

        var side = [Bool](repeating: false, count: count)
        for position in 0..<nodeCount { side[position] = Self.isSubscriptionKind(nodes[position].kind) }
        // Node positions in id order (the document's order when it is sorted, as read files are).
        let order: [Int32]? =
            zip(nodes, nodes.dropFirst()).contains(where: { $0.id > $1.id })
            ? (0..<Int32(nodeCount)).sorted { nodes[Int($0)].id < nodes[Int($1)].id } : nil
        func inIDOrder(_ body: (Int) -> Void) {
            if let order {
                for position in order { body(Int(position)) }
            } else {
                for position in 0..<nodeCount { body(position) }
            }
        }

        // Top-level subscriptions: components over forward and owns edges.
        var pieces = PositionUnionFind(count: count)
        for from in 0..<nodeCount where side[from] {
            for slot in graph.outgoing(from) {
                let relation = graph.outRelation[slot]
                let to = Int(graph.outTo[slot])
                guard relation == .forward || relation == .owns, side[to] else { continue }
                pieces.union(from, to)
            }
        }
        // Numbered in order of their first node; members in id order.
        var subscriptionOf = [Int32](repeating: -1, count: count)
        var numberOfRoot = [Int32](repeating: -1, count: count)
        var componentCount = 0
        var memberStart: [Int32] = [0]
        inIDOrder { position in
            guard side[position] else { return }
            let root = Int(pieces.find(Int32(position)))
            if numberOfRoot[root] < 0 {
                numberOfRoot[root] = Int32(componentCount)
                componentCount += 1
                memberStart.append(0)
            }
            let number = numberOfRoot[root]
            subscriptionOf[position] = number
            memberStart[Int(number) + 1] += 1
        }
        for number in 0..<componentCount { memberStart[number + 1] += memberStart[number] }
        var members = [Int32](repeating: 0, count: Int(memberStart[componentCount]))
        do {
            var next = memberStart
            inIDOrder { position in
                guard side[position] else { return }
                let number = Int(subscriptionOf[position])
                members[Int(next[number])] = Int32(position)
                next[number] += 1
            }
        }

        // `subscribe` steps to producers, observables and subjects: by subscriber and by target.
        let context = StructureContext(graph: graph, leaked: leaked, steps: document.steps, side: side)
        self.context = context
        var subscribersStart = [Int32](repeating: 0, count: count + 1)
        var subscribePairs: [(from: Int32, to: Int32)] = []
        for step in document.steps where step.call == .subscribe {
            guard let to = graph.position(of: step.to), to < nodeCount, !side[to] else { continue }
            let from = graph.position(of: step.from).map(Int32.init) ?? -1
            subscribePairs.append((from, Int32(to)))
            subscribersStart[to + 1] += 1
        }
        for position in 0..<count { subscribersStart[position + 1] += subscribersStart[position] }
        var subscribers = [Int32](repeating: -1, count: subscribePairs.count)
        do {
            var next = subscribersStart
            for pair in subscribePairs {
                subscribers[Int(next[Int(pair.to)])] = pair.from
                next[Int(pair.to)] += 1
            }
        }
        subscribePairs = []
        func subscribersOf(_ position: Int) -> ArraySlice<Int32> {
            subscribers[Int(subscribersStart[position])..<Int(subscribersStart[position + 1])]
        }
        func runProducers(_ position: Int) -> [Int] {
            graph.incoming(position).compactMap { graph.inRelation[$0] == .run ? Int(graph.inFrom[$0]) : nil }
        }

        // Stamps: a position is in the current subscription's set when its entry is that
        // subscription's number.
        var chainMark = [Int32](repeating: -1, count: count)
        var innerMark = [Int32](repeating: -1, count: count)
        var ranByChain = [Int32](repeating: -1, count: count)
        var producerMark = [Int32](repeating: -1, count: count)
        var innerProducer = [Bool](repeating: false, count: count)
        // Per inner node of the current subscription: its inner subscription; per union-find
        // root: the inner subscription it stands for.
        var groupOf = [Int32](repeating: -1, count: count)
        // (The array that numbered the top-level pieces, cleared.)
        var groupOfRoot = numberOfRoot
        numberOfRoot = []
        for position in groupOfRoot.indices { groupOfRoot[position] = -1 }
        var innerPieces = PositionUnionFind(count: count)

        var subscriptions: [Subscription] = []
        subscriptions.reserveCapacity(componentCount)
        var chain: [Int] = []
        var inner: [Int] = []
        var frontier: [Int] = []
        for index in 0..<componentCount {
            let stamp = Int32(index)
            let memberSlice = members[Int(memberStart[index])..<Int(memberStart[index + 1])]
            let root =
                memberSlice.first { member in
                    let kind = nodes[Int(member)].kind
                    return (kind == .observer || kind == .sink)
                        && !graph.outgoing(Int(member)).contains { graph.outRelation[$0] == .forward }
                }.map(Int.init) ?? Int(memberSlice.first!)

            // The source chain: producers that ran a sink forwarding to the root, or that the
            // root subscribed to, and everything they were built on.
            chain.removeAll(keepingCapacity: true)
            context.sourceChain(of: root) { producer in
                guard chainMark[producer] != stamp else { return false }
                chainMark[producer] = stamp
                chain.append(producer)
                return true
            }
            func inChain(_ position: Int) -> Bool { chainMark[position] == stamp }

            // Inner sinks, and inner observers subscribed straight to a producer made per element
            // (`just` delivers without a sink); then what they forward to, then the disposers
            // owning inner nodes.
            inner.removeAll(keepingCapacity: true)
            func markInner(_ position: Int) {
                innerMark[position] = stamp
                inner.append(position)
            }
            func isInner(_ position: Int) -> Bool { innerMark[position] == stamp }
            if !chain.isEmpty {
                for member in memberSlice {
                    let id = Int(member)
                    switch nodes[id].kind {
                    case .sink:
                        let producers = runProducers(id)
                        if !producers.isEmpty, producers.allSatisfy({ !inChain($0) }) { markInner(id) }
                    case .observer where id != root:
                        let producers = context.subscribed(by: id).filter { nodes[Int($0)].kind == .producer }
                        if !producers.isEmpty, producers.allSatisfy({ !inChain(Int($0)) }) { markInner(id) }
                    default: break
                    }
                }
            }
            frontier.removeAll(keepingCapacity: true)
            frontier.append(contentsOf: inner)
            while let id = frontier.popLast() {
                for slot in graph.outgoing(id) where graph.outRelation[slot] == .forward {
                    let target = Int(graph.outTo[slot])
                    guard subscriptionOf[target] == stamp, target != root, !isInner(target) else { continue }
                    // Asked once per target (a merge's observer is forwarded to by every inner
                    // subscription, and has as many incoming edges).
                    if ranByChain[target] == stamp { continue }
                    if graph.incoming(target).contains(where: {
                        graph.inRelation[$0] == .run && inChain(Int(graph.inFrom[$0]))
                    }) {
                        ranByChain[target] = stamp
                        continue
                    }
                    markInner(target)
                    frontier.append(target)
                }
            }
            if !inner.isEmpty {
                // The inner workers joined by forward edges: one piece per inner subscription
                // (`pieces` is free again: the top-level pieces are numbered).
                pieces.reset(inner)
                for id in inner {
                    for slot in graph.outgoing(id) where graph.outRelation[slot] == .forward {
                        let target = Int(graph.outTo[slot])
                        guard isInner(target) else { continue }
                        pieces.union(id, target)
                    }
                }
                // Disposers owning the sinks or observers of one inner subscription directly (not
                // merge's disposable of them all), then what only they own: until nothing changes
                // (a disposer that joins may make those it owns owned only by inner nodes).
                func joins(_ id: Int) -> Bool {
                    var piece: Int32 = -1
                    var several = false
                    for slot in graph.outgoing(id) where graph.outRelation[slot] == .owns {
                        let owned = Int(graph.outTo[slot])
                        guard isInner(owned), nodes[owned].kind != .disposable else { continue }
                        let root = pieces.find(Int32(owned))
                        if piece < 0 {
                            piece = root
                        } else if root != piece {
                            several = true
                            break
                        }
                    }
                    if piece >= 0 && !several { return true }
                    var owners = 0
                    for slot in graph.incoming(id) where graph.inRelation[slot] == .owns {
                        guard isInner(Int(graph.inFrom[slot])) else { return false }
                        owners += 1
                    }
                    return owners > 0
                }
                frontier.removeAll(keepingCapacity: true)
                for member in memberSlice.reversed() where nodes[Int(member)].kind == .disposable {
                    frontier.append(Int(member))
                }
                while let id = frontier.popLast() {
                    guard !isInner(id), joins(id) else { continue }
                    markInner(id)
                    for slot in graph.outgoing(id) where graph.outRelation[slot] == .owns {
                        let owned = Int(graph.outTo[slot])
                        if subscriptionOf[owned] == stamp, !isInner(owned), nodes[owned].kind == .disposable {
                            frontier.append(owned)
                        }
                    }
                }
            }

            // Inner subscriptions: components of the inner nodes, numbered in order of their
            // first node, members in id order.
            innerPieces.reset(inner)
            for id in inner {
                for slot in graph.outgoing(id) {
                    let relation = graph.outRelation[slot]
                    let target = Int(graph.outTo[slot])
                    guard relation == .forward || relation == .owns, isInner(target) else { continue }
                    innerPieces.union(id, target)
                }
            }
            var groups: [[Int]] = []
            for member in memberSlice where isInner(Int(member)) {
                let id = Int(member)
                // A root is an inner node of this subscription: no other subscription numbered it.
                let root = Int(innerPieces.find(Int32(id)))
                if groupOfRoot[root] < 0 {
                    groupOfRoot[root] = Int32(groups.count)
                    groups.append([])
                }
                groupOf[id] = groupOfRoot[root]
                groups[Int(groupOfRoot[root])].append(id)
            }
            // A producer that ran sinks of exactly one inner subscription (or that only its
            // observers subscribed to) belongs to it.
            var producersOf = [[Int]](repeating: [], count: groups.count)
            var producerCount = 0
            func owningGroup(_ target: Int) -> Int32 { target >= 0 && isInner(target) ? groupOf[target] : -1 }
            for group in groups {
                for id in group {
                    let kind = nodes[id].kind
                    guard kind == .sink || kind == .observer else { continue }
                    let made = kind == .sink ? runProducers(id) : context.subscribed(by: id).map(Int.init)
                    for producer in made where producer < nodeCount && nodes[producer].kind == .producer {
                        var owner: Int32? = nil
                        var single = true
                        func see(_ target: Int) {
                            let group = owningGroup(target)
                            if owner == nil { owner = group } else if owner != group { single = false }
                        }
                        if kind == .sink {
                            for slot in graph.outgoing(producer) where graph.outRelation[slot] == .run {
                                see(Int(graph.outTo[slot]))
                            }
                        } else {
                            for target in subscribersOf(producer) { see(Int(target)) }
                        }
                        let mine = Int(groupOf[id])
                        guard single, let owner, owner >= 0, !inChain(producer), !producersOf[mine].contains(producer)
                        else { continue }
                        producersOf[mine].append(producer)
                        innerProducer[producer] = true
                        if producerMark[producer] != stamp {
                            producerMark[producer] = stamp
                            producerCount += 1
                        }
                    }
                }
            }
            var innerSubscriptions: [InnerSubscription] = []
            innerSubscriptions.reserveCapacity(groups.count)
            for (number, group) in groups.enumerated() {
                let producers = producersOf[number].map(graph.id(at:)).sorted()
                innerSubscriptions.append(
                    InnerSubscription(nodes: producers + group.map(graph.id(at:)), context: context))
            }
            let outer = memberSlice.compactMap { isInner(Int($0)) ? nil : graph.id(at: Int($0)) }
            subscriptions.append(
                Subscription(
                    number: index + 1, root: graph.id(at: root), nodes: outer, inner: innerSubscriptions,
                    nodeCount: memberSlice.count + producerCount, context: context))
        }
        self.subscriptions = subscriptions
        self.subscriptionOf = subscriptionOf
        var observables: [UInt64] = []
        inIDOrder { position in
            if !side[position] && !innerProducer[position] { observables.append(nodes[position].id) }
        }
        self.observables = observables
    }

    /// The subscription holding node `id` (any of its nodes names it).
    package func subscription(containing id: UInt64) -> Subscription? {
        if let position = context.graph.position(of: id), subscriptionOf[position] >= 0 {
            return subscriptions[Int(subscriptionOf[position])]
        }
        return subscriptions.first { $0.inner.contains { $0.nodes.contains(id) } }
    }
}

/// What a structure's subscriptions share to answer what is asked of them later: the graph by
/// position, the `subscribe` steps by subscriber, the leaked nodes.
final class StructureContext {
    let graph: TraceGraphIndex
    let leaked: Set<UInt64>
    /// `subscribe` steps to producers, observables and subjects, by the subscribing node's
    /// position: targets' positions in step order.
    private let subscribedStart: [Int32]
    private let subscribedTargets: [Int32]

    init(graph: TraceGraphIndex, leaked: Set<UInt64>, steps: [TraceStep], side: [Bool]) {
        self.graph = graph
        self.leaked = leaked
        let nodeCount = graph.nodeCount
        var start = [Int32](repeating: 0, count: nodeCount + 1)
        var pairs: [(from: Int32, to: Int32)] = []
        for step in steps where step.call == .subscribe {
            guard let to = graph.position(of: step.to), to < nodeCount, !side[to],
                let from = graph.position(of: step.from), from < nodeCount
            else { continue }
            pairs.append((Int32(from), Int32(to)))
            start[from + 1] += 1
        }
        for position in 0..<nodeCount { start[position + 1] += start[position] }
        var targets = [Int32](repeating: 0, count: pairs.count)
        var next = start
        for pair in pairs {
            targets[Int(next[Int(pair.from)])] = pair.to
            next[Int(pair.from)] += 1
        }
        subscribedStart = start
        subscribedTargets = targets
    }

    /// What node `position` subscribed to (producers, observables, subjects), in step order.
    func subscribed(by position: Int) -> ArraySlice<Int32> {
        guard position < graph.nodeCount else { return [] }
        return subscribedTargets[Int(subscribedStart[position])..<Int(subscribedStart[position + 1])]
    }

    /// Calls `insert` with each producer of the source chain of `root` (producers that ran a
    /// sink forwarding to it, or that it subscribed to, and everything they were built on);
    /// `insert` says whether the producer is new (its sources are then followed).
    func sourceChain(of root: Int, _ insert: (Int) -> Bool) {
        var pending: [Int] = []
        for slot in graph.incoming(root) where graph.inRelation[slot] == .forward {
            let sink = Int(graph.inFrom[slot])
            for run in graph.incoming(sink) where graph.inRelation[run] == .run {
                pending.append(Int(graph.inFrom[run]))
            }
        }
        for slot in graph.incoming(root) where graph.inRelation[slot] == .run {
            pending.append(Int(graph.inFrom[slot]))
        }
        pending.append(contentsOf: subscribed(by: root).map(Int.init))
        while let producer = pending.popLast() {
            guard insert(producer) else { continue }
            for slot in graph.outgoing(producer) where graph.outRelation[slot] == .source {
                pending.append(Int(graph.outTo[slot]))
            }
        }
    }

    /// What an inner subscription draws as: its nodes (kind, type, call site, state) and edges,
    /// ends outside it named by id.
    func signature(of ids: [UInt64]) -> String {
        var offset: [UInt64: Int] = [:]
        for (index, id) in ids.enumerated() { offset[id] = index }
        var parts = ids.map { id -> String in
            let node = graph.node(at: graph.position(of: id)!)!
            let state =
                leaked.contains(node.id)
                ? "leaked" : (node.disposed != nil || node.deinitialized != nil ? "gone" : "alive")
            return "\(node.kind.rawValue)|\(node.type)|\(node.callSite ?? "")|\(state)"
        }
        var edgeParts: [String] = []
        for id in ids {
            let position = graph.position(of: id)!
            let here = offset[id]!
            for slot in graph.outgoing(position) {
                let to = graph.id(at: Int(graph.outTo[slot]))
                let relation = graph.outRelation[slot].rawValue
                if let there = offset[to] {
                    edgeParts.append("\(here)-\(relation)->\(there)")
                } else {
                    edgeParts.append("\(here)-\(relation)->#\(to)")
                }
            }
            for slot in graph.incoming(position) {
                let from = graph.id(at: Int(graph.inFrom[slot]))
                if offset[from] == nil { edgeParts.append("#\(from)-\(graph.inRelation[slot].rawValue)->\(here)") }
            }
        }
        parts.append(edgeParts.sorted().joined(separator: ","))
        return parts.joined(separator: ";")
    }
}

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

    /// The first `limit` top-level subscriptions of `structure` (all of them by default).
    package static func subscriptions(of structure: TraceStructure, limit: Int = .max) -> [TraceSubscriptionInfo] {
        structure.subscriptions.prefix(limit).map {
            TraceSubscriptionInfo(
                number: $0.number, root: structure.byID[$0.root]!, nodeCount: $0.nodeCount,
                innerCount: $0.inner.count)
        }
    }
}

/// Union-find over node positions, with path halving; the smaller position becomes the root, so
/// results are deterministic.
private struct PositionUnionFind {
    private var parent: [Int32]

    /// Every position its own piece.
    init(count: Int) { parent = (0..<Int32(count)).map { $0 } }

    mutating func find(_ position: Int32) -> Int32 {
        var current = position
        while parent[Int(current)] != current {
            let grand = parent[Int(parent[Int(current)])]
            parent[Int(current)] = grand
            current = grand
        }
        return current
    }

    mutating func union(_ a: Int, _ b: Int) {
        let ra = find(Int32(a)), rb = find(Int32(b))
        if ra != rb { parent[Int(max(ra, rb))] = min(ra, rb) }
    }

    /// `positions` each their own piece again.
    mutating func reset(_ positions: [Int]) {
        for position in positions { parent[position] = Int32(position) }
    }
}
