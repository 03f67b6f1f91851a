import Foundation
import Synchronization

// Each recording thread's buffer of records: appended to with no lock, moved into the ring
// under the recorder's lock (a recording in code), or into the thread's lane under the lane's
// own lock (a streamed recording).

extension TraceRecorder {
    /// A thread's records not yet in the ring. Only its thread appends (no lock: it writes the
    /// record, then publishes the count). A recording in code holds the recorder's lock to flush
    /// it into the ring (by its thread when full, before that thread records into the ring
    /// itself, and when the thread exits) and to read it (`snapshot`); a streamed recording
    /// holds the buffer's `lane` lock instead, so its threads share no lock.
    ///
    /// Its entries are a chunk the ring lent (`RecordRing.lendChunk`): a full buffer of a
    /// recording in code joins the ring as it is, and the thread goes on in a new chunk. A
    /// streamed recording's buffer owns its chunk (`SlotChunk`): a full one goes into the lane as
    /// it is (`handOver`), for the writer to read in place.
    final class Buffer: @unchecked Sendable {
        /// Slots per buffer (`RecordSlot`, 40 bytes each; one or two a record): a ring's chunk.
        static let capacity = RecordRing.chunkCapacity
        /// Changed only by the buffer's thread, under the recorder's lock (`flush`).
        @exclusivity(unchecked) var entries: UnsafeMutablePointer<RecordSlot>
        let count = Atomic<Int>(0)
        /// Entries before this one were taken by a streamed recording's writer already (read
        /// and written under the lock that guards flushing: see above).
        var drained = 0
        /// A streamed recording's other records of this thread (see `Lane`).
        let lane = Mutex(Lane())
        /// A streamed recording's: the chunk `entries` points into (changed with it, under the
        /// lane's lock). Nil for a recording in code, whose ring lent the entries.
        var chunk: SlotChunk?

        init(entries: UnsafeMutablePointer<RecordSlot>) { self.entries = entries }

        init(chunk: SlotChunk) {
            self.entries = chunk.slots
            self.chunk = chunk
        }

        /// Appends the record `write` initialises in its `slots` slots (1 or 2).
        @inline(__always)
        func append(_ recorder: TraceRecorder, slots: Int, _ write: (UnsafeMutablePointer<RecordSlot>) -> Void) {
            var index = count.load(ordering: .relaxed)
            if slots > 1, index &+ slots > Buffer.capacity { index = fillAndFlush(recorder, at: index) }
            write(entries + index)
            count.store(index &+ slots, ordering: .releasing)
            if index &+ slots == Buffer.capacity { recorder.flush(self) }
        }

        /// Appends `record` (its value's type numbered `type`) in one slot or two.
        @inline(__always)
        func append(_ recorder: TraceRecorder, _ record: TraceRecord, type: UInt16) {
            if RecordSlot.fitsOne(record, type: type) {
                append(recorder, slots: 1) { $0.initialize(to: RecordSlot(record, type: type)) }
            } else {
                append(recorder, slots: 2) { RecordSlot.initializeWide($0, to: record) }
            }
        }

        /// A two-slot record with one slot left: a filler ends the buffer, which is flushed.
        @inline(never)
        private func fillAndFlush(_ recorder: TraceRecorder, at index: Int) -> Int {
            (entries + index).initialize(to: .filler)
            count.store(index &+ 1, ordering: .releasing)
            recorder.flush(self)
            return count.load(ordering: .relaxed)
        }

        /// The slots published so far (read under the lock that guards flushing): whole records.
        var published: UnsafeBufferPointer<RecordSlot> {
            UnsafeBufferPointer(start: entries, count: count.load(ordering: .acquiring))
        }

        /// The slots published and not taken yet.
        var undrained: UnsafeBufferPointer<RecordSlot> {
            let published = self.published
            return UnsafeBufferPointer(rebasing: published[min(drained, published.count)...])
        }

        /// Hands the slots not taken yet to `take` and empties the buffer (its thread, when it
        /// is full, or when it exits).
        func drain(_ take: (UnsafeBufferPointer<RecordSlot>) -> Void) {
            let rest = undrained
            if !rest.isEmpty { take(rest) }
            drained = 0
            count.store(0, ordering: .relaxed)
        }

        /// A streamed recording's full buffer: its chunk's slots not taken yet go into `lane` as
        /// they are, and the thread goes on in `fresh` (its thread, under the lane's lock).
        /// (A buffer whose entries a ring lent, as tests make, is widened into the lane instead.)
        func handOver(into lane: inout Lane, fresh: SlotChunk) {
            guard let chunk else { return drain { RecordSlot.expand($0, into: &lane.records) } }
            let count = count.load(ordering: .relaxed)
            if count > drained {
                lane.pieces.append(SlotPiece(at: lane.records.count, chunk: chunk, start: drained, end: count))
                lane.slots &+= count &- drained
            }
            self.chunk = fresh
            entries = fresh.slots
            drained = 0
            self.count.store(0, ordering: .relaxed)
        }

        /// An emptied lane with its arrays' room, for the thread's next (touched only under the
        /// recorder's lock): a lane taken every batch would otherwise grow from nothing again,
        /// in fresh memory.
        var spare: Lane?

        /// What the lane holds, and the buffer's entries not taken yet, taken whole (the
        /// writer, under the recorder's lock; the thread goes on appending).
        func takeLane() -> Lane {
            var taken = spare ?? Lane()
            spare = nil
            lane.withLock { lane in
                let rest = undrained
                RecordSlot.expand(rest, into: &lane.records)
                drained += rest.count
                swap(&taken, &lane)
            }
            return taken
        }

        /// Keeps a lane whose contents were taken, emptied, as the next `spare` (not a very
        /// large one: memory would stay held).
        func recycle(_ taken: consuming Lane) {
            guard taken.records.capacity <= Lane.keptRoom else { return }
            taken.removeAll()
            spare = taken
        }
    }

    /// What a thread of a streamed recording records besides the elements its buffer holds:
    /// node births and changes, edges, the records that carry a text, and its full buffers.
    /// Its thread appends under the lane's lock, which only that thread and the writer (when it
    /// takes a batch) ever take: the threads of a program share no lock while recording. A node
    /// is numbered by an atomic counter at birth, so one thread may dispose of a node whose
    /// birth another thread's lane still holds: `absorb` takes every lane's births first, and
    /// keeps a change to a node it has not seen born until the next batch.
    struct Lane {
        /// Records' worth past which the writer is woken before its next tick.
        static let wakeAt = 1 << 14
        /// Records' worth past which the thread waits for the writer (about 4 MB per thread).
        static let holdAt = 1 << 16

        var births: [Birth] = []
        var ops: [NodeOp] = []
        var edges: [TraceEdge] = []
        var records: [TraceRecord] = []
        /// The thread's full buffers, among `records` (`SlotPiece.at`), and their slots.
        var pieces: [SlotPiece] = []
        var slots = 0
        /// The texts of the records that carry one (`.text`), in the records' order.
        var texts: [String] = []
        var resources: [ResourceRecord] = []
        var woken = false

        /// Most records a spare lane keeps room for.
        static let keptRoom = 1 << 16

        /// Empties the lane, keeping its arrays' room.
        mutating func removeAll() {
            births.removeAll(keepingCapacity: true)
            ops.removeAll(keepingCapacity: true)
            edges.removeAll(keepingCapacity: true)
            records.removeAll(keepingCapacity: true)
            pieces.removeAll(keepingCapacity: true)
            slots = 0
            texts.removeAll(keepingCapacity: true)
            resources.removeAll(keepingCapacity: true)
            woken = false
        }

        /// What waits for the writer, in records' worth (a node's birth or change holds about
        /// four records' worth of memory). Added without overflow checks: the counts are arrays'
        /// lengths, far below `Int.max / 8`.
        var backlog: Int { records.count &+ slots &+ edges.count &+ (births.count &+ ops.count) &<< 2 }

        /// The backlog, and whether to wake the writer now (once per batch). Inlined: it runs at
        /// every append to a lane (about 70 a traced subscribe + dispose).
        @inline(__always)
        mutating func checkBacklog() -> (backlog: Int, wake: Bool) {
            let backlog = self.backlog
            guard backlog >= Self.wakeAt, !woken else { return (backlog, false) }
            woken = true
            return (backlog, true)
        }
    }

    /// Appends to this thread's lane (a streamed recording); wakes the writer when much waits,
    /// and waits for it past `Lane.holdAt`.
    @inline(__always)
    func inLane(_ traceLocal: TraceLocal, _ body: (inout Lane) -> Void) {
        let buffer = self.buffer(traceLocal)
        let (backlog, wake) = buffer._withUnsafeGuaranteedRef { buffer in
            buffer.lane.withLock { lane in
                body(&lane)
                return lane.checkBacklog()
            }
        }
        if wake { streamWake.signal() }
        if backlog >= Lane.holdAt { waitForWriter(buffer.takeUnretainedValue()) }
    }

    /// This thread's buffer in this recorder (made and registered at its first record).
    @inline(__always)
    func buffer(_ traceLocal: TraceLocal) -> Unmanaged<Buffer> {
        if traceLocal.bufferKey == idBase, let buffer = traceLocal.unmanagedBuffer { return buffer }
        return makeBuffer(traceLocal)
    }

    @inline(never)
    func makeBuffer(_ traceLocal: TraceLocal) -> Unmanaged<Buffer> {
        let chunk = streamed ? spareChunk() : nil
        let buffer = state.withLock { state in
            let buffer = chunk.map(Buffer.init(chunk:)) ?? Buffer(entries: state.records.lendChunk())
            state.buffers.append(buffer)
            return buffer
        }
        traceLocal.unmanagedBuffer = Unmanaged.passUnretained(buffer)
        traceLocal.bufferKey = idBase
        return Unmanaged.passUnretained(buffer)
    }

    /// This thread's buffer in this recorder when it holds entries.
    @inline(__always)
    func ownBuffer(_ traceLocal: TraceLocal) -> Buffer? {
        guard traceLocal.bufferKey == idBase, let buffer = traceLocal.unmanagedBuffer?.takeUnretainedValue(),
            buffer.count.load(ordering: .relaxed) > 0
        else { return nil }
        return buffer
    }

    /// Called by the buffer's thread when it is full.
    @inline(never)
    func flush(_ buffer: Buffer) {
        if streamed {
            // Handed over as they are: the writer reads the slots (`forEachRecord`).
            let fresh = spareChunk()
            let (backlog, wake) = buffer.lane.withLock { lane in
                buffer.handOver(into: &lane, fresh: fresh)
                return lane.checkBacklog()
            }
            if wake { streamWake.signal() }
            if backlog >= Lane.holdAt { waitForWriter(buffer) }
        } else {
            state.withLock { state in Self.flush(buffer, into: &state) }
        }
    }

    /// A streamed recording whose writer is behind by `Lane.holdAt` on this thread: the thread
    /// waits (no lock held) until the writer has taken its lane, so that memory stays bounded
    /// when a program records faster than its trace can be written. At most a second per wait:
    /// a writer that has finished takes nothing more.
    @inline(never)
    func waitForWriter(_ buffer: Buffer) {
        streamWake.signal()
        for _ in 0..<1000 {
            usleep(1000)
            if buffer.lane.withLock({ $0.backlog }) < Lane.holdAt / 2 { return }
        }
    }

    /// Called when the buffer's thread exits.
    func retire(_ buffer: Buffer) {
        state.withLock { state in
            if streamed {
                // Taken with the others' at the next batch (see `absorb`).
                state.stream?.retiredLanes.append(buffer.takeLane())
            } else {
                Self.flush(buffer, into: &state)
            }
            state.buffers.removeAll { $0 === buffer }
            // A streamed recording's buffer owns its chunk (freed with it).
            if buffer.chunk == nil { state.records.takeBack(buffer.entries) }
        }
    }

    /// A recording in code: the buffer's records into the ring (a full buffer's chunk taken as
    /// it is, the thread given a new one).
    static func flush(_ buffer: Buffer, into state: inout State) {
        let count = buffer.count.load(ordering: .relaxed)
        if count == Buffer.capacity, buffer.drained == 0 {
            buffer.entries = state.records.adopt(buffer.entries, count: count)
            buffer.count.store(0, ordering: .relaxed)
            return
        }
        buffer.drain { state.records.append(contentsOf: $0) }
    }

    /// Keeps one record in the ring (a recording in code).
    @inline(__always)
    static func keep(_ state: inout State, _ record: TraceRecord, text: String?) {
        state.records.append(record, text: text)
    }
}
