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
        self.init(document, graph: TraceGraphIndex(document))
    }

    /// The report over `graph`, the index of `document` (`TraceStructure` shares its own).
    init(_ document: TraceDocument, graph: TraceGraphIndex) {
        let all = graph.nodes
        let count = all.count
        func open(_ node: TraceNode) -> Bool {
            node.deinitialized == nil && node.disposed == nil
        }
        func finished(_ node: TraceNode) -> Bool {
            node.disposed != nil || node.terminated != nil
        }
        func isDisposable(_ position: Int) -> Bool { position < count && all[position].kind == .disposable }

        // Open sinks, observers and scheduled items whose subscription is still running (not
        // fed by a sink that finished).
        var leaked = [Bool](repeating: false, count: count)
        for (position, node) in all.enumerated() where open(node) && node.terminated == nil {
            switch node.kind {
            case .sink, .observer, .scheduled: break
            default: continue
            }
            let fedByFinished = graph.incoming(position).contains { slot in
                let feeder = Int(graph.inFrom[slot])
                return graph.inRelation[slot] == .forward && feeder < count && finished(all[feeder])
            }
            if !fedByFinished { leaked[position] = true }
        }

        // Open disposables owning, transitively, one of those: a depth-first walk over `owns`
        // edges, each answer kept (a disposable met again on the current path counts as owning
        // nothing, as a cycle adds nothing).
        var memo = [Int8](repeating: -1, count: count)
        var visiting = [Bool](repeating: false, count: count)
        var stack: [(position: Int, slot: Int)] = []
        func ownsLeak(_ start: Int) -> Bool {
            if memo[start] >= 0 { return memo[start] == 1 }
            visiting[start] = true
            stack.append((start, graph.outgoing(start).lowerBound))
            var returned: Bool? = nil
            while let (position, first) = stack.last {
                var result: Bool? = nil
                if returned == true { result = true }
                returned = nil
                if result == nil {
                    let end = graph.outgoing(position).upperBound
                    var slot = first
                    var descended = false
                    while slot < end {
                        defer { slot += 1 }
                        guard graph.outRelation[slot] == .owns else { continue }
                        let child = Int(graph.outTo[slot])
                        if child < count && leaked[child] {
                            result = true
                            break
                        }
                        guard isDisposable(child) else { continue }
                        if memo[child] >= 0 {
                            if memo[child] == 1 {
                                result = true
                                break
                            }
                            continue
                        }
                        if visiting[child] { continue }
                        stack[stack.count - 1].slot = slot + 1
                        visiting[child] = true
                        stack.append((child, graph.outgoing(child).lowerBound))
                        descended = true
                        break
                    }
                    if descended { continue }
                }
                let answer = result ?? false
                visiting[position] = false
                memo[position] = answer ? 1 : 0
                stack.removeLast()
                returned = answer
            }
            return memo[start] == 1
        }
        var leakedDisposable = [Bool](repeating: false, count: count)
        var frontier: [Int] = []
        for (position, node) in all.enumerated() where node.kind == .disposable && open(node) {
            if ownsLeak(position) {
                leakedDisposable[position] = true
                frontier.append(position)
            }
        }
        // Open disposables held by a leaked disposable (the handler's `Disposables.create()`).
        while let position = frontier.popLast() {
            for slot in graph.outgoing(position) where graph.outRelation[slot] == .owns {
                let child = Int(graph.outTo[slot])
                guard isDisposable(child), open(all[child]), !leakedDisposable[child] else { continue }
                leakedDisposable[child] = true
                frontier.append(child)
            }
        }

        var found: [TraceNode] = []
        var roots: [TraceNode] = []
        for (position, node) in all.enumerated() where leaked[position] || leakedDisposable[position] {
            found.append(node)
            let ownedByLeak = graph.incoming(position).contains { slot in
                let owner = Int(graph.inFrom[slot])
                return graph.inRelation[slot] == .owns && owner < count && leakedDisposable[owner]
            }
            if node.kind == .disposable && !ownedByLeak { roots.append(node) }
        }
        if zip(found, found.dropFirst()).contains(where: { $0.id > $1.id }) {
            found.sort { $0.id < $1.id }
            roots.sort { $0.id < $1.id }
        }
        nodes = found
        self.roots = roots

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
        aliveAtEnd = document.nodes.reduce(0) { $0 + ($1.deinitialized == nil ? 1 : 0) }
        liveAtEnd = document.resources.max { $0.seq < $1.seq }?.total
        peakLive = document.resources.map(\.total).max()
        anomalies = document.nodes.flatMap { node in node.anomalies.map { (node: node, anomaly: $0) } }
            .sorted { $0.anomaly.seq < $1.anomaly.seq }
        self.leaks = leaks ?? TraceLeakReport(document)
        cutAt = document.meta["cut"].flatMap { $0.hasPrefix("seq ") ? UInt64($0.dropFirst(4)) : nil }
        lastSeq = document.nodes.reduce(counts.lastSeq) {
            max($0, $1.created, $1.disposed ?? 0, $1.deinitialized ?? 0, $1.terminated ?? 0)
        }
        lastEventTime = counts.lastEventTime
        var names: [String] = []
        var seen = Set<String>()
        for name in document.nodes.lazy.compactMap(\.thread) where seen.insert(name).inserted { names.append(name) }
        for name in counts.threads where seen.insert(name).inserted { names.append(name) }
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
