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
    /// `RXTRACE_MAX_MB` in bytes: past it, the next write starts a new segment.
    let maxBytes: Int?
    private let meta: [String: String]
    /// What the current segment holds, for the `drop` line when it is let go.
    @exclusivity(unchecked) private var segment = SegmentCounts()
    private var segments = 0
    /// The marks written so far: each new segment starts with them (tests are few, and a test's
    /// marks are what `leaks --by-test` reads the whole run by).
    private var marks: [TraceRecorder.MarkRecord] = []

    struct SegmentCounts {
        var steps = 0, events = 0, resources = 0, nodes = 0, bytes = 0
    }
    /// Guards everything below: the writer thread and `finish` take turns (so the per-line
    /// state needs no exclusivity checks).
    private let io = Mutex<Void>(())
    private var file: Int32
    @exclusivity(unchecked) private var encoder = TraceLineEncoder(capacity: 1 << 20)
    private var threadNames: [UInt32: String] = [:]
    /// Interned ids of the current segment, by thread and by call (no string hashing per record).
    @exclusivity(unchecked) private var threadIDs: [UInt32: Int] = [:]
    @exclusivity(unchecked) private var callIDs: [TraceCall: Int] = [:]
    /// Interned ids of the current segment for nodes' kinds, types and call sites: a call site
    /// is found by its file literal's address and line (its description splits the file path).
    @exclusivity(unchecked) private var kindIDs: [TraceNodeKind: Int] = [:]
    @exclusivity(unchecked) private var typeIDs: [String: Int] = [:]
    @exclusivity(unchecked) private var siteIDs: [SiteKey: (site: Int, file: Int)] = [:]

    private struct SiteKey: Hashable {
        let file: UInt
        let line: UInt
    }
    private var finished = false
    private var failure: String?
    private let stopping = Atomic<Bool>(false)

    /// Opens (creates or truncates) `path` and writes the header; nil, with the reason, when
    /// the file cannot be opened.
    static func create(
        path: String, recorder: TraceRecorder, meta: [String: String], maxBytes: Int? = nil
    ) -> Result<
        TraceStreamWriter, TraceStreamError
    > {
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else {
            return .failure(TraceStreamError(reason: "cannot write \(path): \(String(cString: strerror(errno)))"))
        }
        let writer = TraceStreamWriter(file: file, path: path, recorder: recorder, meta: meta, maxBytes: maxBytes)
        writer.io.withLock { _ in
            writer.encoder.header(meta: meta)
            writer.writeOut()
        }
        return .success(writer)
    }

    private init(file: Int32, path: String, recorder: TraceRecorder, meta: [String: String], maxBytes: Int?) {
        self.file = file
        self.path = path
        self.recorder = recorder
        self.meta = meta
        self.maxBytes = maxBytes
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
            writeBatch(final: true)
            encoder.end(reason: reason, seq: recorder.currentSeq)
            writeOut()
            close(file)
            file = -1
            return failure
        }
    }

    /// Takes a batch from the recorder, encodes it and writes it (under `io`).
    /// The last batch (`final`) never starts a segment: it would drop what the run ended with.
    private func writeBatch(final: Bool = false) {
        let full = !final && (maxBytes.map { segment.bytes >= $0 } ?? false)
        var batch = recorder.takeBatch(live: full)
        if full { startSegment(carrying: batch) }
        for op in batch.ops {
            switch op {
            case .node(let id, let node):
                writeNode(id, node)
                segment.nodes += 1
            case .mark(let mark, let id, let seq, let time): encoder.mark(mark, node: id, seq: seq, nanoseconds: time)
            case .anomaly(let id, let anomaly):
                encoder.anomaly(node: id, kind: anomaly.kind.rawValue, seq: anomaly.seq, detail: anomaly.detail)
            }
        }
        for edge in batch.edges { encoder.edge(from: edge.from, to: edge.to, relation: edge.relation.rawValue) }
        for mark in batch.marks { writeMark(mark) }
        marks.append(contentsOf: batch.marks)
        var texts = batch.texts.makeIterator()
        for record in batch.records {
            encode(record, text: record.parts.contains(.text) ? texts.next() : nil)
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
            segment.resources += batch.resources.count
        }
        writeOut()
        recorder.recycle(&batch.records)
    }

    private func writeNode(_ id: UInt64, _ node: TraceRecorder.NodeRecord) {
        let kind = kindIDs[node.kind] ?? intern(node.kind.rawValue) { kindIDs[node.kind] = $0 }
        let type = typeIDs[node.type] ?? intern(node.type) { typeIDs[node.type] = $0 }
        var site: (site: Int, file: Int)?
        if let callSite = node.callSite {
            if callSite.file.hasPointerRepresentation {
                let key = SiteKey(file: UInt(bitPattern: callSite.file.utf8Start), line: callSite.line)
                site = siteIDs[key] ?? internSite(callSite)
                siteIDs[key] = site
            } else {
                site = internSite(callSite)
            }
        }
        encoder.node(
            id: id, kindID: kind, typeID: type, callSiteID: site?.site, fileIDID: site?.file, created: node.created,
            threadID: threadID(node.thread), nanoseconds: node.createdAt)
    }

    private func writeMark(_ mark: TraceRecorder.MarkRecord) {
        encoder.mark(seq: mark.seq, kind: mark.kind.rawValue, name: mark.name, thread: threadID(mark.thread))
    }

    private func intern(_ text: String, remember: (Int) -> Void) -> Int {
        let id = encoder.intern(text)
        remember(id)
        return id
    }

    private func internSite(_ callSite: CallSite) -> (site: Int, file: Int) {
        (encoder.intern(callSite.description), encoder.intern(callSite.fileID))
    }

    /// The interned id of a thread's name in the current segment.
    private func threadID(_ index: UInt32) -> Int {
        if let id = threadIDs[index] { return id }
        let id = encoder.intern(threadName(index))
        threadIDs[index] = id
        return id
    }

    /// `RXTRACE_MAX_MB` reached: the file is replaced by a new segment (written beside it, then
    /// renamed over it) holding the header, a `drop` line saying what the old one held, and
    /// the nodes still alive as they are now (born before `batch`, whose own `n` lines follow);
    /// strings are interned again as they are used.
    private func startSegment(carrying batch: TraceRecorder.StreamBatch) {
        writeOut()
        guard failure == nil else { return }
        let temporary = path + ".segment.tmp"
        let next = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard next >= 0 else {
            failure = "cannot write \(temporary): \(String(cString: strerror(errno)))"
            return
        }
        var bornInBatch = Set<UInt64>()
        for case .node(let id, _) in batch.ops { bornInBatch.insert(id) }
        let carried = batch.live.filter { !bornInBatch.contains($0.id) }
        segments += 1
        encoder.resetStrings()
        threadIDs.removeAll()
        callIDs.removeAll()
        kindIDs.removeAll()
        typeIDs.removeAll()
        siteIDs.removeAll()
        var meta = self.meta
        meta["segment"] = String(segments)
        encoder.header(meta: meta)
        encoder.drop(
            steps: segment.steps, events: segment.events, resources: segment.resources,
            nodes: max(0, segment.nodes - carried.count), bytes: segment.bytes, reason: "RXTRACE_MAX_MB")
        for (id, node) in carried {
            writeNode(id, node)
            for anomaly in node.anomalies {
                encoder.anomaly(node: id, kind: anomaly.kind.rawValue, seq: anomaly.seq, detail: anomaly.detail)
            }
            if let seq = node.terminated {
                encoder.mark(.terminated, node: id, seq: seq, nanoseconds: node.terminatedAt)
            }
            if let seq = node.disposed { encoder.mark(.disposed, node: id, seq: seq, nanoseconds: node.disposedAt) }
        }
        for edge in batch.liveEdges { encoder.edge(from: edge.from, to: edge.to, relation: edge.relation.rawValue) }
        for mark in marks { writeMark(mark) }
        close(file)
        file = next
        segment = SegmentCounts(nodes: carried.count)
        writeOut()
        if rename(temporary, path) != 0 {
            failure = "cannot replace \(path): \(String(cString: strerror(errno)))"
        }
    }

    /// A record's steps and events as `c` and `v` lines.
    private func encode(_ record: TraceRecord, text: String?) {
        let value = recorder.describe(record, text: text)
        let threadID = threadID(record.thread)
        record.forEachStep { seq, call, from, to in
            let callID = callIDs[call] ?? intern(call.rawValue) { callIDs[call] = $0 }
            if record.shape == .step {
                // The subscribe flow's details repeat (`CurrentThreadScheduler`): interned.
                encoder.step(
                    seq: seq, from: UInt64(from), to: UInt64(to), callID: callID, detail: value,
                    unique: Self.namesNodes(call), threadID: threadID)
            } else {
                encoder.step(
                    seq: seq, from: UInt64(from), to: UInt64(to), callID: callID, event: record.kind, value: value,
                    threadID: threadID)
            }
            segment.steps += 1
        }
        record.forEachEvent { seq, node in
            if record.parts.contains(.virtual) {
                encoder.event(
                    seq: seq, node: UInt64(node), kind: record.kind, value: value,
                    time: Double(bitPattern: record.time), virtual: true, thread: threadName(record.thread))
            } else {
                encoder.event(
                    seq: seq, node: UInt64(node), kind: record.kind, inlineValue: value, nanoseconds: record.time,
                    threadID: threadID)
            }
            segment.events += 1
        }
    }

    /// Whether a subscribe-flow call's detail names nodes by id (so never repeats).
    private static func namesNodes(_ call: TraceCall) -> Bool {
        call == .subscribe || call == .run || call == .setSinkAndSubscription
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
        segment.bytes += bytes.count
    }
}

struct TraceStreamError: Error {
    let reason: String
}
