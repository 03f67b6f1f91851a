import Foundation

// A streamed recording (`RXTRACE`): the recorder keeps records only until its writer takes
// them (`takeBatch`), and a node only until it is deinitialized and written.

extension TraceRecorder {
    /// The nodes: all of them (a recording in code), or only those still needed (a streamed
    /// recording: a deinitialized node leaves once written). Indices are node ids minus one.
    struct NodeTable {
        /// Nodes born so far.
        private(set) var count = 0
        private var dense: [NodeRecord] = []
        private var sparse: [Int: NodeRecord] = [:]
        let evicting: Bool

        init(evicting: Bool) { self.evicting = evicting }

        mutating func append(_ record: NodeRecord) {
            if evicting { sparse[count] = record } else { dense.append(record) }
            count += 1
        }

        subscript(index: Int) -> NodeRecord? {
            guard index >= 0, index < count else { return nil }
            return evicting ? sparse[index] : dense[index]
        }

        /// Changes a node still held (a node that left is not changed).
        @inline(__always)
        mutating func update(_ index: Int, _ body: (inout NodeRecord) -> Void) {
            if evicting {
                if sparse[index] != nil { body(&sparse[index]!) }
            } else if index >= 0, index < dense.count {
                body(&dense[index])
            }
        }

        mutating func evict(_ index: Int) {
            if evicting { sparse[index] = nil }
        }

        /// How many nodes are held.
        var held: Int { evicting ? sparse.count : dense.count }

        /// The nodes held, in id order.
        func entries() -> [(offset: Int, element: NodeRecord)] {
            if !evicting { return Array(dense.enumerated()) }
            return sparse.sorted { $0.key < $1.key }.map { (offset: $0.key, element: $0.value) }
        }
    }

    /// What happened to nodes since the writer last took a batch, in order.
    enum NodeOp {
        case born(Int)
        case disposed(Int, UInt64)
        case deinitialized(Int, UInt64)
        case terminated(Int, UInt64)
        case anomaly(Int, TraceAnomalyRecord)
    }

    /// A streamed recording's records not yet taken by its writer.
    struct StreamPending {
        /// Records past which the writer is woken before its next tick.
        static let wakeAt = 1 << 16
        /// `backlog` past which a recording thread waits for the writer (about 32 MB).
        static let holdAt = 1 << 19

        /// What waits for the writer, in records' worth (a node's birth or lifecycle change
        /// holds about four records' worth of memory).
        var backlog: Int { records.count + 4 * ops.count }
        /// Most edges remembered to write each once (beyond, an edge seen again may be written
        /// again; readers keep one).
        static let edgeSetLimit = 200_000

        var records: [TraceRecord] = []
        var texts: [UInt64: String] = [:]
        var ops: [NodeOp] = []
        var edges: [TraceEdge] = []
        var resources: [ResourceRecord] = []
        var woken = false
        /// Open scopes (`record(meta:_:)`): while any is open, written records are also kept
        /// here and nodes stay, for the scope's document.
        var scopes = 0
        var retained: [TraceRecord] = []
        var retainedTexts: [UInt64: String] = [:]
        var retainedResources: [ResourceRecord] = []
        /// Nodes deinitialized while a scope was open: they leave when the last scope closes.
        var deferredEvictions: [Int] = []

        /// Whether the writer should be woken now (once per batch).
        mutating func wantsWriter() -> Bool {
            guard !woken, records.count >= Self.wakeAt else { return false }
            woken = true
            return true
        }
    }

    /// What the writer takes at once.
    struct StreamBatch {
        enum Op {
            case node(UInt64, NodeRecord)
            case mark(TraceLineEncoder.NodeMark, UInt64, UInt64)
            case anomaly(UInt64, TraceAnomalyRecord)
        }
        var ops: [Op] = []
        var edges: [TraceEdge] = []
        var records: [TraceRecord] = []
        var texts: [UInt64: String] = [:]
        var resources: [ResourceRecord] = []
        /// How many nodes the recorder still holds.
        var nodesHeld = 0
        /// The nodes held at the end of the batch, when asked for (a new segment's).
        var live: [(id: UInt64, node: NodeRecord)] = []
        /// The edges between those nodes, but for the batch's own.
        var liveEdges: [TraceEdge] = []
    }

    /// Takes everything recorded and not yet written: the pending records, and what the threads'
    /// buffers hold beyond what was taken before (read in place: their threads keep appending).
    /// Nodes deinitialized leave the table (unless a scope is open).
    func takeBatch(live: Bool = false) -> StreamBatch {
        var batch = StreamBatch()
        state.withLock { state in
            guard var stream = state.stream else { return }
            state.stream = nil // moved out, so that appending to its arrays copies nothing
            for buffer in state.buffers {
                let published = buffer.published
                if buffer.drained < published.count {
                    stream.records.append(contentsOf: UnsafeBufferPointer(rebasing: published[buffer.drained...]))
                    buffer.drained = published.count
                }
            }
            swap(&batch.records, &stream.records)
            swap(&batch.texts, &stream.texts)
            swap(&batch.edges, &stream.edges)
            swap(&batch.resources, &stream.resources)
            batch.ops.reserveCapacity(stream.ops.count)
            for op in stream.ops {
                switch op {
                case .born(let index):
                    if let node = state.nodes[index] { batch.ops.append(.node(UInt64(index + 1), node)) }
                case .disposed(let index, let seq): batch.ops.append(.mark(.disposed, UInt64(index + 1), seq))
                case .terminated(let index, let seq): batch.ops.append(.mark(.terminated, UInt64(index + 1), seq))
                case .anomaly(let index, let anomaly): batch.ops.append(.anomaly(UInt64(index + 1), anomaly))
                case .deinitialized(let index, let seq):
                    batch.ops.append(.mark(.deinitialized, UInt64(index + 1), seq))
                    if stream.scopes > 0 { stream.deferredEvictions.append(index) } else { state.nodes.evict(index) }
                }
            }
            stream.ops.removeAll(keepingCapacity: true)
            if stream.scopes > 0 {
                stream.retained.append(contentsOf: batch.records)
                stream.retainedTexts.merge(batch.texts) { old, _ in old }
                stream.retainedResources.append(contentsOf: batch.resources)
            } else if !stream.deferredEvictions.isEmpty {
                for index in stream.deferredEvictions { state.nodes.evict(index) }
                stream.deferredEvictions = []
            }
            stream.woken = false
            batch.nodesHeld = state.nodes.held
            if live {
                batch.live = state.nodes.entries().map { (id: UInt64($0.offset + 1), node: $0.element) }
                let ids = Set(batch.live.map(\.id))
                let own = Set(batch.edges)
                batch.liveEdges = state.edgeSet.filter { edge in
                    ids.contains(edge.from) && ids.contains(edge.to) && !own.contains(edge)
                }
            }
            state.stream = stream
        }
        return batch
    }

    /// What `body` records, as a document (the part of this recording from its start: see
    /// `snapshot(since:meta:)`), kept whole even when this recording is streamed.
    public func record(meta: [String: String] = [:], _ body: () throws -> Void) rethrows -> TraceDocument {
        state.withLock { $0.stream?.scopes += 1 }
        defer {
            state.withLock { state in
                state.stream?.scopes -= 1
                if state.stream?.scopes == 0 {
                    state.stream?.retained = []
                    state.stream?.retainedTexts = [:]
                    state.stream?.retainedResources = []
                }
            }
        }
        let start = currentSeq
        try body()
        return snapshot(since: start, meta: meta)
    }

    /// The nodes this recorder holds now (a streamed recording lets deinitialized ones go).
    public var nodesHeld: Int { state.withLock { $0.nodes.held } }
}
