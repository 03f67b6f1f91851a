/// What a trace left alive: the subscriptions that were never disposed and never terminated,
/// with the call sites that made them.
///
/// ```swift
/// let report = Trace.leaks(in: document)          // or TraceLeakReport(document)
/// for group in report.groups {
///     print(group.callSite, group.nodes.map(\.type))   // main.swift:5 ["AnonymousObserver", …]
/// }
/// ```
///
/// A node is leaked when it is alive at the end of the trace (never deinitialised), was never
/// disposed, and:
/// - for a sink, an observer or a scheduled item: never received `error`/`completed`
///   (`TraceNode.terminated`) and is not fed by a sink (`forward` edge) that was disposed or
///   terminated — its subscription is still open;
/// - for a disposable: it owns (through `owns` edges, transitively) a leaked sink, observer or
///   scheduled item, or it is owned by a leaked disposable.
///
/// So a sequence that completed synchronously is not a leak even while the disposable the user
/// got back is still referenced (rxjs-spy's false positive), and neither is a bag or composite
/// whose members are all finished. Observables, producers and subjects are not subscriptions and
/// are never reported. Termination is read from the nodes, not from the event ring, so it holds
/// even when events were dropped or not kept (`RXTRACE_KEEP=graph`).
public struct TraceLeakReport: Sendable, Equatable {
    /// Leaked nodes sharing one call site.
    public struct Group: Sendable, Equatable {
        /// `main.swift:5`, or `unknown call site`.
        public var callSite: String
        /// The full `#fileID` of the call site (`MyApp/main.swift`), when known.
        public var fileID: String?
        /// In id order.
        public var nodes: [TraceNode]

        /// How many nodes of each type (`["MapSink": 2]`).
        public var types: [String: Int] {
            nodes.reduce(into: [:]) { $0[$1.type, default: 0] += 1 }
        }
    }

    /// Leaked nodes in id order.
    public let nodes: [TraceNode]
    /// Grouped by call site, groups in order of their first node.
    public let groups: [Group]
    /// The leaked disposables no leaked disposable owns: one per leaked subscription handed to
    /// user code (what `subscribe` returned and was neither disposed nor put in a disposed bag).
    public let roots: [TraceNode]

    public var isEmpty: Bool { nodes.isEmpty }

    public init(_ document: TraceDocument) {
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

        nodes = document.nodes.filter { leaked.contains($0.id) }.sorted { $0.id < $1.id }
        roots = nodes.filter { node in
            node.kind == .disposable && !(owners[node.id] ?? []).contains { leakedDisposables.contains($0) }
        }

        var order: [String] = []
        var members: [String: [TraceNode]] = [:]
        var files: [String: String] = [:]
        for node in nodes {
            let site = node.callSite ?? "unknown call site"
            if members[site] == nil { order.append(site) }
            members[site, default: []].append(node)
            if let file = node.fileID { files[site] = file }
        }
        groups = order.map { Group(callSite: $0, fileID: files[$0], nodes: members[$0]!) }
    }

    /// One paragraph per call site: `main.swift:5: AnonymousObserver #2, SinkDisposer #3, …`.
    public var description: String {
        if isEmpty { return "no leaks" }
        return groups.map { group in
            "\(group.callSite): " + group.nodes.map { "\($0.type) #\($0.id)" }.joined(separator: ", ")
        }.joined(separator: "\n")
    }
}

/// Counts and headlines of a trace: what `rxtrace summary` prints, as data.
public struct TraceSummary: Sendable, Equatable, CustomStringConvertible {
    public var nodeCount: Int
    public var nodesByKind: [TraceNodeKind: Int]
    public var nodesByType: [String: Int]
    public var edgesByRelation: [TraceRelation: Int]
    public var stepsByCall: [TraceCall: Int]
    public var eventsByKind: [TraceEventKind: Int]
    public var stepCount: Int
    public var eventCount: Int
    public var resourceSampleCount: Int
    public var dropped: DroppedCounts
    /// Nodes never deinitialised.
    public var aliveAtEnd: Int
    /// Live core objects at the last resource sample (all types, counted or traced or not).
    public var liveAtEnd: Int?
    /// Most live core objects at any sample.
    public var peakLive: Int?
    /// Every anomaly, with its node, in step order.
    public var anomalies: [(node: TraceNode, anomaly: TraceAnomalyRecord)]
    public var leaks: TraceLeakReport
    /// Largest `seq` seen.
    public var lastSeq: UInt64
    /// Time of the last kept event (virtual or seconds), if any.
    public var lastEventTime: Double?
    /// Thread names seen on nodes, steps and events.
    public var threads: [String]
    /// When the trace was cut short (no `end` record): the last `seq` it holds. What was alive
    /// then is not called a leak: `leaks` lists it as open at the cut.
    public var cutAt: UInt64?

    /// The summary of a whole document.
    public init(_ document: TraceDocument) {
        self.init(graph: document, counts: TraceFlowCounts(document))
    }

    /// The summary of a trace read with `TraceDocument.readGraph`: nodes, edges and samples from
    /// `graph`, steps and events from `counts` (the steps and events of `graph` are not counted).
    public init(graph document: TraceDocument, counts: TraceFlowCounts, leaks: TraceLeakReport? = nil) {
        nodeCount = document.nodes.count
        nodesByKind = document.nodes.reduce(into: [:]) { $0[$1.kind, default: 0] += 1 }
        nodesByType = document.nodes.reduce(into: [:]) { $0[$1.type, default: 0] += 1 }
        edgesByRelation = document.edges.reduce(into: [:]) { $0[$1.relation, default: 0] += 1 }
        stepsByCall = counts.stepsByCall
        eventsByKind = counts.eventsByKind
        stepCount = counts.stepCount
        eventCount = counts.eventCount
        resourceSampleCount = document.resources.count
        dropped = document.dropped
        aliveAtEnd = document.nodes.filter { $0.deinitialized == nil }.count
        liveAtEnd = document.resources.max { $0.seq < $1.seq }?.total
        peakLive = document.resources.map(\.total).max()
        anomalies = document.nodes.flatMap { node in node.anomalies.map { (node: node, anomaly: $0) } }
            .sorted { $0.anomaly.seq < $1.anomaly.seq }
        self.leaks = leaks ?? TraceLeakReport(document)
        cutAt = document.meta["cut"].flatMap { $0.hasPrefix("seq ") ? UInt64($0.dropFirst(4)) : nil }
        lastSeq = max(
            document.nodes.map { max($0.created, $0.disposed ?? 0, $0.deinitialized ?? 0, $0.terminated ?? 0) }.max()
                ?? 0,
            counts.lastSeq
        )
        lastEventTime = counts.lastEventTime
        var names: [String] = []
        var seen = Set<String>()
        for name in document.nodes.compactMap(\.thread) + counts.threads where seen.insert(name).inserted {
            names.append(name)
        }
        threads = names
    }

    /// The largest `seq` in `document`.
    static func lastSeq(of document: TraceDocument) -> UInt64 {
        max(
            document.nodes.map { max($0.created, $0.disposed ?? 0, $0.deinitialized ?? 0, $0.terminated ?? 0) }.max()
                ?? 0,
            document.steps.last?.seq ?? 0,
            document.events.last?.seq ?? 0
        )
    }

    public static func == (lhs: TraceSummary, rhs: TraceSummary) -> Bool {
        lhs.description == rhs.description
    }

    /// A few lines: nodes by kind, edges, steps, events, dropped counts, anomalies, leaks.
    public var description: String {
        func list<Key>(_ counts: [Key: Int], _ name: (Key) -> String) -> String {
            counts.map { (name($0.key), $0.value) }.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }.joined(
                separator: ", ")
        }
        var lines: [String] = []
        lines.append("nodes: \(nodeCount) (\(list(nodesByKind, \.rawValue))), \(aliveAtEnd) alive at the end")
        lines.append("edges: \(edgesByRelation.values.reduce(0, +)) (\(list(edgesByRelation, \.rawValue)))")
        lines.append("steps: \(stepCount) kept, \(dropped.steps) dropped")
        lines.append("events: \(eventCount) kept (\(list(eventsByKind, \.rawValue))), \(dropped.events) dropped")
        var resources = "resource samples: \(resourceSampleCount), \(dropped.resources) dropped"
        if let liveAtEnd, let peakLive { resources += "; live at the end \(liveAtEnd), peak \(peakLive)" }
        lines.append(resources)
        lines.append("threads: \(threads.joined(separator: ", "))")
        lines.append("anomalies: \(anomalies.count)")
        for (node, anomaly) in anomalies.prefix(10) {
            lines.append(
                "  \(anomaly.kind.rawValue) on \(node.type) #\(node.id)\(node.callSite.map { " at \($0)" } ?? ""): \(anomaly.detail)"
            )
        }
        if let cutAt {
            lines.insert(
                "cut short at seq \(cutAt) (no end record): the run stopped before the trace was finished", at: 0)
            lines.append(
                "open at the cut: \(leaks.nodes.count) nodes at \(leaks.groups.count) call sites (not called leaks: the run was cut short, they may have been about to finish)"
            )
        } else {
            lines.append("leaked: \(leaks.nodes.count) nodes at \(leaks.groups.count) call sites")
        }
        for group in leaks.groups.prefix(10) {
            lines.append("  \(group.callSite): " + group.nodes.map { "\($0.type) #\($0.id)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}

/// What `TraceSummary` needs of the steps and events, gathered one at a time (so a streamed
/// reader need not keep them).
public struct TraceFlowCounts: Sendable, Equatable {
    public var stepsByCall: [TraceCall: Int] = [:]
    public var eventsByKind: [TraceEventKind: Int] = [:]
    public var stepCount = 0
    public var eventCount = 0
    /// The largest `seq` of a step or event.
    public var lastSeq: UInt64 = 0
    /// The time of the event with the largest `seq`.
    public var lastEventTime: Double?
    private var lastEventSeq: UInt64 = 0
    /// Each thread name's first `seq` on a step, and on an event.
    private var stepThreads: [String: UInt64] = [:]
    private var eventThreads: [String: UInt64] = [:]

    public init() {}

    /// The counts of `document`'s steps and events.
    public init(_ document: TraceDocument) {
        for step in document.steps { add(step) }
        for event in document.events { add(event) }
    }

    public mutating func add(_ step: TraceStep) {
        stepsByCall[step.call, default: 0] += 1
        stepCount += 1
        if step.seq > lastSeq { lastSeq = step.seq }
        if let thread = step.thread, stepThreads[thread].map({ step.seq < $0 }) ?? true {
            stepThreads[thread] = step.seq
        }
    }

    public mutating func add(_ event: TraceEvent) {
        eventsByKind[event.kind, default: 0] += 1
        eventCount += 1
        if event.seq > lastSeq { lastSeq = event.seq }
        if lastEventTime == nil || event.seq >= lastEventSeq {
            lastEventSeq = event.seq
            lastEventTime = event.time
        }
        if let thread = event.thread, eventThreads[thread].map({ event.seq < $0 }) ?? true {
            eventThreads[thread] = event.seq
        }
    }

    /// Thread names of steps in order of first use, then those of events.
    public var threads: [String] {
        func ordered(_ firsts: [String: UInt64]) -> [String] {
            firsts.sorted { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }.map(\.key)
        }
        return ordered(stepThreads) + ordered(eventThreads)
    }
}
