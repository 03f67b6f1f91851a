import Foundation

/// Gathers `rxtrace/2` records into a `TraceDocument` (what `TraceDocument.read` does with a
/// v2 file): lifecycle records land on their nodes, steps, events and samples are put in `seq`
/// order, and references are checked once the whole file is read.
///
/// In a file that was cut short, or whose writer dropped nodes, a record may name a node the file
/// does not hold (its chunk was never written, or was dropped): such records are left out and
/// counted in `meta["dangling"]`. In a complete file it is an error.
public struct TraceDocumentBuilder {
    private var nodes: [TraceNode] = []
    /// Where each node is in `nodes`: ids are small and dense (a counter from 1), so an array
    /// by id, with a dictionary for ids far above the count.
    private var index = NodeIndex()
    private var pending: [UInt64: [TraceFileRecord]] = [:]
    private var edges: [TraceEdge] = []
    private var steps: [TraceStep] = []
    private var events: [TraceEvent] = []
    private var resources: [ResourceSample] = []
    private var marks: [TraceMark] = []
    /// What a builder keeps.
    public enum Keep: Sendable {
        /// Every record: the whole document.
        case everything
        /// The graph (nodes, edges, resource samples) and the `subscribe` steps that tell
        /// subscriptions apart; not the other steps, nor events (analyses count them as they
        /// pass, see `TraceFlowCounts`).
        case graph
    }

    public let keep: Keep

    public init(keep: Keep = .everything) { self.keep = keep }

    /// Adds one record.
    public mutating func add(_ record: TraceFileRecord, path: String = "<data>") throws(TraceFileError) {
        switch record {
        case .node(let node):
            guard index[node.id] == nil else { throw .invalid(path: path, reason: "node \(node.id) appears twice") }
            index.insert(node.id, nodes.count)
            nodes.append(node)
            if let waiting = pending.removeValue(forKey: node.id) {
                for record in waiting { apply(record, to: nodes.count - 1) }
            }
        case .edge(let edge): edges.append(edge)
        case .step(let step): if keep == .everything || step.call == .subscribe { steps.append(step) }
        case .event(let event): if keep == .everything { events.append(event) }
        case .resource(let sample): resources.append(sample)
        case .mark(let mark): marks.append(mark)
        case .disposed(let id, _, _), .deinitialized(let id, _, _), .terminated(let id, _, _), .anomaly(let id, _):
            if let position = index[id] {
                apply(record, to: position)
            } else {
                pending[id, default: []].append(record)
            }
        case .drop, .end: break
        }
    }

    private mutating func apply(_ record: TraceFileRecord, to position: Int) {
        switch record {
        // The earliest of each (two threads may both note a node's disposal, and their lines
        // need not come in `seq` order).
        case .disposed(_, let seq, let time):
            Self.keepEarliest(&nodes[position], \.disposed, \.disposedAt, seq, time)
        case .deinitialized(_, let seq, let time):
            Self.keepEarliest(&nodes[position], \.deinitialized, \.deinitializedAt, seq, time)
        case .terminated(_, let seq, let time):
            Self.keepEarliest(&nodes[position], \.terminated, \.terminatedAt, seq, time)
        case .anomaly(_, let anomaly):
            nodes[position].anomalies.append(anomaly)
            let anomalies = nodes[position].anomalies
            if anomalies.count > 1, anomalies[anomalies.count - 2].seq > anomaly.seq {
                nodes[position].anomalies.sort { $0.seq < $1.seq }
            }
        default: break
        }
    }

    /// The earliest `seq` of a change to `node` (at `seqPath`), and the time that came with it.
    private static func keepEarliest(
        _ node: inout TraceNode, _ seqPath: WritableKeyPath<TraceNode, UInt64?>,
        _ timePath: WritableKeyPath<TraceNode, Double?>, _ seq: UInt64, _ time: Double?
    ) {
        guard node[keyPath: seqPath].map({ seq < $0 }) ?? true else { return }
        node[keyPath: seqPath] = seq
        node[keyPath: timePath] = time
    }

    /// Puts the nodes in id order, in place (no copy, no sort buffer: on a large trace read from
    /// several writer threads each would be as large as the nodes), and the index with them.
    private mutating func sortNodesByID() {
        guard nodes.indices.dropFirst().contains(where: { nodes[$0 - 1].id > nodes[$0].id }) else { return }
        // order[k]: where the node that goes to k is now. Applied along its cycles.
        var order = index.positionsInIDOrder()
        for start in order.indices where order[start] != start {
            let held = nodes[start]
            var slot = start
            while order[slot] != start {
                let from = order[slot]
                nodes[slot] = nodes[from]
                order[slot] = slot
                slot = from
            }
            nodes[slot] = held
            order[slot] = slot
        }
        index = NodeIndex()
        for (position, node) in nodes.enumerated() { index.insert(node.id, position) }
    }

    /// The document, given what the reader found; checks references.
    public mutating func document(
        _ status: TraceReadStatus, path: String = "<data>"
    ) throws(TraceFileError)
        -> TraceDocument
    {
        sortNodesByID()
        let tolerant = status.cutShort || status.dropped.nodes > 0
        var dangling = 0
        for (id, records) in pending {
            guard tolerant else {
                throw .invalid(path: path, reason: "a lifecycle record names missing node \(id)")
            }
            dangling += records.count
        }
        func known(_ id: UInt64) -> Bool { index[id] != nil }
        var edges = edges
        var events = events
        if tolerant {
            let edgeCount = edges.count
            let eventCount = events.count
            edges.removeAll { !known($0.from) || !known($0.to) }
            events.removeAll { !known($0.node) }
            dangling += edgeCount - edges.count + eventCount - events.count
        }
        var meta = status.meta
        if status.cutShort { meta["cut"] = "seq \(status.lastSeq)" }
        if dangling > 0 { meta["dangling"] = "\(dangling)" }
        var steps = steps
        steps.sortIfNeeded()
        events.sortIfNeeded()
        var resources = resources
        resources.sortIfNeeded()
        var marks = marks
        marks.sortIfNeeded()
        let document = TraceDocument(
            meta: meta, nodes: nodes, edges: edges, steps: steps, events: events,
            resources: resources,
            dropped: DroppedCounts(
                steps: status.dropped.steps, events: status.dropped.events, resources: status.dropped.resources),
            marks: marks)
        try document.validate(path: path)
        return document
    }
}

/// Node id → position, an array for dense ids and a dictionary for the rest.
struct NodeIndex {
    private var dense: [Int32] = []
    private var sparse: [UInt64: Int] = [:]

    subscript(id: UInt64) -> Int? {
        if id < UInt64(dense.count), dense[Int(id)] >= 0 { return Int(dense[Int(id)]) }
        return sparse.isEmpty ? nil : sparse[id]
    }

    /// Every position, in order of the ids they hold.
    func positionsInIDOrder() -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(sparse.count + dense.count)
        // A sparse id may be below dense ones (it came when the count, and so the array's
        // limit, was smaller): merged.
        let far = sparse.keys.sorted()
        var next = 0
        for (id, position) in dense.enumerated() where position >= 0 {
            while next < far.count, far[next] < UInt64(id) {
                order.append(sparse[far[next]]!)
                next += 1
            }
            order.append(Int(position))
        }
        for id in far[next...] { order.append(sparse[id]!) }
        return order
    }

    mutating func insert(_ id: UInt64, _ position: Int) {
        let limit = UInt64(max(1 << 16, position * 4))
        if id < limit, position < Int(Int32.max) {
            if id >= UInt64(dense.count) {
                dense.append(contentsOf: repeatElement(-1, count: Int(id) - dense.count + 1))
            }
            dense[Int(id)] = Int32(position)
        } else {
            sparse[id] = position
        }
    }
}

protocol Sequenced { var seq: UInt64 { get } }
extension TraceStep: Sequenced {}
extension TraceEvent: Sequenced {}
extension ResourceSample: Sequenced {}
extension TraceMark: Sequenced {}

extension Array where Element: Sequenced {
    /// Stable sort by `seq`, skipped when already in order (a single-threaded recording).
    mutating func sortIfNeeded() {
        var sorted = true
        for position in indices.dropFirst() where self[position - 1].seq > self[position].seq {
            sorted = false
            break
        }
        if sorted { return }
        let order = indices.sorted { self[$0].seq != self[$1].seq ? self[$0].seq < self[$1].seq : $0 < $1 }
        self = order.map { self[$0] }
    }
}

extension TraceDocument {
    /// Reads the graph of a trace file and counts its steps and events without keeping them: the
    /// document holds nodes, edges, resource samples and the `subscribe` steps (enough for
    /// `TraceLeakReport`, `Trace.subscriptions` and the graph view); `counts` has what
    /// `TraceSummary` needs of the rest. An `rxtrace/2` file is streamed; an `rxtrace/1` file is
    /// read whole (it is one JSON value) and then counted.
    public static func readGraph(
        from url: URL, progress: ((Int, Int) -> Void)? = nil
    ) throws(TraceFileError) -> (graph: TraceDocument, counts: TraceFlowCounts, status: TraceReadStatus) {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        guard try startsFormat2(url) else {
            let (document, status) = try readWithStatus(from: url)
            return (document, TraceFlowCounts(document), status)
        }
        var builder = TraceDocumentBuilder(keep: .graph)
        var counts = TraceFlowCounts()
        let status = try TraceRecordReader.read(from: url, progress: progress) { (record) throws(TraceFileError) in
            switch record {
            case .step(let step): counts.add(step)
            case .event(let event): counts.add(event)
            default: break
            }
            try builder.add(record, path: path)
        }
        return (try builder.document(status, path: path), counts, status)
    }
}
