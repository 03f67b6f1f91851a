// A streamed recording's full thread buffers, handed to its writer as they are: the thread
// goes on in a fresh chunk, and the writer reads the 40-byte slots where they were written
// (`SlotPiece`), rather than the thread widening them into `TraceRecord`s at each flush.

extension TraceRecorder {
    /// A streamed recording's thread buffer: `Buffer.capacity` slots it owns (a recording in
    /// code writes into chunks its ring lends instead). Passed, once full, from the thread's
    /// buffer to its lane, the writer's batch and back to the recorder's spares (`spareChunk`).
    final class SlotChunk {
        let slots: UnsafeMutablePointer<RecordSlot>

        init() { slots = .allocate(capacity: Buffer.capacity) }

        deinit { slots.deallocate() }
    }

    /// Slots `start..<end` of a chunk (whole records, fillers among them), placed before the
    /// record at `at` of the records they travel with (a lane's, then a batch's): where the
    /// thread's records were when its buffer filled up.
    struct SlotPiece {
        var at: Int
        let chunk: SlotChunk
        let start: Int
        let end: Int
    }

    /// Most chunks kept for threads to write into (2.5 MB).
    static let spareChunkLimit = 256

    /// A chunk to write into: one the writer is done with, else a new one. Never waits.
    @inline(__always)
    func spareChunk() -> SlotChunk {
        if let spare = spareChunks.withLockIfAvailable({ $0.popLast() }), let chunk = spare { return chunk }
        return SlotChunk()
    }

    /// Keeps the chunks of written `pieces` that nothing else holds, for threads to reuse.
    func recycle(_ pieces: inout [SlotPiece]) {
        guard !pieces.isEmpty else { return }
        spareChunks.withLock { spares in
            for piece in pieces where spares.count < Self.spareChunkLimit { spares.append(piece.chunk) }
        }
        pieces.removeAll(keepingCapacity: true)
    }

    /// `records` (wide, their times nanoseconds already) and the records `pieces` hold, in
    /// their recorded order, to `body`: each slot made a `TraceRecord` again and its time
    /// nanoseconds along `lines` as it is read (`types` is `TraceTypes.all`, taken after the
    /// slots were published).
    @inline(__always)
    static func forEachRecord(
        _ records: [TraceRecord], _ pieces: [SlotPiece], types: [Any.Type], lines: EventClock.Lines,
        _ body: (TraceRecord) -> Void
    ) {
        guard !pieces.isEmpty else {
            for record in records { body(record) }
            return
        }
        types.withUnsafeBufferPointer { types in
            let last = lines.lines.last
            // The newest line, read once: nearly every reading is on it.
            let start = last?.from.count ?? .max
            func read(_ piece: SlotPiece) {
                var index = piece.start
                while index < piece.end {
                    let slot = piece.chunk.slots + index
                    if slot.pointee.shape == RecordSlot.continued {
                        index &+= 1
                        continue
                    }
                    var record = RecordSlot.record(at: slot, types: types)
                    if record.hasRealTime {
                        let reading = record.time
                        record.time = reading >= start ? last!.nanoseconds(reading) : lines.nanoseconds(reading)
                    }
                    body(record)
                    index &+= RecordSlot.width(at: slot)
                }
            }
            var next = 0
            for index in records.indices {
                while next < pieces.count, pieces[next].at <= index {
                    read(pieces[next])
                    next &+= 1
                }
                body(records[index])
            }
            while next < pieces.count {
                read(pieces[next])
                next &+= 1
            }
        }
    }

    /// `records` and `pieces` as wide records, in order (a scope's or a snapshot's).
    static func widened(
        _ records: [TraceRecord], _ pieces: [SlotPiece], lines: EventClock.Lines
    ) -> [TraceRecord] {
        guard !pieces.isEmpty else { return records }
        var all: [TraceRecord] = []
        all.reserveCapacity(records.count + pieces.reduce(0) { $0 + $1.end - $1.start })
        forEachRecord(records, pieces, types: TraceTypes.all, lines: lines) { all.append($0) }
        return all
    }

    /// Appends `source`'s pieces to `target`'s, placed among records that now follow `offset`
    /// others (`move(_:to:)` of their records).
    @inline(__always)
    static func move(_ source: inout [SlotPiece], to target: inout [SlotPiece], after offset: Int) {
        guard !source.isEmpty else { return }
        if offset != 0 {
            for index in source.indices { source[index].at &+= offset }
        }
        move(&source, to: &target)
    }
}
