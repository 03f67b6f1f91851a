import Foundation
import RxTrace
import Testing
import TraceFixtures

@testable import RxGraphviz

/// `TraceStructure` and `TraceLeakReport` work over node positions (arrays by position, edges as
/// slices of sorted arrays); `ReferenceStructure` and `ReferenceLeaks` below are the earlier
/// dictionary-and-set versions, kept as the specification: both must find the same
/// subscriptions, inner subscriptions (signatures included), producers, observables and leaks,
/// on hand-made and recorded traces, with dense or far-apart ids, sorted or not.
@Suite(.serialized) struct StructureEquivalenceTests {
    /// Everything a structure says, as lines.
    private func lines(_ structure: TraceStructure) -> [String] {
        var lines = structure.subscriptions.map { s in
            "\(s.number) root \(s.root) nodes \(s.nodes) all \(s.allNodes.sorted()) count \(s.nodeCount) "
                + "producers \(s.producers.sorted())"
                + s.inner.map { " inner \($0.nodes) \($0.signature)" }.joined()
        }
        lines.append("observables \(structure.observables)")
        lines.append("leaked \(structure.leaked.sorted())")
        lines.append("leak nodes \(structure.leaks.nodes.map(\.id)) roots \(structure.leaks.rootDisposables.map(\.id))")
        for s in structure.subscriptions {
            for id in s.allNodes.sorted() {
                lines.append("\(id) in \(structure.subscription(containing: id)?.number ?? 0)")
            }
        }
        return lines
    }

    private func lines(_ structure: ReferenceStructure) -> [String] {
        var lines = structure.subscriptions.map { s in
            "\(s.number) root \(s.root) nodes \(s.nodes) all \(s.allNodes.sorted()) count \(s.allNodes.count) "
                + "producers \(s.producers.sorted())"
                + s.inner.map { " inner \($0.nodes) \($0.signature)" }.joined()
        }
        lines.append("observables \(structure.observables)")
        lines.append("leaked \(structure.leaked.sorted())")
        lines.append("leak nodes \(structure.leaks.nodes) roots \(structure.leaks.roots)")
        for s in structure.subscriptions {
            for id in s.allNodes.sorted() {
                lines.append("\(id) in \(structure.subscription(containing: id)?.number ?? 0)")
            }
        }
        return lines
    }

    private func expectSame(_ document: TraceDocument, sourceLocation: SourceLocation = #_sourceLocation) {
        let new = lines(TraceStructure(document))
        let old = lines(ReferenceStructure(document))
        #expect(new == old, sourceLocation: sourceLocation)
        #expect(
            TraceLeakReport(document).nodes.map(\.id) == ReferenceLeaks(document).nodes, sourceLocation: sourceLocation)
    }

    /// The same trace with ids far apart (beyond what an array by id holds) and nodes out of order.
    private func sparse(_ document: TraceDocument) -> TraceDocument {
        func map(_ id: UInt64) -> UInt64 { id == 0 ? 0 : id * 1_000_003 + 17 }
        var copy = document
        copy.nodes = document.nodes.map { node in
            var node = node
            node.id = map(node.id)
            return node
        }.reversed()
        copy.edges = document.edges.map { TraceEdge(from: map($0.from), to: map($0.to), relation: $0.relation) }
        copy.steps = document.steps.map { step in
            var step = step
            step.from = map(step.from)
            step.to = map(step.to)
            return step
        }
        copy.events = document.events.map { event in
            var event = event
            event.node = map(event.node)
            return event
        }
        return copy
    }

    @Test func handMadeTraces() {
        for document in [
            Fixtures.reference(), Fixtures.reference(disposed: false), Fixtures.mapSubject(),
            Fixtures.flatMapJust(count: 3), Fixtures.manyChains(count: 4),
        ] {
            #expect(!TraceStructure(document).subscriptions.isEmpty)
            expectSame(document)
            expectSame(sparse(document))
        }
    }

    /// Recorded `flatMap`s (`of` runs a sink per element, `just` none), nested, some left open
    /// when the recording ends (so its nodes are leaked in the trace; disposed afterwards).
    @Test func recordedTracesWithInnerSubscriptionsAndLeaks() throws {
        var sum = 0
        var open: [Disposable] = []
        let trace = checkingNoLeaks {
            let trace = Trace.record {
                let subject = PublishSubject<Int>()
                let source = Observable.from(Array(0..<6))
                _ = source.flatMap { Observable.of($0, $0) }.subscribe(onNext: { sum += $0 })
                _ = source.flatMap { Observable.just($0) }.subscribe(onNext: { sum += $0 })
                _ = source.flatMap { value in Observable.of(value).flatMap { Observable.just($0 + 1) } }
                    .subscribe(onNext: { sum += $0 })
                open.append(subject.flatMap { Observable.just($0) }.subscribe(onNext: { sum += $0 }))
                open.append(subject.map { $0 * 2 }.subscribe(onNext: { sum += $0 }))
                subject.onNext(5)
                let done = subject.filter { $0 > 0 }.subscribe(onNext: { sum += $0 })
                done.dispose()
            }
            for disposable in open { disposable.dispose() }
            open.removeAll()
            return trace
        }
        #expect(sum == 30 + 15 + 21 + 5 + 10)
        let structure = TraceStructure(trace)
        #expect(structure.subscriptions.contains { $0.inner.count == 6 })
        #expect(!structure.leaked.isEmpty)
        expectSame(trace)
        expectSame(sparse(trace))
    }
}

/// The earlier `TraceStructure`, by id with dictionaries and sets.
struct ReferenceStructure {
    struct Subscription {
        /// 1-based, in order of the subscription's first node.
        var number: Int
        /// The observer at the end of the chain (no outgoing `forward`), or the first node.
        var root: UInt64
        /// Every node of the subscription outside its inner subscriptions, in id order.
        var nodes: [UInt64]
        var inner: [InnerSubscription]
        /// All node ids, inner ones included.
        var allNodes: Set<UInt64>
        /// Producers whose sinks are in this subscription (source chain included).
        var producers: Set<UInt64>
    }

    struct InnerSubscription {
        /// In id order; producers made for it come first.
        var nodes: [UInt64]
        /// Equal for inner subscriptions that draw the same.
        var signature: String
    }

    let document: TraceDocument
    let byID: ReferenceLookup
    /// What was left open (`leaked` is its nodes' ids).
    let leaks: ReferenceLeaks
    let leaked: Set<UInt64>
    let subscriptions: [Subscription]
    /// Producers, observables and subjects not owned by an inner subscription, in id order.
    let observables: [UInt64]
    /// Which subscription each subscription-side node belongs to (index into `subscriptions`).
    let subscriptionOf: [UInt64: Int]

    static let subscriptionKinds: Set<TraceNodeKind> = [.sink, .observer, .disposable, .scheduled]

    init(_ document: TraceDocument) {
        self.document = document
        let byID = ReferenceLookup(document.nodes)
        self.byID = byID
        leaks = ReferenceLeaks(document)
        leaked = leaks.leaked

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
        var finder = ReferenceUnionFind()
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
                var workers = ReferenceUnionFind()
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
            var innerFinder = ReferenceUnionFind()
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
    func subscription(containing id: UInt64) -> Subscription? {
        if let index = subscriptionOf[id] { return subscriptions[index] }
        return subscriptions.first { $0.allNodes.contains(id) }
    }
}

/// The earlier node lookup: a dictionary of positions.
struct ReferenceLookup {
    private let nodes: [TraceNode]
    private var position: [UInt64: Int] = [:]

    init(_ nodes: [TraceNode]) {
        self.nodes = nodes
        for (index, node) in nodes.enumerated() { position[node.id] = index }
    }

    subscript(id: UInt64) -> TraceNode? {
        position[id].map { nodes[$0] }
    }
}

/// The earlier `TraceLeakReport`: leaked nodes' ids (in id order) and root disposables' ids.
struct ReferenceLeaks {
    let nodes: [UInt64]
    let roots: [UInt64]
    let leaked: Set<UInt64>

    init(_ document: TraceDocument) {
        let subscriptionKinds: Set<TraceNodeKind> = [.sink, .observer, .scheduled]
        // Positions, not copies: on a large trace a dictionary of nodes would be most of the memory.
        var position: [UInt64: Int] = [:]
        position.reserveCapacity(document.nodes.count)
        for (index, node) in document.nodes.enumerated() { position[node.id] = index }
        func byID(_ id: UInt64) -> TraceNode? { position[id].map { document.nodes[$0] } }

        func open(_ node: TraceNode) -> Bool {
            node.deinitialized == nil && node.disposed == nil
        }
        func finished(_ node: TraceNode) -> Bool {
            node.disposed != nil || node.terminated != nil
        }

        var owned: [UInt64: [UInt64]] = [:] // disposable → what it owns
        var owners: [UInt64: [UInt64]] = [:] // node → its owners
        var feeders: [UInt64: [UInt64]] = [:] // observer → sinks forwarding to it
        for edge in document.edges {
            switch edge.relation {
            case .owns:
                owned[edge.from, default: []].append(edge.to)
                owners[edge.to, default: []].append(edge.from)
            case .forward:
                feeders[edge.to, default: []].append(edge.from)
            default:
                break
            }
        }

        // Open sinks, observers and scheduled items whose subscription is still running.
        var leaked = Set<UInt64>()
        for node in document.nodes where subscriptionKinds.contains(node.kind) && open(node) && node.terminated == nil {
            let fedByFinished = (feeders[node.id] ?? []).contains { byID($0).map(finished) ?? false }
            if !fedByFinished { leaked.insert(node.id) }
        }

        // Open disposables owning, transitively, one of those.
        var memo: [UInt64: Bool] = [:]
        func ownsLeak(_ id: UInt64, _ visiting: inout Set<UInt64>) -> Bool {
            if let known = memo[id] { return known }
            guard visiting.insert(id).inserted else { return false }
            var result = false
            for child in owned[id] ?? [] {
                if leaked.contains(child) { result = true; break }
                if byID(child)?.kind == .disposable, ownsLeak(child, &visiting) { result = true; break }
            }
            visiting.remove(id)
            memo[id] = result
            return result
        }
        var leakedDisposables = Set<UInt64>()
        for node in document.nodes where node.kind == .disposable && open(node) {
            var visiting = Set<UInt64>()
            if ownsLeak(node.id, &visiting) { leakedDisposables.insert(node.id) }
        }
        // Open disposables held by a leaked disposable (the handler's `Disposables.create()`).
        var frontier = Array(leakedDisposables)
        while let id = frontier.popLast() {
            for child in owned[id] ?? [] {
                guard let node = byID(child), node.kind == .disposable, open(node) else { continue }
                if leakedDisposables.insert(child).inserted { frontier.append(child) }
            }
        }
        leaked.formUnion(leakedDisposables)

        let nodes = document.nodes.filter { leaked.contains($0.id) }.sorted { $0.id < $1.id }
        let roots = nodes.filter { node in
            node.kind == .disposable && !(owners[node.id] ?? []).contains { leakedDisposables.contains($0) }
        }

        self.nodes = nodes.map(\.id)
        self.roots = roots.map(\.id)
        self.leaked = Set(self.nodes)
    }
}

struct ReferenceUnionFind {
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
