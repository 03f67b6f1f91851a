import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a streamed recording (`RXTRACE`) as `rxtrace/2` while the program runs: a thread of
/// its own takes the recorder's records at least every `interval` (sooner when many are
/// pending), encodes them and appends them to the file, so that what was recorded is on disk
/// (a crash or SIGKILL loses at most about one interval) and the program's exit only writes
/// the last part and the `end` line.
final class TraceStreamWriter: @unchecked Sendable {
    /// Longest time between two writes.
    static let interval: DispatchTimeInterval = .milliseconds(250)

    let recorder: TraceRecorder
    let path: String
    /// Guards everything below: the writer thread and `finish` take turns.
    private let io = Mutex<Void>(())
    private var file: Int32
    private var encoder = TraceLineEncoder(capacity: 1 << 20)
    private var threadNames: [UInt32: String] = [:]
    private var finished = false
    private var failure: String?
    private let stopping = Atomic<Bool>(false)
    /// Bytes written so far.
    private(set) var bytesWritten = 0
    /// Steps and events written so far.
    private(set) var recordsWritten = 0

    /// Opens (creates or truncates) `path` and writes the header; nil, with the reason, when
    /// the file cannot be opened.
    static func create(
        path: String, recorder: TraceRecorder, meta: [String: String]
    ) -> Result<
        TraceStreamWriter, TraceStreamError
    > {
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else {
            return .failure(TraceStreamError(reason: "cannot write \(path): \(String(cString: strerror(errno)))"))
        }
        let writer = TraceStreamWriter(file: file, path: path, recorder: recorder)
        writer.io.withLock { _ in
            writer.encoder.header(meta: meta)
            writer.writeOut()
        }
        return .success(writer)
    }

    private init(file: Int32, path: String, recorder: TraceRecorder) {
        self.file = file
        self.path = path
        self.recorder = recorder
    }

    /// Starts the writing thread.
    func start() {
        let thread = Thread { [self] in
            while !stopping.load(ordering: .relaxed) {
                _ = recorder.streamWake.wait(timeout: .now() + Self.interval)
                if stopping.load(ordering: .relaxed) { break }
                io.withLock { _ in
                    guard !finished else { return }
                    writeBatch()
                }
            }
        }
        thread.name = "rxtrace writer"
        thread.start()
    }

    /// Writes what is left and the `end` line, and closes the file (once). Returns the reason
    /// of a failed write, if any.
    @discardableResult
    func finish(reason: String) -> String? {
        stopping.store(true, ordering: .relaxed)
        recorder.streamWake.signal()
        return io.withLock { _ -> String? in
            guard !finished else { return failure }
            finished = true
            recorder.sampleResources()
            writeBatch()
            encoder.end(reason: reason, seq: recorder.currentSeq)
            writeOut()
            close(file)
            file = -1
            return failure
        }
    }

    /// Takes a batch from the recorder, encodes it and writes it (under `io`).
    private func writeBatch() {
        let batch = recorder.takeBatch()
        for op in batch.ops {
            switch op {
            case .node(let id, let node):
                encoder.node(
                    id: id, kind: node.kind.rawValue, type: node.type, callSite: node.callSite?.description,
                    fileID: node.callSite?.fileID, created: node.created, thread: threadName(node.thread))
            case .mark(let mark, let id, let seq): encoder.mark(mark, node: id, seq: seq)
            case .anomaly(let id, let anomaly):
                encoder.anomaly(node: id, kind: anomaly.kind.rawValue, seq: anomaly.seq, detail: anomaly.detail)
            }
        }
        for edge in batch.edges { encoder.edge(from: edge.from, to: edge.to, relation: edge.relation.rawValue) }
        for record in batch.records {
            encode(record, texts: batch.texts)
            if encoder.bytes.count >= 1 << 20 { writeOut() }
        }
        if !batch.resources.isEmpty {
            let names = ResourceCounter.all().map(\.name)
            for sample in batch.resources {
                var byType: [String: Int] = [:]
                var total = 0
                for (index, count) in sample.counts.enumerated() where count != 0 && index < names.count {
                    byType[names[index], default: 0] += count
                    total += count
                }
                encoder.resources(seq: sample.seq, total: total, byType: byType.sorted { $0.key < $1.key })
            }
        }
        writeOut()
    }

    /// A record's steps and events as `c` and `v` lines.
    private func encode(_ record: TraceRecord, texts: [UInt64: String]) {
        let value = recorder.describe(record, texts: texts)
        let thread = threadName(record.thread)
        record.forEachStep { seq, call, from, to in
            let detail = record.shape == .step ? value : TraceEventKind.describe(record.kind, value)
            encoder.step(
                seq: seq, from: UInt64(from), to: UInt64(to), call: call.rawValue, detail: detail, thread: thread)
            recordsWritten += 1
        }
        record.forEachEvent { seq, node in
            if record.parts.contains(.virtual) {
                encoder.event(
                    seq: seq, node: UInt64(node), kind: record.kind, value: value,
                    time: Double(bitPattern: record.time), virtual: true, thread: thread)
            } else {
                encoder.event(
                    seq: seq, node: UInt64(node), kind: record.kind, value: value, nanoseconds: record.time,
                    thread: thread)
            }
            recordsWritten += 1
        }
    }

    private func threadName(_ index: UInt32) -> String {
        if let name = threadNames[index] { return name }
        let name = TraceThreads.name(of: index)
        threadNames[index] = name
        return name
    }

    /// Appends the encoded bytes to the file. A failed write is remembered (said once at
    /// `finish`) and later bytes are dropped.
    private func writeOut() {
        let bytes = encoder.takeBytes()
        guard failure == nil, file >= 0, !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(file, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = "cannot write \(path): \(String(cString: strerror(errno)))"
                    return
                }
                offset += written
            }
        }
        bytesWritten += bytes.count
    }
}

struct TraceStreamError: Error {
    let reason: String
}
