/// What a trace left alive: the subscriptions that were never disposed and never terminated,
/// with the call sites that made them, and the roots that hold them.
///
/// ```swift
/// let report = Trace.leaks(in: document)          // or TraceLeakReport(document)
/// for root in report.roots {
///     print(root.node.type, root.node.callSite ?? "?", root.cause, root.types)
///     // DisposeBag ViewModel.swift:12 stillOwned ["SinkDisposer": 2, "MapSink": 2, …]
/// }
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
/// are never reported as leaked nodes; a subject can be a root (below). Termination is read from
/// the nodes, not from the event ring, so it holds even when events were dropped or not kept
/// (`RXTRACE_KEEP=graph`).
///
/// **Roots.** What keeps leaked nodes alive, read from the edges: a disposable holds what it owns
/// until it is disposed, a sink (or an inner observer) the observer it forwards to, a subject its
/// subscribers until it is disposed or terminated, and a sink the `SinkDisposer` that owns it (its
/// `cancel`: the two hold each other). A root is an object alive at the end that holds leaked
/// nodes and that nothing alive in the trace holds (a cycle, like a sink and its disposer, counts
/// as one): something outside Rx keeps it (a view model's `DisposeBag`, user code's subject), or
/// nothing visible does (a subscription whose disposable was dropped, kept by its own cycle and a
/// scheduler's or callback's reference). Each root comes with what it holds, counted by type and
/// by call site.
///
/// `TraceLeakReport(document, at: seq)` asks the same as of an earlier moment of the run (nodes
/// born after it do not count; disposals, terminations and deinits after it have not happened):
/// what a test left open when it ended (`TraceTestReport`).
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

    /// An object alive at the end that holds leaked nodes and that nothing alive in the trace
    /// holds, with what it holds.
    public struct Root: Sendable, Equatable {
        /// Why it is still there, as far as the trace can tell.
        public enum Cause: String, Sendable, Equatable, CaseIterable {
            /// A subject still alive, not disposed, not terminated: it holds its subscribers.
            case subject
            /// A `DisposeBag` or `CompositeDisposable` still alive and never disposed: its owner
            /// (a view model, a test case) is still alive.
            case container
            /// A subscription's disposable, still alive and never disposed: whoever holds it
            /// (user code, outside Rx) is still alive.
            case disposable
            /// A subscription whose disposable was dropped (deinitialised): its sink and its
            /// `SinkDisposer` hold each other, and whatever feeds it (a scheduler, a callback)
            /// holds the sink.
            case dropped
            /// A subscription (or an observer) nothing in the trace holds: its disposable was
            /// never a node of the trace, or is held outside Rx.
            case unheld

            /// One line for people.
            public var explanation: String {
                switch self {
                case .subject: "a subject still alive, never disposed nor terminated: it holds its subscribers"
                case .container: "still alive and never disposed: whatever owns it is still alive"
                case .disposable: "a subscription's disposable, still alive and never disposed"
                case .dropped:
                    "a subscription whose disposable was dropped: its sink and SinkDisposer hold each other, "
                        + "and what feeds it holds the sink"
                case .unheld: "nothing in the trace holds it (a scheduler, a callback or code outside Rx does)"
                }
            }
        }

        /// The object: the one to look for in the code that made it (`callSite`).
        public var node: TraceNode
        public var cause: Cause
        /// The other nodes it is one with (its sink or `SinkDisposer`, when they hold each
        /// other), in id order.
        public var cycle: [TraceNode]
        /// The leaked nodes it holds, itself included when it is one, in id order.
        public var held: [TraceNode]

        /// How many held nodes of each type, most first, then by name.
        public var types: [(type: String, count: Int)] { Self.counts(held.map(\.type)) }
        /// How many held nodes each call site made, most first, then by call site.
        public var callSites: [(callSite: String, count: Int)] {
            Self.counts(held.map { $0.callSite ?? "unknown call site" }).map { (callSite: $0.type, count: $0.count) }
        }

        static func counts(_ names: [String]) -> [(type: String, count: Int)] {
            names.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
                .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .map { (type: $0.key, count: $0.value) }
        }

        public static func == (lhs: Root, rhs: Root) -> Bool {
            lhs.node == rhs.node && lhs.cause == rhs.cause && lhs.cycle == rhs.cycle && lhs.held == rhs.held
        }
    }

    /// Leaked nodes in id order.
    public let nodes: [TraceNode]
    /// Grouped by call site, groups in order of their first node.
    public let groups: [Group]
    /// What holds the leaked nodes, in id order of `Root.node`; every leaked node is held by at
    /// least one root.
    public let roots: [Root]
    /// The leaked disposables no leaked disposable owns: one per leaked subscription handed to
    /// user code (what `subscribe` returned and was neither disposed nor put in a disposed bag).
    public let rootDisposables: [TraceNode]
    /// The `seq` the report is as of (nil: the end of the trace).
    public let seq: UInt64?

    public var isEmpty: Bool { nodes.isEmpty }

    public init(_ document: TraceDocument) {
        self.init(document, graph: TraceGraphIndex(document))
    }

    /// What was open at `seq`, as the end of the trace would be read at that moment.
    public init(_ document: TraceDocument, at seq: UInt64) {
        self.init(document, graph: TraceGraphIndex(document), at: seq)
    }

    /// The report over `graph`, the index of `document` (`TraceStructure` shares its own).
    init(_ document: TraceDocument, graph: TraceGraphIndex, at seq: UInt64? = nil, findingRoots: Bool = true) {
        let moment = Moment(seq: seq ?? .max)
        let all = graph.nodes
        let count = all.count
        func open(_ node: TraceNode) -> Bool { moment.alive(node) && !moment.has(node.disposed) }
        func finished(_ node: TraceNode) -> Bool { moment.has(node.disposed) || moment.has(node.terminated) }
        func isDisposable(_ position: Int) -> Bool { position < count && all[position].kind == .disposable }

        // Open sinks, observers and scheduled items whose subscription is still running (not
        // fed by a sink that finished).
        var leaked = [Bool](repeating: false, count: count)
        for (position, node) in all.enumerated() where open(node) && !moment.has(node.terminated) {
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
        var rootDisposables: [TraceNode] = []
        var isLeak = [Bool](repeating: false, count: count)
        for (position, node) in all.enumerated() where leaked[position] || leakedDisposable[position] {
            found.append(node)
            isLeak[position] = true
            let ownedByLeak = graph.incoming(position).contains { slot in
                let owner = Int(graph.inFrom[slot])
                return graph.inRelation[slot] == .owns && owner < count && leakedDisposable[owner]
            }
            if node.kind == .disposable && !ownedByLeak { rootDisposables.append(node) }
        }
        if zip(found, found.dropFirst()).contains(where: { $0.id > $1.id }) {
            found.sort { $0.id < $1.id }
            rootDisposables.sort { $0.id < $1.id }
        }
        nodes = found
        self.rootDisposables = rootDisposables
        self.seq = seq
        roots = findingRoots ? HoldGraph(graph, moment).roots(of: isLeak) : []

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

    /// One paragraph per root: `DisposeBag #7 at main.swift:3 holds 4 leaked nodes: …`.
    public var description: String {
        if isEmpty { return "no leaks" }
        return roots.map { root in
            "\(root.node.type) #\(root.node.id) at \(root.node.callSite ?? "unknown call site") holds "
                + "\(root.held.count) leaked node\(root.held.count == 1 ? "" : "s"): "
                + root.types.map { "\($0.type) \($0.count)" }.joined(separator: ", ")
        }.joined(separator: "\n")
    }
}

/// A moment of the run: what has happened by `seq` (`.max`: the end of the trace).
struct Moment {
    let seq: UInt64

    func has(_ happened: UInt64?) -> Bool { happened.map { $0 <= seq } ?? false }
    /// Born by then and not deinitialised yet.
    func alive(_ node: TraceNode) -> Bool { node.created <= seq && !has(node.deinitialized) }
}

/// Who holds whom among the nodes alive at a moment, read from the edges (`TraceLeakReport`'s
/// roots): a disposable holds what it owns until it is disposed; a sink (or an inner observer,
/// a connection) holds what it forwards to; a subject holds its subscribers until it is disposed
/// or terminated; a sink holds the `SinkDisposer` that owns it (its `cancel`).
struct HoldGraph {
    let graph: TraceGraphIndex
    let moment: Moment

    init(_ graph: TraceGraphIndex, _ moment: Moment) {
        self.graph = graph
        self.moment = moment
    }

    private func alive(_ position: Int) -> Bool {
        position < graph.nodeCount && moment.alive(graph.nodes[position])
    }

    /// Still holding what it holds by its `owns` or `subscribes` edges.
    private func holding(_ position: Int) -> Bool {
        let node = graph.nodes[position]
        if moment.has(node.disposed) { return false }
        return node.kind != .subject || !moment.has(node.terminated)
    }

    private func isSinkDisposer(_ position: Int) -> Bool {
        position < graph.nodeCount && graph.nodes[position].type == "SinkDisposer"
    }

    /// The live nodes holding `position`.
    func holders(of position: Int, _ body: (Int) -> Void) {
        for slot in graph.incoming(position) {
            let other = Int(graph.inFrom[slot])
            guard alive(other) else { continue }
            switch graph.inRelation[slot] {
            case .owns: if holding(other) { body(other) }
            case .forward: body(other)
            default: break
            }
        }
        for slot in graph.outgoing(position) {
            let other = Int(graph.outTo[slot])
            guard alive(other) else { continue }
            switch graph.outRelation[slot] {
            case .subscribes: if holding(other) { body(other) }
            case .owns: if isSinkDisposer(position) && graph.nodes[other].kind == .sink { body(other) }
            default: break
            }
        }
    }

    /// The live nodes `position` holds.
    func held(by position: Int, _ body: (Int) -> Void) {
        let holds = holding(position)
        for slot in graph.outgoing(position) {
            let other = Int(graph.outTo[slot])
            guard alive(other) else { continue }
            switch graph.outRelation[slot] {
            case .owns: if holds { body(other) }
            case .forward: body(other)
            default: break
            }
        }
        for slot in graph.incoming(position) {
            let other = Int(graph.inFrom[slot])
            guard alive(other) else { continue }
            switch graph.inRelation[slot] {
            case .subscribes: if holds && graph.nodes[position].kind == .subject { body(other) }
            case .owns: if isSinkDisposer(other) && graph.nodes[position].kind == .sink { body(other) }
            default: break
            }
        }
    }

    /// The roots holding the nodes marked in `leaked` (by position), in id order.
    func roots(of leaked: [Bool]) -> [TraceLeakReport.Root] {
        let count = graph.nodeCount
        // The leaked nodes and everything alive above them.
        var inSet = [Bool](repeating: false, count: count)
        var members: [Int] = []
        for position in 0..<count where leaked[position] {
            inSet[position] = true
            members.append(position)
        }
        guard !members.isEmpty else { return [] }
        var next = 0
        while next < members.count {
            let position = members[next]
            next += 1
            holders(of: position) { holder in
                if !inSet[holder] {
                    inSet[holder] = true
                    members.append(holder)
                }
            }
        }
        // Strongly connected components (Tarjan's, without recursion) of the hold edges among
        // them, so that a sink and its SinkDisposer count as one.
        let unvisited = -1
        var index = [Int](repeating: unvisited, count: count)
        var low = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var component = [Int](repeating: -1, count: count)
        var components: [[Int]] = []
        var tarjan: [Int] = []
        var counter = 0
        for start in members where index[start] == unvisited {
            var work: [(position: Int, children: [Int], next: Int)] = []
            func enter(_ position: Int) {
                index[position] = counter
                low[position] = counter
                counter += 1
                tarjan.append(position)
                onStack[position] = true
                var children: [Int] = []
                held(by: position) { if inSet[$0] { children.append($0) } }
                work.append((position, children, 0))
            }
            enter(start)
            while !work.isEmpty {
                let top = work.count - 1
                let position = work[top].position
                if work[top].next < work[top].children.count {
                    let child = work[top].children[work[top].next]
                    work[top].next += 1
                    if index[child] == unvisited {
                        enter(child)
                    } else if onStack[child] {
                        low[position] = min(low[position], index[child])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.position { low[parent] = min(low[parent], low[position]) }
                if low[position] == index[position] {
                    var cycle: [Int] = []
                    while let popped = tarjan.popLast() {
                        onStack[popped] = false
                        component[popped] = components.count
                        cycle.append(popped)
                        if popped == position { break }
                    }
                    components.append(cycle)
                }
            }
        }
        // A root component: no live holder outside it.
        var isHeld = [Bool](repeating: false, count: components.count)
        for position in members {
            held(by: position) { child in
                if inSet[child], component[child] != component[position] { isHeld[component[child]] = true }
            }
        }
        var roots: [TraceLeakReport.Root] = []
        var seen = [Int](repeating: -1, count: count)
        for (number, positions) in components.enumerated() where !isHeld[number] {
            // What it holds: the leaked nodes reachable from it.
            var reached: [Int] = []
            var queue = positions
            for position in positions { seen[position] = number }
            while let position = queue.popLast() {
                if leaked[position] { reached.append(position) }
                held(by: position) { child in
                    if inSet[child], seen[child] != number {
                        seen[child] = number
                        queue.append(child)
                    }
                }
            }
            guard !reached.isEmpty else { continue }
            let representative = positions.min { rank($0) < rank($1) }!
            let node = graph.nodes[representative]
            roots.append(
                TraceLeakReport.Root(
                    node: node, cause: cause(of: positions, representative),
                    cycle: positions.filter { $0 != representative }.map { graph.nodes[$0] }.sorted { $0.id < $1.id },
                    held: reached.map { graph.nodes[$0] }.sorted { $0.id < $1.id }))
        }
        return roots.sorted { $0.node.id < $1.node.id }
    }

    /// Which node of a cycle stands for it: a subject, then a container or other disposable, a
    /// `SinkDisposer`, a sink, an observer; the oldest among equals.
    private func rank(_ position: Int) -> (Int, UInt64) {
        let node = graph.nodes[position]
        let order: Int
        switch node.kind {
        case .subject: order = 0
        case .disposable: order = node.type == "SinkDisposer" ? 2 : 1
        case .sink: order = 3
        case .observer: order = 4
        default: order = 5
        }
        return (order, node.id)
    }

    private func cause(of positions: [Int], _ representative: Int) -> TraceLeakReport.Root.Cause {
        let node = graph.nodes[representative]
        switch node.kind {
        case .subject: return .subject
        case .disposable where node.type != "SinkDisposer":
            return node.type == "DisposeBag" || node.type == "CompositeDisposable" ? .container : .disposable
        default: break
        }
        // A disposer (or a sink) nothing live holds: was it handed to something since let go?
        let dropped = positions.contains { position in
            graph.incoming(position).contains { slot in
                let owner = Int(graph.inFrom[slot])
                return graph.inRelation[slot] == .owns && owner < graph.nodeCount
                    && moment.has(graph.nodes[owner].deinitialized)
            }
        }
        if dropped { return .dropped }
        return node.kind == .disposable && positions.count == 1 ? .disposable : .unheld
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
                "  \(anomaly.kind.rawValue) on \(node.type) #\(node.id)"
                    + "\(node.callSite.map { " at \($0)" } ?? ""): \(anomaly.detail)"
            )
        }
        if let cutAt {
            lines.insert(
                "cut short at seq \(cutAt) (no end record): the run stopped before the trace was finished", at: 0)
            lines.append(
                "open at the cut: \(leaks.nodes.count) nodes at \(leaks.groups.count) call sites (not called leaks: "
                    + "the run was cut short, they may have been about to finish)"
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
