import Foundation

// A streamed recording (`RXTRACE`): the recorder keeps records only until its writer takes
// them (`takeBatch`), and a node only until it is deinitialized and written.

extension TraceRecorder {
    /// The nodes: all of them (a recording in code), or only those still needed (a streamed
    /// recording: a deinitialized node leaves once written). Indices are node ids minus one.
    ///
    /// A streamed recording's nodes mostly leave soon after they are born, so they are kept in
    /// a window over the newest indices (found by subtraction, no hashing), slid forward past
    /// the nodes that left; the few that outlive the window (a subject alive all run long) move
    /// to a dictionary.
    struct NodeTable {
        /// Nodes born so far.
        private(set) var count = 0
        private var dense: [NodeRecord] = []
        let evicting: Bool
        /// The window: `window[i]` is node index `windowBase + i` (nil: left, or not born yet).
        private var windowBase = 0
        private var window: [NodeBox?] = []
        /// Held nodes older than the window.
        private var survivors: [Int: NodeBox] = [:]
        private var heldInWindow = 0
        /// Longest the window grows before its oldest nodes move to `survivors`.
        static let windowLimit = 1 << 15

        init(evicting: Bool) { self.evicting = evicting }

        mutating func append(_ record: NodeRecord) {
            if evicting { insert(count, NodeBox(record)) } else { dense.append(record) }
            count = max(count, dense.count)
        }

        subscript(index: Int) -> NodeRecord? {
            guard index >= 0, index < count else { return nil }
            if !evicting { return dense[index] }
            return box(index)?.record
        }

        /// A streamed recording's node, when it is held.
        func box(_ index: Int) -> NodeBox? {
            guard evicting, index >= 0, index < count else { return nil }
            if index >= windowBase {
                let slot = index - windowBase
                return slot < window.count ? window[slot] : nil
            }
            return survivors[index]
        }

        /// Changes a node still held (a node that left is not changed); nil when it is not held.
        @inline(__always)
        @discardableResult
        mutating func update<Result>(_ index: Int, _ body: (inout NodeRecord) -> Result) -> Result? {
            guard evicting else {
                guard index >= 0, index < dense.count else { return nil }
                return body(&dense[index])
            }
            // The window read in place: `box(_:)` on a copy of the table retained its window.
            guard index >= 0, index < count else { return nil }
            if index >= windowBase {
                let slot = index - windowBase
                guard slot < window.count, let box = window[slot] else { return nil }
                return body(&box.record)
            }
            guard let box = survivors[index] else { return nil }
            return body(&box.record)
        }

        /// A streamed recording's birth, numbered by its thread (births arrive out of order): the
        /// lane's box itself, so that the record is not copied.
        mutating func insert(_ index: Int, _ box: NodeBox) {
            count = max(count, index + 1)
            guard index >= windowBase else {
                survivors[index] = box
                return
            }
            let slot = index - windowBase
            // Mostly the next slot: one `append`, not `append(contentsOf:)`, whose sequence a
            // dynamic cast examines (500 instructions a node on the writer's thread).
            while slot >= window.count { window.append(nil) }
            if window[slot] == nil { heldInWindow += 1 }
            window[slot] = box
            if window.count > Self.windowLimit { slide() }
        }

        mutating func evict(_ index: Int) {
            guard evicting else { return }
            guard index >= windowBase else {
                survivors[index] = nil
                return
            }
            let slot = index - windowBase
            guard slot < window.count, window[slot] != nil else { return }
            window[slot] = nil
            heldInWindow -= 1
            if slot == 0 { slide() }
        }

        /// Moves the window past the nodes that left at its start; when it is full, its older
        /// half's nodes move to `survivors`.
        private mutating func slide() {
            var start = 0
            if window.count > Self.windowLimit {
                start = window.count / 2
                for slot in 0..<start {
                    if let record = window[slot] {
                        survivors[windowBase + slot] = record
                        heldInWindow -= 1
                    }
                }
            }
            while start < window.count, window[start] == nil { start += 1 }
            // Only worth moving when much has left (a node alive at the start pins it).
            guard start > 0, start >= 64 || start == window.count else { return }
            window.removeFirst(start)
            windowBase += start
        }

        /// How many nodes are held.
        var held: Int { evicting ? heldInWindow + survivors.count : dense.count }

        /// The nodes held, in id order.
        func entries() -> [(offset: Int, element: NodeRecord)] {
            if !evicting { return Array(dense.enumerated()) }
            var entries = survivors.sorted { $0.key < $1.key }.map { (offset: $0.key, element: $0.value.record) }
            for (slot, box) in window.enumerated() {
                if let box { entries.append((offset: windowBase + slot, element: box.record)) }
            }
            return entries
        }

        /// Applies a change to a node; whether it is news to write: a node's first disposal and
        /// termination (or one earlier than known, from another thread), every deinit, and
        /// anomalies up to `anomaliesPerNode`. Nil when the node is not held.
        mutating func apply(_ op: NodeOp) -> Bool? {
            switch op {
            case .born: return true
            case .disposed(let index, let seq, let time):
                return update(index) { node in
                    guard node.disposed.map({ seq < $0 }) ?? true else { return false }
                    node.disposed = seq
                    node.disposedAt = time
                    return true
                }
            case .terminated(let index, let seq, let time):
                return update(index) { node in
                    guard node.terminated.map({ seq < $0 }) ?? true else { return false }
                    node.terminated = seq
                    node.terminatedAt = time
                    return true
                }
            case .deinitialized(let index, let seq, let time):
                return update(index) { node in
                    node.deinitialized = seq
                    node.deinitializedAt = time
                    return true
                }
            }
        }

        /// Adds an anomaly to a node; whether it is kept (at most `anomaliesPerNode` a node). Nil
        /// when the node is not held.
        mutating func addAnomaly(_ index: Int, _ anomaly: TraceAnomalyRecord) -> Bool? {
            update(index) { node in
                guard node.anomalies.count < TraceRecorder.anomaliesPerNode else { return false }
                node.anomalies.append(anomaly)
                return true
            }
        }

    }

    /// A streamed recording's node record, boxed where it is born (in its thread's lane) and
    /// shared from there with the node table and the writer's batch: a record is about 190
    /// bytes with three counted references, and copying it from the lane into the table, out to
    /// the batch and destroying each copy cost the writer about 20,000 instructions a traced
    /// subscribe + dispose (some 23 nodes). Changed only under the recorder's lock, so its
    /// accesses need no dynamic exclusivity checks (which cost the writer 6,600 instructions a
    /// cycle: a check and the thread's access set at every read of a birth's fields).
    final class NodeBox {
        @exclusivity(unchecked) var record: NodeRecord
        init(_ record: NodeRecord) { self.record = record }
    }

    /// When a streamed recording's node is born, disposed of or deinitialized: a reading of
    /// `eventClock`, made nanoseconds by `absorb` with the records' times. The CPU's counter,
    /// where it is sound, costs less than `clock_gettime` (about 10 ns against 24 on a virtual
    /// machine), read about six times a traced subscribe + dispose.
    @inline(__always)
    func nodeTime() -> UInt64 { eventClock.now() }

    /// Most node boxes kept for reuse (about 200 bytes each).
    static let spareBoxLimit = 1 << 12

    /// The box of a node born now: one the writer is done with (`recycle`), else a new one.
    /// Never waits: while the writer holds the spares, a new one.
    ///
    /// Nodes are born on the program's threads and written, then let go, on the writer's: each
    /// box freed there went back to the allocator's arena of the thread that made it, under that
    /// arena's lock, which the recording thread takes too (about 4,000 `futex` calls in 20,000
    /// traced subscribe + dispose cycles, and 2,600 instructions a cycle in the frees).
    @inline(__always)
    func nodeBox(_ record: NodeRecord) -> NodeBox {
        if let spare = spareBoxes.withLockIfAvailable({ $0.popLast() }), let box = spare {
            box.record = record
            return box
        }
        return NodeBox(record)
    }

    /// What happened to nodes since the writer last took a batch, in order. Plain words (an
    /// anomaly, which carries a text, goes its own way: `anomaly(node:_:detail:)`), so that the
    /// lanes, the pending ops and the batch copy and destroy them without a call per op.
    enum NodeOp {
        case born(Int)
        /// The node's index, the change's `seq` and its time (`nodeTime()` in a lane, nanoseconds
        /// once absorbed; nil: not known).
        case disposed(Int, UInt64, at: UInt64? = nil)
        case deinitialized(Int, UInt64, at: UInt64? = nil)
        case terminated(Int, UInt64, at: UInt64? = nil)

        /// The node's index (its id minus one).
        var index: Int {
            switch self {
            case .born(let index), .disposed(let index, _, _), .deinitialized(let index, _, _),
                .terminated(let index, _, _):
                return index
            }
        }
    }

    /// A streamed recording's records taken from the threads' lanes and not yet by its writer.
    struct StreamPending {
        var records: [TraceRecord] = []
        /// Threads' full buffers among `records` (their times still the clock's readings).
        var pieces: [SlotPiece] = []
        /// The texts of the records that carry one (`.text`), in the records' order.
        var texts: [String] = []
        var ops: [NodeOp] = []
        /// How many of `ops` are births (room for the batch's node records, reserved at once).
        var born = 0
        var edges: [TraceEdge] = []
        var resources: [ResourceRecord] = []
        var marks: [MarkRecord] = []
        /// Anomalies to write (node id, anomaly): applied to their nodes already.
        var anomalies: [(node: UInt64, anomaly: TraceAnomalyRecord)] = []
        /// The lanes of threads that exited since the last batch.
        var retiredLanes: [Lane] = []
        /// Changes to nodes whose birth was not taken yet (another thread's lane held it), by
        /// node index: written already, applied to the node when its birth comes.
        var orphans: [Int: [NodeOp]] = [:]
        /// Open scopes (`record(meta:_:)`): while any is open, written records are also kept
        /// here and nodes stay, for the scope's document.
        var scopes = 0
        /// Whether each node keeps its edges (written once; a new segment carries them): only
        /// when the writer may start segments (`RXTRACE_MAX_MB`), or while a scope is open.
        /// Otherwise an edge recorded twice is written twice (readers keep one), and no node
        /// holds an array of its own.
        var edgesPerNode = true
        /// Room of a written batch's ops and nodes, for the next batch's (`recycle`).
        var spareOps: [StreamBatch.Op] = []
        var spareNodes: [NodeBox] = []
        var retained: [TraceRecord] = []
        var retainedTexts: [UInt64: String] = [:]
        var retainedResources: [ResourceRecord] = []
        /// Nodes deinitialized while a scope was open: they leave when the last scope closes.
        var deferredEvictions: [Int] = []
        /// How `absorb` makes clock readings nanoseconds (a line added at each).
        var timeLines = EventClock.Lines()
    }

    /// Moves what every thread's lane holds into `state.stream` (a streamed recording; under
    /// the recorder's lock): births first, so that a node born on one thread and disposed of on
    /// another in the same batch is known when its disposal comes. A change to a node whose birth
    /// is still in a lane not taken yet (its thread took the lane's lock after the writer passed
    /// by) is written now and kept as an orphan, applied when the birth comes; the birth comes at
    /// the next absorb at the latest (a thread learns a node's id only after its birth is in a
    /// lane), so orphans left from the one before are of nodes that left already and go.
    ///
    /// Event times and nodes' times (birth, disposal, deinit, termination) leave the lanes as
    /// nanoseconds since the start (`clock`'s readings until then): along a line from the pair
    /// read at the absorb before to one read now, after the lanes were taken, so that the
    /// readings taken lie between the two (`EventClock.Lines`: a record that came after the
    /// absorb before but read the clock before it converts along the line before). A full
    /// buffer's records (`SlotPiece`) keep their readings until the writer reads them.
    static func absorb(into state: inout State, clock: EventClock) {
        guard var stream = state.stream else { return }
        state.stream = nil // moved out, so that appending to its arrays copies nothing
        var lanes = stream.retiredLanes
        stream.retiredLanes = []
        let retired = lanes.count
        for buffer in state.buffers { lanes.append(buffer.takeLane()) }
        stream.timeLines.extend(clock)
        let lines = stream.timeLines
        for index in lanes.indices {
            lanes[index].records.withUnsafeMutableBufferPointer { Self.convertTimes($0, along: lines) }
        }
        defer {
            // Emptied, back to their threads' buffers for the next batch (moved out of `lanes`,
            // so that emptying them keeps their room rather than copying).
            for (buffer, index) in zip(state.buffers, lanes.indices.dropFirst(retired)) {
                var lane = Lane()
                swap(&lane, &lanes[index])
                buffer.recycle(lane)
            }
        }
        for lane in lanes {
            // Read in place: iterating `lane.births` would copy each node record out (a generic
            // tuple copy), and the table copies it once more.
            for birth in lane.births {
                birth.node.record.createdAt = birth.node.record.createdAt.map(lines.nanoseconds)
                state.nodes.insert(birth.index, birth.node)
                stream.ops.append(.born(birth.index))
            }
            stream.born += lane.births.count
        }
        let earlier = stream.orphans
        stream.orphans = [:]
        for ops in earlier.values {
            for op in ops { _ = state.nodes.apply(op) }
        }
        for index in lanes.indices {
            for var op in lanes[index].ops {
                switch op {
                case .terminated(let node, let seq, let time?): op = .terminated(node, seq, at: lines.nanoseconds(time))
                case .disposed(let node, let seq, let time?): op = .disposed(node, seq, at: lines.nanoseconds(time))
                case .deinitialized(let node, let seq, let time?):
                    op = .deinitialized(node, seq, at: lines.nanoseconds(time))
                default: break
                }
                switch state.nodes.apply(op) {
                case true?: stream.ops.append(op)
                case false?: break
                case nil:
                    stream.ops.append(op)
                    stream.orphans[op.index, default: []].append(op)
                }
            }
            if stream.edgesPerNode || stream.scopes > 0 {
                for edge in lanes[index].edges {
                    // Kept with its `from` node; one from a node not held (gone, or its birth
                    // not taken yet) is written again if it comes again (readers keep one).
                    let news =
                        state.nodes.update(Int(edge.from - 1)) { node -> Bool in
                            guard !node.edges.contains(edge) else { return false }
                            node.edges.append(edge)
                            return true
                        } ?? true
                    if news { stream.edges.append(edge) }
                }
            } else {
                Self.move(&lanes[index].edges, to: &stream.edges)
            }
            Self.move(&lanes[index].pieces, to: &stream.pieces, after: stream.records.count)
            Self.move(&lanes[index].records, to: &stream.records)
            Self.move(&lanes[index].texts, to: &stream.texts)
            stream.resources.append(contentsOf: lanes[index].resources)
        }
        state.stream = stream
    }

    /// Makes the times `records` hold nanoseconds since the start (`hasRealTime`), along
    /// `lines`. A pass of a few instructions a record.
    static func convertTimes(_ records: UnsafeMutableBufferPointer<TraceRecord>, along lines: EventClock.Lines) {
        guard let first = records.baseAddress, let last = lines.lines.last else { return }
        // The newest line, read once: nearly every reading is on it.
        let start = last.from.count
        for record in first..<(first + records.count) where record.pointee.hasRealTime {
            let reading = record.pointee.time
            record.pointee.time = reading >= start ? last.nanoseconds(reading) : lines.nanoseconds(reading)
        }
    }

    /// Appends `source` to `target`: by swapping the two when `target` is empty (one recording
    /// thread, or the first lane: `source` then gets `target`'s room, for its next batch), so
    /// that the writer does not copy a batch's records out of the lane.
    @inline(__always)
    static func move<Element>(_ source: inout [Element], to target: inout [Element]) {
        if target.isEmpty {
            swap(&source, &target)
        } else {
            target.append(contentsOf: source)
        }
    }

    /// What the writer takes at once.
    struct StreamBatch {
        /// Small, so that taking and reading them copies a few words.
        enum Op {
            /// A birth: the node's id and where its box is in `nodes`.
            case node(UInt64, Int)
            /// A disposal, deinit or termination: the node's id, the `seq`, the time (`elapsed()`).
            case mark(TraceLineEncoder.NodeMark, UInt64, UInt64, UInt64?)
        }
        var ops: [Op] = []
        /// The nodes born in the batch. The writer reads what a birth says (kind, type, call
        /// site, `seq`, thread, time), which never changes once the node is born, outside the
        /// recorder's lock; the rest changes under it (a disposal applied by another thread's
        /// `snapshot` or `callSite(of:)`), and the writer does not read it.
        var nodes: [NodeBox] = []
        var edges: [TraceEdge] = []
        var records: [TraceRecord] = []
        /// Threads' full buffers, among `records`: read with them by `forEachRecord`.
        var pieces: [SlotPiece] = []
        /// What makes the pieces' clock readings nanoseconds.
        var lines = EventClock.Lines()
        /// The texts of the records that carry one, in the records' order.
        var texts: [String] = []
        var resources: [ResourceRecord] = []
        var marks: [MarkRecord] = []
        /// Anomalies (node id, anomaly), written after the ops (their nodes' births among them).
        var anomalies: [(node: UInt64, anomaly: TraceAnomalyRecord)] = []
        /// How many nodes the recorder still holds.
        var nodesHeld = 0
        /// The nodes held at the end of the batch, when asked for (a new segment's).
        var live: [(id: UInt64, node: NodeRecord)] = []
        /// The edges between those nodes, but for the batch's own.
        var liveEdges: [TraceEdge] = []
    }

    /// Takes everything recorded and not yet written: what the threads' lanes hold, and what
    /// their buffers hold beyond what was taken before (read in place: their threads keep
    /// appending). Nodes deinitialized leave the table (unless a scope is open).
    func takeBatch(live: Bool = false) -> StreamBatch {
        var batch = StreamBatch()
        state.withLock { state in
            Self.absorb(into: &state, clock: eventClock)
            guard var stream = state.stream else { return }
            state.stream = nil // moved out, so that appending to its arrays copies nothing
            swap(&batch.records, &stream.records)
            swap(&batch.pieces, &stream.pieces)
            batch.lines = stream.timeLines
            swap(&batch.texts, &stream.texts)
            swap(&batch.edges, &stream.edges)
            swap(&batch.resources, &stream.resources)
            swap(&batch.marks, &stream.marks)
            swap(&batch.anomalies, &stream.anomalies)
            swap(&batch.ops, &stream.spareOps)
            swap(&batch.nodes, &stream.spareNodes)
            batch.ops.reserveCapacity(stream.ops.count)
            batch.nodes.reserveCapacity(stream.born)
            stream.born = 0
            for op in stream.ops {
                switch op {
                case .born(let index):
                    guard let box = state.nodes.box(index) else { break }
                    batch.ops.append(.node(UInt64(index + 1), batch.nodes.count))
                    batch.nodes.append(box)
                    // Deinitialized before its birth was taken (an orphan): its `x` is written.
                    if box.record.deinitialized != nil {
                        if stream.scopes > 0 {
                            stream.deferredEvictions.append(index)
                        } else {
                            state.nodes.evict(index)
                        }
                    }
                case .disposed(let index, let seq, let time):
                    batch.ops.append(.mark(.disposed, UInt64(index + 1), seq, time))
                case .terminated(let index, let seq, let time):
                    batch.ops.append(.mark(.terminated, UInt64(index + 1), seq, time))
                case .deinitialized(let index, let seq, let time):
                    batch.ops.append(.mark(.deinitialized, UInt64(index + 1), seq, time))
                    if stream.scopes > 0 { stream.deferredEvictions.append(index) } else { state.nodes.evict(index) }
                }
            }
            stream.ops.removeAll(keepingCapacity: true)
            if stream.scopes > 0 {
                stream.retained.append(contentsOf: Self.widened(batch.records, batch.pieces, lines: batch.lines))
                stream.retainedTexts.merge(Self.textsBySeq(batch.records, batch.texts)) { old, _ in old }
                stream.retainedResources.append(contentsOf: batch.resources)
            } else if !stream.deferredEvictions.isEmpty {
                for index in stream.deferredEvictions { state.nodes.evict(index) }
                stream.deferredEvictions = []
            }
            batch.nodesHeld = state.nodes.held
            if live {
                batch.live = state.nodes.entries().map { (id: UInt64($0.offset + 1), node: $0.element) }
                let ids = Set(batch.live.map(\.id))
                let own = Set(batch.edges)
                batch.liveEdges = batch.live.flatMap(\.node.edges).filter { edge in
                    ids.contains(edge.to) && !own.contains(edge)
                }
            }
            state.stream = stream
        }
        return batch
    }

    /// Gives back the room of a written batch's arrays for the next batch (not a very large
    /// one: memory would stay held), so that batches, and the lanes they are swapped with
    /// (`absorb`), keep their room rather than grow from nothing at every batch.
    func recycle(_ batch: inout StreamBatch) {
        func give<Element>(_ array: inout [Element], to spare: inout [Element]) {
            guard spare.isEmpty, spare.capacity < array.capacity, array.capacity <= Lane.keptRoom * 4 else { return }
            array.removeAll(keepingCapacity: true)
            swap(&spare, &array)
        }
        // A written box nothing else holds (its node left the table) is kept for a birth to reuse.
        spareBoxes.withLock { spares in
            for index in batch.nodes.indices where spares.count < Self.spareBoxLimit {
                if isKnownUniquelyReferenced(&batch.nodes[index]) { spares.append(batch.nodes[index]) }
            }
        }
        batch.nodes.removeAll(keepingCapacity: true)
        recycle(&batch.pieces)
        state.withLock { state in
            guard state.stream != nil else { return }
            give(&batch.records, to: &state.stream!.records)
            give(&batch.pieces, to: &state.stream!.pieces)
            give(&batch.edges, to: &state.stream!.edges)
            give(&batch.texts, to: &state.stream!.texts)
            give(&batch.ops, to: &state.stream!.spareOps)
            give(&batch.nodes, to: &state.stream!.spareNodes)
        }
    }

    /// The texts of `records` (those that carry one, in order) by the records' `seq`.
    static func textsBySeq(_ records: [TraceRecord], _ texts: [String]) -> [UInt64: String] {
        var bySeq: [UInt64: String] = [:]
        var next = texts.startIndex
        for record in records where record.parts.contains(.text) && next < texts.endIndex {
            bySeq[record.seq] = texts[next]
            next += 1
        }
        return bySeq
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

    /// Whether nodes keep their edges (see `StreamPending.edgesPerNode`): the writer says so.
    func keepEdgesPerNode(_ keep: Bool) {
        state.withLock { $0.stream?.edgesPerNode = keep }
    }

    /// The nodes this recorder holds now (a streamed recording lets deinitialized ones go).
    public var nodesHeld: Int { state.withLock { $0.nodes.held } }
}
