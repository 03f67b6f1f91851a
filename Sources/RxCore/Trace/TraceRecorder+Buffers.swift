import Synchronization

// Each recording thread's buffer of records: appended to with no lock, moved into the ring
// under the recorder's lock.

extension TraceRecorder {
    /// A thread's records not yet in the ring. Only its thread appends (no lock: it writes the
    /// record, then publishes the count); the recorder's lock is held to flush it into the ring
    /// (by its thread when full, before that thread records into the ring itself, and when the
    /// thread exits) and to read it (`snapshot`).
    final class Buffer: @unchecked Sendable {
        /// Records per buffer (64 bytes each).
        static let capacity = 256
        let entries = UnsafeMutablePointer<TraceRecord>.allocate(capacity: Buffer.capacity)
        let count = Atomic<Int>(0)

        deinit { entries.deallocate() }

        /// Appends the record `write` initialises in its slot.
        @inline(__always)
        func append(_ recorder: TraceRecorder, _ write: (UnsafeMutablePointer<TraceRecord>) -> Void) {
            let index = count.load(ordering: .relaxed)
            write(entries + index)
            count.store(index + 1, ordering: .releasing)
            if index + 1 == Buffer.capacity { recorder.flush(self) }
        }

        /// The entries published so far (read under the recorder's lock).
        var published: UnsafeBufferPointer<TraceRecord> {
            UnsafeBufferPointer(start: entries, count: count.load(ordering: .acquiring))
        }
    }

    /// This thread's buffer in this recorder (made and registered at its first record).
    @inline(__always)
    func buffer(_ traceLocal: TraceLocal) -> Unmanaged<Buffer> {
        if traceLocal.bufferKey == idBase, let buffer = traceLocal.unmanagedBuffer { return buffer }
        return makeBuffer(traceLocal)
    }

    @inline(never)
    func makeBuffer(_ traceLocal: TraceLocal) -> Unmanaged<Buffer> {
        let buffer = Buffer()
        state.withLock { $0.buffers.append(buffer) }
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
        state.withLock { state in Self.flush(buffer, into: &state) }
    }

    /// Called when the buffer's thread exits.
    func retire(_ buffer: Buffer) {
        state.withLock { state in
            Self.flush(buffer, into: &state)
            state.buffers.removeAll { $0 === buffer }
        }
    }

    static func flush(_ buffer: Buffer, into state: inout State) {
        state.records.append(contentsOf: buffer.published)
        buffer.count.store(0, ordering: .relaxed)
    }
}
