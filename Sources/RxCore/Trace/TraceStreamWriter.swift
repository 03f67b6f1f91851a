import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a streamed recording (`RXTRACE`) while the program runs, as `rxtrace/3` (or
/// `rxtrace/2`, `RXTRACE_FORMAT=2`): a thread of its own takes the recorder's records at least
/// every `interval` (sooner when many are pending), encodes them and appends them to the file,
/// so that what was recorded is on disk (a crash or SIGKILL loses at most about one interval)
/// and the program's exit only writes the last part and the `end` record.
final class TraceStreamWriter: @unchecked Sendable {
    /// Longest time between two writes.
    static let interval: DispatchTimeInterval = .milliseconds(250)

    let recorder: TraceRecorder
    let path: String
    /// `RXTRACE_MAX_MB` in bytes: past it, the next write starts a new segment.
    let maxBytes: Int?
    private let meta: [String: String]
    /// What the current segment holds, for the `drop` record when it is let go.
    @exclusivity(unchecked) private var segment = SegmentCounts()
    private var segments = 0
    /// The marks written so far: each new segment starts with them (tests are few, and a test's
    /// marks are what `leaks --by-test` reads the whole run by).
    private var marks: [TraceRecorder.MarkRecord] = []

    struct SegmentCounts {
        var steps = 0, events = 0, resources = 0, nodes = 0, bytes = 0
    }
    /// Guards everything below: the writer thread and `finish` take turns (so the per-record
    /// state needs no exclusivity checks).
    private let io = Mutex<Void>(())
    private var file: Int32
    private let encoding: any TraceStreamEncoding
    /// A second file the same records are written to in another format (`mirror`, for tests
    /// that compare the formats on one run; never with `maxBytes`).
    private var mirror: (file: Int32, encoding: any TraceStreamEncoding)?
    private var finished = false
    private var failure: String?
    private let stopping = Atomic<Bool>(false)

    /// Opens (creates or truncates) `path` and writes the header; nil, with the reason, when
    /// the file cannot be opened. `mirror` writes the same records to a second file in another
    /// format.
    static func create(
        path: String, recorder: TraceRecorder, meta: [String: String], maxBytes: Int? = nil,
        format: TraceFormat = .v3, mirror: (path: String, format: TraceFormat)? = nil
    ) -> Result<TraceStreamWriter, TraceStreamError> {
        func openFile(_ path: String) -> Result<Int32, TraceStreamError> {
            let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard file >= 0 else {
                return .failure(TraceStreamError(reason: "cannot write \(path): \(String(cString: strerror(errno)))"))
            }
            return .success(file)
        }
        let file: Int32
        switch openFile(path) {
        case .failure(let error): return .failure(error)
        case .success(let opened): file = opened
        }
        let writer = TraceStreamWriter(
            file: file, path: path, recorder: recorder, meta: meta, maxBytes: mirror == nil ? maxBytes : nil,
            encoding: makeEncoding(format, recorder))
        if let mirror {
            switch openFile(mirror.path) {
            case .failure(let error):
                close(file)
                return .failure(error)
            case .success(let opened): writer.mirror = (opened, makeEncoding(mirror.format, recorder))
            }
        }
        // Nodes keep their edges only for the segments of a bounded file.
        recorder.keepEdgesPerNode(writer.maxBytes != nil)
        writer.io.withLock { _ in
            writer.each { $0.header(meta: meta) }
            writer.writeOut()
        }
        return .success(writer)
    }

    private static func makeEncoding(_ format: TraceFormat, _ recorder: TraceRecorder) -> any TraceStreamEncoding {
        format == .v2 ? TraceLineStreamEncoding(recorder) : TraceBinaryStreamEncoding(recorder)
    }

    private init(
        file: Int32, path: String, recorder: TraceRecorder, meta: [String: String], maxBytes: Int?,
        encoding: any TraceStreamEncoding
    ) {
        self.file = file
        self.path = path
        self.recorder = recorder
        self.meta = meta
        self.maxBytes = maxBytes
        self.encoding = encoding
    }

    /// `body` for the file's encoding and the mirror's.
    private func each(_ body: (any TraceStreamEncoding) -> Void) {
        body(encoding)
        if let mirror { body(mirror.encoding) }
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

    /// Writes what is left and the `end` record, and closes the file (once). Returns the reason
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
            let seq = recorder.currentSeq
            each { $0.end(reason: reason, seq: seq) }
            writeOut()
            close(file)
            file = -1
            if let mirror { close(mirror.file) }
            mirror = nil
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
            case .node(let id, let position):
                let node = batch.nodes[position]
                each { $0.node(id, node) }
                segment.nodes += 1
            case .mark(let mark, let id, let seq, let time): each { $0.lifecycle(mark, node: id, seq: seq, time: time) }
            }
        }
        for (id, anomaly) in batch.anomalies { each { $0.anomaly(node: id, anomaly) } }
        for edge in batch.edges { each { $0.edge(edge) } }
        for mark in batch.marks { each { $0.mark(mark) } }
        marks.append(contentsOf: batch.marks)
        // Numbered before the pieces' slots were written.
        let types = batch.pieces.isEmpty ? [] : TraceTypes.all
        // Only a segment's `drop` record says how many steps and events it held (a bounded file).
        let counting = maxBytes != nil
        each { encoding in
            // The file's own format called directly, not through the protocol at each record.
            let (steps, events) =
                if let binary = encoding as? TraceBinaryStreamEncoding {
                    encodeRecords(batch, types: types, counting: counting, into: binary)
                } else {
                    encodeRecords(batch, types: types, counting: counting, into: encoding)
                }
            if encoding === self.encoding {
                segment.steps += steps
                segment.events += events
            }
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
                let sorted = byType.sorted { $0.key < $1.key }
                each { $0.resources(seq: sample.seq, total: total, byType: sorted) }
            }
            segment.resources += batch.resources.count
        }
        writeOut()
        recorder.recycle(&batch)
    }

    /// The records of `batch` into `encoding`; the steps and events they hold when `counting`.
    @inline(__always)
    private func encodeRecords<Encoding: TraceStreamEncoding>(
        _ batch: TraceRecorder.StreamBatch, types: [Any.Type], counting: Bool, into encoding: Encoding
    ) -> (steps: Int, events: Int) {
        var texts = batch.texts.makeIterator()
        var steps = 0, events = 0, encoded = 0
        TraceRecorder.forEachRecord(batch.records, batch.pieces, types: types, lines: batch.lines) { record in
            // Two calls: a `nil` written as such costs no retain and release of an optional text.
            if record.parts.contains(.text) {
                encoding.record(record, text: texts.next())
            } else {
                encoding.record(record, text: nil)
            }
            if counting {
                steps &+= record.keptSteps
                events &+= record.keptEvents
            }
            // Written out past about a megabyte, looked at every 256 records.
            encoded &+= 1
            if encoded & 255 == 0, encoding.pendingCount >= 1 << 20 { writeOut() }
        }
        return (steps, events)
    }

    /// `RXTRACE_MAX_MB` reached: the file is replaced by a new segment (written beside it, then
    /// renamed over it) holding the header, a `drop` record saying what the old one held, and
    /// the nodes still alive as they are now (born before `batch`, whose own node records
    /// follow); strings are interned again as they are used.
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
        encoding.reset()
        var meta = self.meta
        meta["segment"] = String(segments)
        encoding.header(meta: meta)
        encoding.drop(
            steps: segment.steps, events: segment.events, resources: segment.resources,
            nodes: max(0, segment.nodes - carried.count), bytes: segment.bytes, reason: "RXTRACE_MAX_MB")
        for (id, node) in carried {
            encoding.node(id, TraceRecorder.NodeBox(node))
            for anomaly in node.anomalies { encoding.anomaly(node: id, anomaly) }
            if let seq = node.terminated {
                encoding.lifecycle(.terminated, node: id, seq: seq, time: node.terminatedAt)
            }
            if let seq = node.disposed { encoding.lifecycle(.disposed, node: id, seq: seq, time: node.disposedAt) }
        }
        for edge in batch.liveEdges { encoding.edge(edge) }
        for mark in marks { encoding.mark(mark) }
        close(file)
        file = next
        segment = SegmentCounts(nodes: carried.count)
        writeOut()
        if rename(temporary, path) != 0 {
            failure = "cannot replace \(path): \(String(cString: strerror(errno)))"
        }
    }

    /// Appends the encoded bytes to the file (and the mirror's to its file). A failed write is
    /// remembered (said once at `finish`) and later bytes are dropped.
    private func writeOut() {
        segment.bytes += writePending(encoding, to: file)
        if let mirror { _ = writePending(mirror.encoding, to: mirror.file) }
    }

    private func writePending(_ encoding: any TraceStreamEncoding, to file: Int32) -> Int {
        var count = 0
        encoding.takePending { buffer in
            count = buffer.count
            guard failure == nil, file >= 0, !buffer.isEmpty else { return }
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
        return count
    }
}

struct TraceStreamError: Error {
    let reason: String
}

/// A format a streamed recording is written in: what the writer hands it, record by record. An
/// encoding interns what it needs (types, call sites, threads) in its own table, which `reset`
/// forgets (a new segment's file defines its strings again).
protocol TraceStreamEncoding: AnyObject {
    /// Bytes encoded and not written yet.
    var pendingCount: Int { get }
    /// Hands the bytes encoded so far to `body`, then forgets them.
    func takePending(_ body: (UnsafeRawBufferPointer) -> Void)
    func header(meta: [String: String])
    func reset()
    /// A node's birth: reads only what a birth says (see `StreamBatch.nodes`).
    func node(_ id: UInt64, _ node: TraceRecorder.NodeBox)
    func lifecycle(_ mark: TraceLineEncoder.NodeMark, node: UInt64, seq: UInt64, time: UInt64?)
    func anomaly(node: UInt64, _ anomaly: TraceAnomalyRecord)
    func edge(_ edge: TraceEdge)
    func mark(_ mark: TraceRecorder.MarkRecord)
    /// A traced call's record, with its text when it carries one (`.text`).
    func record(_ record: TraceRecord, text: String?)
    func resources(seq: UInt64, total: Int, byType: [(key: String, value: Int)])
    func drop(steps: Int, events: Int, resources: Int, nodes: Int, bytes: Int, reason: String)
    func end(reason: String, seq: UInt64)
}

/// What both encodings keep: interned ids of the current segment's thread names, node kinds,
/// relations, types and call sites, found without hashing a string per node: kinds and
/// relations by their position, types and call sites first in a small direct-mapped cache (a
/// type name by its `String`'s two words, held so that its storage is not reused; a call site
/// by its file literal's address and line: its description splits the file path).
private struct StreamInterning {
    var threadNames: [UInt32: String] = [:]
    var threadIDs: [UInt32: Int] = [:]
    var lastThread: (index: UInt32, id: Int) = (.max, 0)
    var kindIDs = [Int](repeating: -1, count: 7)
    var relationIDs = [Int](repeating: -1, count: 5)
    var typeIDs: [String: Int] = [:]
    var siteIDs: [SiteKey: (site: Int, file: Int)] = [:]
    static let cacheSlots = 64
    var typeCache = [(type: String, id: Int)?](repeating: nil, count: cacheSlots)
    var siteCache = [(key: SiteKey, ids: (site: Int, file: Int))?](repeating: nil, count: cacheSlots)

    struct SiteKey: Hashable {
        let file: UInt
        let line: UInt
    }

    mutating func reset() {
        threadIDs.removeAll()
        lastThread = (.max, 0)
        for index in kindIDs.indices { kindIDs[index] = -1 }
        for index in relationIDs.indices { relationIDs[index] = -1 }
        typeIDs.removeAll()
        siteIDs.removeAll()
        for index in typeCache.indices { typeCache[index] = nil }
        for index in siteCache.indices { siteCache[index] = nil }
    }

    mutating func threadName(_ index: UInt32) -> String {
        if let name = threadNames[index] { return name }
        let name = TraceThreads.name(of: index)
        threadNames[index] = name
        return name
    }

    /// The interned id of a thread's name.
    @inline(__always)
    mutating func thread(_ index: UInt32, _ intern: (String) -> Int) -> Int {
        if lastThread.index == index { return lastThread.id }
        let id = threadIDs[index] ?? newThread(index, intern)
        lastThread = (index, id)
        return id
    }

    private mutating func newThread(_ index: UInt32, _ intern: (String) -> Int) -> Int {
        let id = intern(threadName(index))
        threadIDs[index] = id
        return id
    }

    @inline(__always)
    private static func position(_ kind: TraceNodeKind) -> Int {
        switch kind {
        case .producer: return 0
        case .observable: return 1
        case .subject: return 2
        case .sink: return 3
        case .observer: return 4
        case .disposable: return 5
        case .scheduled: return 6
        }
    }

    @inline(__always)
    private static func position(_ relation: TraceRelation) -> Int {
        switch relation {
        case .source: return 0
        case .run: return 1
        case .forward: return 2
        case .owns: return 3
        case .subscribes: return 4
        }
    }

    /// A slot of the caches for two words.
    @inline(__always)
    private static func slot(_ first: UInt64, _ second: UInt64) -> Int {
        Int(truncatingIfNeeded: ((first ^ (second &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9) >> 58)
    }

    @inline(__always)
    private static func words(_ text: String) -> (UInt64, UInt64) { unsafeBitCast(text, to: (UInt64, UInt64).self) }

    /// The interned id of a relation.
    mutating func relation(_ relation: TraceRelation, _ intern: (String) -> Int) -> Int {
        let index = Self.position(relation)
        if relationIDs[index] < 0 { relationIDs[index] = intern(relation.rawValue) }
        return relationIDs[index]
    }

    private mutating func type(_ type: String, _ intern: (String) -> Int) -> Int {
        let words = Self.words(type)
        let slot = Self.slot(words.0, words.1)
        if let entry = typeCache[slot], Self.words(entry.type) == words { return entry.id }
        let id: Int
        if let known = typeIDs[type] {
            id = known
        } else {
            id = intern(type)
            typeIDs[type] = id
        }
        typeCache[slot] = (type, id)
        return id
    }

    private mutating func site(_ callSite: CallSite, _ intern: (String) -> Int) -> (site: Int, file: Int) {
        guard callSite.file.hasPointerRepresentation else {
            return (intern(callSite.description), intern(callSite.fileID))
        }
        let key = SiteKey(file: UInt(bitPattern: callSite.file.utf8Start), line: callSite.line)
        let slot = Self.slot(UInt64(key.file), UInt64(key.line))
        if let entry = siteCache[slot], entry.key == key { return entry.ids }
        let ids: (site: Int, file: Int)
        if let known = siteIDs[key] {
            ids = known
        } else {
            ids = (intern(callSite.description), intern(callSite.fileID))
            siteIDs[key] = ids
        }
        siteCache[slot] = (key, ids)
        return ids
    }

    /// A node's kind, type, call site and file, interned.
    mutating func node(
        _ node: TraceRecorder.NodeBox, _ intern: (String) -> Int
    ) -> (
        kind: Int, type: Int, site: (site: Int, file: Int)?
    ) {
        let kind = node.record.kind
        let index = Self.position(kind)
        if kindIDs[index] < 0 { kindIDs[index] = intern(kind.rawValue) }
        return (kindIDs[index], type(node.record.type, intern), node.record.callSite.map { site($0, intern) })
    }
}

/// `rxtrace/2`: JSON lines, each traced call written as its steps (`c`) and events (`v`).
final class TraceLineStreamEncoding: TraceStreamEncoding {
    private let recorder: TraceRecorder
    @exclusivity(unchecked) private var lines = TraceLineEncoder(capacity: 1 << 20)
    @exclusivity(unchecked) private var interning = StreamInterning()
    /// Interned ids of the current segment's calls (no string hashing per record).
    @exclusivity(unchecked) private var callIDs: [TraceCall: Int] = [:]

    init(_ recorder: TraceRecorder) { self.recorder = recorder }

    var pendingCount: Int { lines.bytes.count }
    func takePending(_ body: (UnsafeRawBufferPointer) -> Void) { lines.takeBytes().withUnsafeBytes(body) }
    func header(meta: [String: String]) { lines.header(meta: meta) }

    func reset() {
        lines.resetStrings()
        interning.reset()
        callIDs.removeAll()
    }

    private func thread(_ index: UInt32) -> Int { interning.thread(index) { lines.intern($0) } }

    func node(_ id: UInt64, _ node: TraceRecorder.NodeBox) {
        let ids = interning.node(node) { lines.intern($0) }
        lines.node(
            id: id, kindID: ids.kind, typeID: ids.type, callSiteID: ids.site?.site, fileIDID: ids.site?.file,
            created: node.record.created, threadID: thread(node.record.thread), nanoseconds: node.record.createdAt)
    }

    func lifecycle(_ mark: TraceLineEncoder.NodeMark, node: UInt64, seq: UInt64, time: UInt64?) {
        lines.mark(mark, node: node, seq: seq, nanoseconds: time)
    }

    func anomaly(node: UInt64, _ anomaly: TraceAnomalyRecord) {
        lines.anomaly(node: node, kind: anomaly.kind.rawValue, seq: anomaly.seq, detail: anomaly.detail)
    }

    func edge(_ edge: TraceEdge) { lines.edge(from: edge.from, to: edge.to, relation: edge.relation.rawValue) }

    func mark(_ mark: TraceRecorder.MarkRecord) {
        lines.mark(seq: mark.seq, kind: mark.kind.rawValue, name: mark.name, thread: thread(mark.thread))
    }

    /// A record's steps and events as `c` and `v` lines.
    func record(_ record: TraceRecord, text: String?) {
        let value = recorder.describe(record, text: text)
        let threadID = thread(record.thread)
        record.forEachStep { seq, call, from, to in
            let callID = callIDs[call] ?? lines.intern(call.rawValue)
            callIDs[call] = callID
            if record.shape == .step {
                // The subscribe flow's details repeat (`CurrentThreadScheduler`): interned.
                lines.step(
                    seq: seq, from: UInt64(from), to: UInt64(to), callID: callID, detail: value,
                    unique: Self.namesNodes(call), threadID: threadID)
            } else {
                lines.step(
                    seq: seq, from: UInt64(from), to: UInt64(to), callID: callID, event: record.kind, value: value,
                    threadID: threadID)
            }
        }
        record.forEachEvent { seq, node in
            if record.parts.contains(.virtual) {
                lines.event(
                    seq: seq, node: UInt64(node), kind: record.kind, value: value,
                    time: Double(bitPattern: record.time), virtual: true, thread: interning.threadName(record.thread))
            } else {
                lines.event(
                    seq: seq, node: UInt64(node), kind: record.kind, inlineValue: value, nanoseconds: record.time,
                    threadID: threadID)
            }
        }
    }

    /// Whether a subscribe-flow call's detail names nodes by id (so never repeats).
    private static func namesNodes(_ call: TraceCall) -> Bool {
        call == .subscribe || call == .run || call == .setSinkAndSubscription
    }

    func resources(seq: UInt64, total: Int, byType: [(key: String, value: Int)]) {
        lines.resources(seq: seq, total: total, byType: byType.map { ($0.key, $0.value) })
    }

    func drop(steps: Int, events: Int, resources: Int, nodes: Int, bytes: Int, reason: String) {
        lines.drop(steps: steps, events: events, resources: resources, nodes: nodes, bytes: bytes, reason: reason)
    }

    func end(reason: String, seq: UInt64) { lines.end(reason: reason, seq: seq) }
}

/// `rxtrace/3`: a traced call is one binary record; `Int`, `Double` and `Bool` values are written
/// as numbers, other plain values described here, on the writer's thread.
final class TraceBinaryStreamEncoding: TraceStreamEncoding {
    private let recorder: TraceRecorder
    @exclusivity(unchecked) private var binary = TraceBinaryEncoder(capacity: 1 << 20)
    @exclusivity(unchecked) private var interning = StreamInterning()

    init(_ recorder: TraceRecorder) { self.recorder = recorder }

    var pendingCount: Int { binary.out.count }

    func takePending(_ body: (UnsafeRawBufferPointer) -> Void) {
        body(binary.out.bytes)
        binary.out.removeAll()
    }

    func header(meta: [String: String]) { binary.header(meta: meta) }

    func reset() {
        binary.reset()
        interning.reset()
    }

    @inline(__always)
    private func thread(_ index: UInt32) -> Int { interning.thread(index) { binary.intern($0) } }

    func node(_ id: UInt64, _ node: TraceRecorder.NodeBox) {
        let ids = interning.node(node) { binary.intern($0) }
        let thread = thread(node.record.thread)
        binary.node(
            id: id, kindID: ids.kind, typeID: ids.type, callSiteID: ids.site?.site, fileIDID: ids.site?.file,
            created: node.record.created, threadID: thread, nanoseconds: node.record.createdAt)
    }

    func lifecycle(_ mark: TraceLineEncoder.NodeMark, node: UInt64, seq: UInt64, time: UInt64?) {
        binary.lifecycle(mark, node: node, seq: seq, nanoseconds: time)
    }

    func anomaly(node: UInt64, _ anomaly: TraceAnomalyRecord) {
        let kind = binary.intern(anomaly.kind.rawValue)
        binary.anomaly(node: node, kindID: kind, seq: anomaly.seq, detail: anomaly.detail)
    }

    func edge(_ edge: TraceEdge) {
        let relation = interning.relation(edge.relation) { binary.intern($0) }
        binary.edge(from: edge.from, to: edge.to, relationID: relation)
    }

    func mark(_ mark: TraceRecorder.MarkRecord) {
        let kind = binary.intern(mark.kind.rawValue)
        let thread = thread(mark.thread)
        binary.mark(seq: mark.seq, kindID: kind, name: mark.name, threadID: thread)
    }

    func record(_ record: TraceRecord, text: String?) {
        binary.thread(thread(record.thread))
        let shape: TraceFormat3.Shape
        switch record.shape {
        case .forwarded: shape = .forwarded
        case .received: shape = .received
        case .observed: shape = .observed
        case .step: shape = .step
        case .receivedForwarded: shape = .receivedForwarded
        case .forwardedObserved: shape = .forwardedObserved
        }
        var flags = TraceFormat3.code(record.kind)
        // A streamed recording's records are never split: what a call recorded is what it keeps.
        if record.parts.contains(.keptSteps) { flags |= TraceFormat3.Flag.steps }
        if record.parts.contains(.event) && record.parts.contains(.keptEvent) { flags |= TraceFormat3.Flag.event }
        if record.parts.contains(.secondEvent) && record.parts.contains(.keptEvent) {
            flags |= TraceFormat3.Flag.secondEvent
        }
        if record.parts.contains(.virtual) { flags |= TraceFormat3.Flag.virtual }
        binary.call(
            shape: shape, flags: flags, call: record.call, seq: record.seq, clockValues: record.clockValues,
            from: UInt64(record.from), to: UInt64(record.to), time: record.time
        ) { _ in }
        // The value after the fixed part (its room reserved there): an `Int`, the most common, here.
        if !record.parts.contains(.text), record.type == Int.self {
            binary.out.byte(TraceFormat3.Value.int)
            binary.out.signed(Int64(bitPattern: record.words.0))
        } else {
            value(record, text: text)
        }
    }

    /// A record's value, but for an `Int` (`record(_:text:)`). (`binary.out` read at each use: bound
    /// to a local or passed in, it was retained and released at every record.)
    private func value(_ record: TraceRecord, text: String?) {
        let type = record.type
        if !record.parts.contains(.text), let type, type != InlineText.self {
            if type == Double.self {
                binary.out.byte(TraceFormat3.Value.double)
                return binary.out.fixed(record.words.0)
            }
            if type == Bool.self {
                return binary.out.byte(record.words.0 & 0xFF != 0 ? TraceFormat3.Value.true : TraceFormat3.Value.false)
            }
        }
        if type == TraceDetailWords.self, !record.parts.contains(.text),
            let detail = TraceDetail(rawValue: UInt8(truncatingIfNeeded: record.words.0))
        {
            binary.out.byte(TraceFormat3.Value.detail)
            binary.out.byte(detail.rawValue)
            binary.out.unsigned(record.words.1)
            if detail.arity > 1 { binary.out.unsigned(record.words.2) }
            return
        }
        if type == InlineText.self, !record.parts.contains(.text) {
            binary.out.byte(TraceFormat3.Value.text)
            withUnsafeBytes(of: record.words) { buffer in
                let count = Int(buffer[buffer.count - 1])
                binary.out.unsigned(UInt64(count))
                binary.out.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
            return
        }
        guard let value = recorder.describe(record, text: text) else { return binary.out.byte(TraceFormat3.Value.none) }
        binary.out.byte(TraceFormat3.Value.text)
        binary.out.text(value)
    }

    func resources(seq: UInt64, total: Int, byType: [(key: String, value: Int)]) {
        let types = byType.map { (typeID: binary.intern($0.key), count: $0.value) }
        binary.resources(seq: seq, total: total, byType: types)
    }

    func drop(steps: Int, events: Int, resources: Int, nodes: Int, bytes: Int, reason: String) {
        binary.drop(steps: steps, events: events, resources: resources, nodes: nodes, bytes: bytes, reason: reason)
    }

    func end(reason: String, seq: UInt64) { binary.end(reason: reason, seq: seq) }
}
