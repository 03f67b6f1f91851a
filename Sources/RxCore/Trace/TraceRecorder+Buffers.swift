import Foundation
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
        /// Entries before this one were taken by a streamed recording's writer already (read
        /// and written under the recorder's lock).
        var drained = 0

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
        let (wake, backlog) = state.withLock { state in
            Self.flush(buffer, into: &state)
            return (state.stream?.wantsWriter() ?? false, state.stream?.backlog ?? 0)
        }
        if wake { streamWake.signal() }
        if backlog >= StreamPending.holdAt { waitForWriter() }
    }

    /// A streamed recording whose writer is behind by `StreamPending.holdAt`: the recording
    /// thread waits (no lock held) until the writer has taken the backlog, so that memory stays
    /// bounded when a program records faster than its trace can be written. At most a second
    /// per wait: a writer that has finished takes nothing more.
    @inline(never)
    func waitForWriter() {
        streamWake.signal()
        for _ in 0..<1000 {
            usleep(1000)
            if state.withLock({ $0.stream?.backlog ?? 0 }) < StreamPending.holdAt / 2 { return }
        }
    }

    /// Called when the buffer's thread exits.
    func retire(_ buffer: Buffer) {
        state.withLock { state in
            Self.flush(buffer, into: &state)
            state.buffers.removeAll { $0 === buffer }
        }
    }

    static func flush(_ buffer: Buffer, into state: inout State) {
        let published = buffer.published
        if buffer.drained < published.count {
            let part = UnsafeBufferPointer(rebasing: published[buffer.drained...])
            if state.stream != nil {
                state.stream!.records.append(contentsOf: part)
            } else {
                state.records.append(contentsOf: part)
            }
        }
        buffer.drained = 0
        buffer.count.store(0, ordering: .relaxed)
    }

    /// Keeps one record: into the ring, or for a streamed recording's writer.
    @inline(__always)
    static func keep(_ state: inout State, _ record: TraceRecord, text: String?) {
        if state.stream != nil {
            state.stream!.records.append(record)
            if let text { state.stream!.texts[record.seq] = text }
        } else {
            state.records.append(record, text: text)
        }
    }
}
