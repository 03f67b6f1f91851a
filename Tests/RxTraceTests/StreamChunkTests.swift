import Foundation
import RxTrace
import Synchronization
import Testing

@testable import RxCore

/// A streamed recording's full thread buffers go to the writer as they are (`SlotPiece`): the
/// thread widens nothing, and the writer reads the 40-byte slots among the lane's own records,
/// in the order the thread recorded them, with their times made nanoseconds as it reads.
@Suite(.serialized) struct StreamChunkTests {
    typealias Buffer = TraceRecorder.Buffer

    /// A streamed recorder with one thread's buffer.
    private func recorderWithBuffer() -> (TraceRecorder, Buffer) {
        let recorder = TraceRecorder(options: TraceRecorder.Options(), streamed: true)
        let buffer = Buffer(chunk: recorder.spareChunk())
        recorder.state.withLock { $0.buffers = [buffer] }
        return (recorder, buffer)
    }

    /// A value of three words: its records take two slots.
    private struct Triple { var a, b, c: Int }

    /// An element's record, timed now: an `Int` (one slot), or every 40th a `Triple` (two).
    private func element(_ recorder: TraceRecorder, seq: UInt64) -> (TraceRecord, type: UInt16) {
        let triple = seq % 40 == 0
        let type: Any.Type = triple ? Triple.self : Int.self
        return (
            TraceRecord(
                seq: seq, time: recorder.eventClock.now(), words: (seq * 3, triple ? seq : 0, triple ? 7 : 0),
                type: type, from: 1, to: 2, thread: 1, call: .forwardOn, kind: .next, shape: .forwarded,
                parts: [.steps, .keptSteps, .event, .keptEvent]),
            TraceTypes.number(of: type)
        )
    }

    /// A record a thread puts in its lane itself (a step whose detail is a text).
    private func laneRecord(_ recorder: TraceRecorder, seq: UInt64) -> TraceRecord {
        TraceRecord(
            seq: seq, time: recorder.eventClock.now(), words: (0, 0, 0), type: nil, from: 2, to: 3, thread: 1,
            call: .dispose, kind: .next, shape: .step, parts: [.steps, .keptSteps, .text])
    }

    /// Seqs 1 (lane), 2…301 (buffer: it fills up once), 302 (lane), as one thread records them.
    private func record(_ recorder: TraceRecorder, _ buffer: Buffer, readings: inout [UInt64: UInt64]) {
        buffer.lane.withLock { $0.records.append(laneRecord(recorder, seq: 1)) }
        for seq in UInt64(2)...301 {
            let (record, type) = element(recorder, seq: seq)
            readings[seq] = record.time
            buffer.append(recorder, record, type: type)
        }
        buffer.lane.withLock { $0.records.append(laneRecord(recorder, seq: 302)) }
    }

    @Test func aFullBufferReachesTheWriterAsItWasWrittenAmongTheLanesRecords() throws {
        let (recorder, buffer) = recorderWithBuffer()
        var readings: [UInt64: UInt64] = [:]
        record(recorder, buffer, readings: &readings)
        let batch = recorder.takeBatch()
        // One full buffer, not widened: the batch's own records are the lane's two and the
        // buffer's records not yet full (widened when taken, as the thread goes on writing).
        let piece = try #require(batch.pieces.first)
        #expect(batch.pieces.count == 1 && piece.at == 1 && piece.start == 0)
        #expect(piece.end >= Buffer.capacity - 1)
        let inPiece = (piece.start..<piece.end).filter { piece.chunk.slots[$0].shape != RecordSlot.continued }.count
        #expect(batch.records.count == 2 + 300 - inPiece)
        var read: [TraceRecord] = []
        TraceRecorder.forEachRecord(batch.records, batch.pieces, types: TraceTypes.all, lines: batch.lines) {
            read.append($0)
        }
        // The thread's order: the first lane record, the full buffer, the second, the rest.
        let elements: [UInt64] = Array(2...301)
        var order: [UInt64] = [1]
        order += elements[..<inPiece]
        order.append(302)
        order += elements[inPiece...]
        #expect(read.map(\.seq) == order)
        for record in read where record.shape == .forwarded {
            let triple = record.seq % 40 == 0
            let type: Any.Type = triple ? Triple.self : Int.self
            #expect(record.type.map(ObjectIdentifier.init) == ObjectIdentifier(type))
            #expect(record.words.0 == record.seq * 3)
            let rest: (UInt64, UInt64) = triple ? (record.seq, 7) : (0, 0)
            #expect(record.words.1 == rest.0)
            #expect(record.words.2 == rest.1)
            #expect(record.time == batch.lines.nanoseconds(readings[record.seq]!))
        }
        // Nanoseconds since the start, in the order the elements were recorded.
        let times = read.filter { $0.shape == .forwarded }.map(\.time)
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 >= $1 && $0 < 60_000_000_000 })
    }

    /// The writer's bytes for a batch with pieces are those of the same records widened first
    /// and converted in one pass, as every full buffer was before.
    @Test func theEncodedBatchIsTheWidenedRecordsBytes() throws {
        let (recorder, buffer) = recorderWithBuffer()
        var readings: [UInt64: UInt64] = [:]
        record(recorder, buffer, readings: &readings)
        let batch = recorder.takeBatch()
        #expect(!batch.pieces.isEmpty)
        var widened: [TraceRecord] = []
        var next = 0
        for (index, record) in batch.records.enumerated() {
            while next < batch.pieces.count, batch.pieces[next].at == index {
                let piece = batch.pieces[next]
                let slots = UnsafeBufferPointer(start: piece.chunk.slots + piece.start, count: piece.end - piece.start)
                var expanded: [TraceRecord] = []
                RecordSlot.expand(slots, into: &expanded)
                expanded.withUnsafeMutableBufferPointer { TraceRecorder.convertTimes($0, along: batch.lines) }
                widened += expanded
                next += 1
            }
            widened.append(record)
        }
        func bytes(_ write: (TraceBinaryStreamEncoding) -> Void) -> [UInt8] {
            let encoding = TraceBinaryStreamEncoding(recorder)
            write(encoding)
            var bytes: [UInt8] = []
            encoding.takePending { bytes = Array($0) }
            return bytes
        }
        let read = bytes { encoding in
            TraceRecorder.forEachRecord(batch.records, batch.pieces, types: TraceTypes.all, lines: batch.lines) {
                encoding.record($0, text: $0.parts.contains(.text) ? "dispose" : nil)
            }
        }
        let expected = bytes { encoding in
            for record in widened { encoding.record(record, text: record.parts.contains(.text) ? "dispose" : nil) }
        }
        #expect(widened.count == 302)
        #expect(read.count > 302 * 8)
        #expect(read == expected)
    }

    /// A written chunk goes back to the recorder and is the next full buffer's; none outlives
    /// its recorder.
    @Test func aWrittenChunkIsReusedAndNoneOutlivesItsRecorder() throws {
        weak var written: TraceRecorder.SlotChunk?
        weak var current: TraceRecorder.SlotChunk?
        do {
            let (recorder, buffer) = recorderWithBuffer()
            var readings: [UInt64: UInt64] = [:]
            record(recorder, buffer, readings: &readings)
            var batch = recorder.takeBatch()
            let chunk = try #require(batch.pieces.first?.chunk)
            written = chunk
            #expect(buffer.chunk !== chunk, "the thread went on in another chunk")
            recorder.recycle(&batch)
            #expect(batch.pieces.isEmpty)
            #expect(recorder.spareChunks.withLock { $0.contains { $0 === chunk } })
            // The buffer fills up again: its next chunk is the one written.
            var seq: UInt64 = 400
            let before = buffer.chunk
            while buffer.chunk === before {
                let (record, type) = element(recorder, seq: seq)
                buffer.append(recorder, record, type: type)
                seq += 1
            }
            #expect(buffer.chunk === chunk)
            current = buffer.chunk
            #expect(recorder.takeBatch().pieces.first?.chunk === before)
        }
        #expect(written == nil && current == nil)
    }

    /// Threads that fill their buffers several times and exit while the writer takes batches:
    /// every element is in the file once, in order on its thread, and the chunks came back.
    @Test func threadsFullBuffersReachTheFileWhole() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chunks-\(UUID().uuidString).rxt")
        defer { try? FileManager.default.removeItem(at: url) }
        let threads = 4, perThread = 1_500
        var spares = 0
        try checkingNoLeaks {
            let recorder = try #require(TraceAutostart.start(environment: ["RXTRACE": url.path]))
            // Its subject and subscription gone when it returns, before the thread says it is done.
            @Sendable func feed(_ thread: Int) {
                let subject = PublishSubject<Int>()
                let d = subject.map { $0 }.subscribe(onNext: { _ in })
                for value in 0..<perThread {
                    subject.onNext(thread * 1_000_000 + value)
                    if value % 500 == 499 { Thread.sleep(forTimeInterval: 0.3) }
                }
                d.dispose()
            }
            let group = DispatchGroup()
            for thread in 0..<threads {
                group.enter()
                Thread {
                    feed(thread)
                    group.leave()
                }.start()
            }
            group.wait()
            #expect(TraceAutostart.finish() == url.path)
            spares = recorder.spareChunks.withLock { $0.count }
        }
        // Each element passes two nodes that record its event: a full buffer holds about 250.
        #expect(spares > 0 && spares <= TraceRecorder.spareChunkLimit)
        let document = try TraceDocument.read(from: url)
        let byNode = Dictionary(grouping: document.events.filter { $0.kind == .next }, by: \.node)
        let observers = Set(document.nodes.filter { $0.type == "AnonymousObserver" }.map(\.id))
        #expect(observers.count == threads)
        for (node, events) in byNode where observers.contains(node) {
            let values = events.sorted { $0.seq < $1.seq }.compactMap { $0.value.flatMap { Int($0) } }
            let thread = (values.first ?? 0) / 1_000_000
            #expect(values == (0..<perThread).map { thread * 1_000_000 + $0 })
        }
        #expect(document.events.filter { $0.kind == .next }.count >= 2 * threads * perThread)
    }
}
