import Foundation

/// The two forms a trace is written in (docs/trace-format.md).
public enum TraceFormat: String, Sendable, CaseIterable {
    /// One JSON document (`"format": "rxtrace/1"`), keys sorted: the form other tools read.
    case v1 = "rxtrace/1"
    /// JSON lines, strings interned, written record by record while a program runs.
    case v2 = "rxtrace/2"
    /// The `rxtrace/2` header line, then binary records: a traced call is one record, numbers
    /// are numbers (what `RXTRACE` writes by default).
    case v3 = "rxtrace/3"
}

/// Writes `rxtrace/2` records into a byte buffer: one JSON value per line, repeated strings
/// interned (a `["$", id, text]` line before the first use, the id afterwards).
///
/// No `JSONEncoder`, no Foundation formatting: numbers are written digit by digit and strings
/// are escaped byte by byte, so that the recorder's writer can encode records as fast as a
/// program makes them. Text is escaped for JSON whatever it holds (quotes, backslashes,
/// control characters); a Swift `String` is always valid UTF-8 (invalid input bytes became
/// U+FFFD when the string was made), so what is written is valid UTF-8.
///
/// Not thread-safe: one writer owns it (the strings it interned are the ones its lines defined).
package struct TraceLineEncoder {
    /// The encoded lines not yet taken.
    package private(set) var bytes: [UInt8] = []
    /// Interned strings and their ids.
    private var interned: [String: Int] = [:]
    /// Values seen once (inline); a value seen again is interned. Cleared when it grows large,
    /// so that a long run of distinct values keeps it bounded.
    private var seenOnce: Set<String> = []
    /// Most interned values (`.value` fields); strings of `.name` fields are always interned.
    package var valueInternLimit = 100_000
    private var internedValues = 0
    static let seenOnceLimit = 50_000
    /// Values longer than this are always written inline.
    static let longValue = 64

    package init(capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    /// How many strings were interned.
    package var internedCount: Int { interned.count }

    /// The strings interned so far, by id (for a new segment that must define them again).
    package var internedStrings: [(id: Int, text: String)] {
        interned.map { (id: $0.value, text: $0.key) }.sorted { $0.id < $1.id }
    }

    /// The id of an interned string, if it is interned.
    package func internedID(_ text: String) -> Int? { interned[text] }

    /// Hands over the encoded bytes and empties the buffer (the interned strings stay).
    package mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        taken.reserveCapacity(Swift.max(bytes.count, 1 << 12))
        swap(&taken, &bytes)
        return taken
    }

    /// Forgets the interned strings (a new file starts with no definitions).
    package mutating func resetStrings() {
        interned.removeAll(keepingCapacity: true)
        seenOnce.removeAll(keepingCapacity: true)
        internedValues = 0
    }

    // MARK: Records

    /// Line 1: `{"format":"rxtrace/2","meta":{…}}` (meta keys sorted; `rxtrace/3` has the same).
    package mutating func header(meta: [String: String], format: String = TraceFormat.v2.rawValue) {
        append("{\"format\":")
        appendQuoted(format)
        append(",\"meta\":{")
        for (index, key) in meta.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendQuoted(key)
            bytes.append(UInt8(ascii: ":"))
            appendQuoted(meta[key]!)
        }
        append("}}\n")
    }

    /// `["n", id, kind, type, callSite, fileID, created, thread, time]` (time: seconds, when known).
    package mutating func node(
        id: UInt64, kind: String, type: String, callSite: String?, fileID: String?, created: UInt64,
        thread: String?, time: Double? = nil
    ) {
        node(
            id: id, kindID: intern(kind), typeID: intern(type), callSiteID: callSite.map { intern($0) },
            fileIDID: fileID.map { intern($0) }, created: created, threadID: thread.map { intern($0) }, seconds: time)
    }

    /// `["n", …]` with its strings interned already (ids from `intern`), and its time when known
    /// (a trailing field: seconds, written from nanoseconds).
    package mutating func node(
        id: UInt64, kindID kind: Int, typeID type: Int, callSiteID callSite: Int?, fileIDID fileID: Int?,
        created: UInt64, threadID thread: Int?, nanoseconds: UInt64? = nil, seconds: Double? = nil
    ) {
        append("[\"n\",")
        appendUInt(id)
        comma()
        appendUInt(UInt64(kind))
        comma()
        appendUInt(UInt64(type))
        comma()
        appendRef(callSite)
        comma()
        appendRef(fileID)
        comma()
        appendUInt(created)
        comma()
        appendRef(thread)
        if let nanoseconds {
            comma()
            appendNanoseconds(nanoseconds)
        } else if let seconds {
            comma()
            appendDouble(seconds)
        }
        endRecord()
    }

    /// `["e", from, to, relation]`.
    package mutating func edge(from: UInt64, to: UInt64, relation: String) {
        let relation = intern(relation)
        append("[\"e\",")
        appendUInt(from)
        comma()
        appendUInt(to)
        comma()
        appendUInt(UInt64(relation))
        endRecord()
    }

    /// `["c", seq, from, to, call, detail, thread]`.
    package mutating func step(seq: UInt64, from: UInt64, to: UInt64, call: String, detail: String?, thread: String?) {
        step(seq: seq, from: from, to: to, callID: intern(call), detail: detail, threadID: thread.map { intern($0) })
    }

    /// A step of the subscribe flow with its call and thread interned already. A detail that
    /// names nodes (`unique`: `subscribe(12)`, `run(observer: 12, cancel: 13)`) never comes
    /// again and is written in place.
    package mutating func step(
        seq: UInt64, from: UInt64, to: UInt64, callID call: Int, detail: String?, unique: Bool = false,
        threadID thread: Int?
    ) {
        let detail = detail.map { unique ? .text($0) : value($0) }
        stepHead(seq: seq, from: from, to: to, callID: call)
        appendField(detail)
        comma()
        appendRef(thread)
        endRecord()
    }

    /// `["c", seq, from, to, call,` — what both kinds of step begin with.
    private mutating func stepHead(seq: UInt64, from: UInt64, to: UInt64, callID: Int) {
        append("[\"c\",")
        appendUInt(seq)
        comma()
        appendUInt(from)
        comma()
        appendUInt(to)
        comma()
        appendUInt(UInt64(callID))
        comma()
    }

    /// A hop's step (`on`, `forwardOn`, `onCore`) as the streamed writer writes it: strings
    /// interned already (`callID`, `threadID`), the detail (`next(value)`, `error(value)`,
    /// `completed`) written in place without making it a string first.
    package mutating func step(
        seq: UInt64, from: UInt64, to: UInt64, callID: Int, event kind: TraceEventKind, value: String?,
        threadID: Int
    ) {
        stepHead(seq: seq, from: from, to: to, callID: callID)
        switch kind {
        case .completed: append("\"completed\"")
        case .next, .error:
            append(kind == .next ? "\"next(" : "\"error(")
            if let value { appendEscaped(value) }
            append(")\"")
        }
        comma()
        appendUInt(UInt64(threadID))
        endRecord()
    }

    /// An event as the streamed writer writes it: value in place, thread interned already.
    package mutating func event(
        seq: UInt64, node: UInt64, kind: TraceEventKind, inlineValue value: String?, nanoseconds: UInt64,
        threadID: Int
    ) {
        eventStart(seq: seq, node: node, kind: kind, value: value.map { .text($0) })
        appendNanoseconds(nanoseconds)
        eventEnd(virtual: false, thread: threadID)
    }

    /// `["v", seq, node, kind, value, time, virtual, thread]`, `time` a number of seconds.
    package mutating func event(
        seq: UInt64, node: UInt64, kind: TraceEventKind, value: String?, time: Double, virtual: Bool, thread: String?
    ) {
        let value = value.map { self.value($0) }
        let thread = thread.map { intern($0) }
        eventStart(seq: seq, node: node, kind: kind, value: value)
        appendDouble(time)
        eventEnd(virtual: virtual, thread: thread)
    }

    /// An event whose time is a count of nanoseconds (written as exact decimal seconds: a
    /// reader's `Double` of it is the one `Double(nanoseconds) / 1e9` gives).
    package mutating func event(
        seq: UInt64, node: UInt64, kind: TraceEventKind, value: String?, nanoseconds: UInt64, thread: String?
    ) {
        let value = value.map { self.value($0) }
        let thread = thread.map { intern($0) }
        eventStart(seq: seq, node: node, kind: kind, value: value)
        appendNanoseconds(nanoseconds)
        eventEnd(virtual: false, thread: thread)
    }

    private mutating func eventStart(seq: UInt64, node: UInt64, kind: TraceEventKind, value: Field?) {
        append("[\"v\",")
        appendUInt(seq)
        comma()
        appendUInt(node)
        comma()
        switch kind {
        case .next: append("\"next\"")
        case .error: append("\"error\"")
        case .completed: append("\"completed\"")
        }
        comma()
        appendField(value)
        comma()
    }

    private mutating func eventEnd(virtual: Bool, thread: Int?) {
        append(virtual ? ",1," : ",0,")
        appendRef(thread)
        endRecord()
    }

    /// `["d", node, seq, time]`: disposed; `["x", …]`: deinitialised; `["t", …]`: terminated
    /// (time: seconds, written from nanoseconds, when known).
    package mutating func mark(_ tag: NodeMark, node: UInt64, seq: UInt64, nanoseconds: UInt64? = nil) {
        markStart(tag, node: node, seq: seq)
        if let nanoseconds {
            comma()
            appendNanoseconds(nanoseconds)
        }
        endRecord()
    }

    /// `mark` with the time in seconds.
    package mutating func mark(_ tag: NodeMark, node: UInt64, seq: UInt64, time: Double?) {
        markStart(tag, node: node, seq: seq)
        if let time {
            comma()
            appendDouble(time)
        }
        endRecord()
    }

    private mutating func markStart(_ tag: NodeMark, node: UInt64, seq: UInt64) {
        switch tag {
        case .disposed: append("[\"d\",")
        case .deinitialized: append("[\"x\",")
        case .terminated: append("[\"t\",")
        }
        appendUInt(node)
        comma()
        appendUInt(seq)
    }

    package enum NodeMark { case disposed, deinitialized, terminated }

    /// `["m", seq, kind, name, thread]`: a point the program marked (kind and thread: string
    /// fields; the name is written in place).
    package mutating func mark(seq: UInt64, kind: String, name: String, thread: Int?) {
        let kind = intern(kind)
        append("[\"m\",")
        appendUInt(seq)
        comma()
        appendUInt(UInt64(kind))
        comma()
        appendQuoted(name)
        comma()
        appendRef(thread)
        endRecord()
    }

    /// `mark` with the thread's name as text.
    package mutating func mark(seq: UInt64, kind: String, name: String, thread: String?) {
        let thread = thread.map { intern($0) }
        mark(seq: seq, kind: kind, name: name, thread: thread)
    }

    /// `["a", node, kind, seq, detail]`.
    package mutating func anomaly(node: UInt64, kind: String, seq: UInt64, detail: String) {
        let kind = intern(kind)
        let detail = value(detail)
        append("[\"a\",")
        appendUInt(node)
        comma()
        appendUInt(UInt64(kind))
        comma()
        appendUInt(seq)
        comma()
        appendField(detail)
        endRecord()
    }

    /// `["r", seq, total, {"Type": count, …}]` (zero counts left out, types sorted).
    package mutating func resources(seq: UInt64, total: Int, byType: [(String, Int)]) {
        append("[\"r\",")
        appendUInt(seq)
        comma()
        appendInt(total)
        append(",{")
        var first = true
        for (type, count) in byType where count != 0 {
            if !first { comma() }
            first = false
            appendQuoted(type)
            bytes.append(UInt8(ascii: ":"))
            appendInt(count)
        }
        append("}")
        endRecord()
    }

    /// `["drop", {"steps":…,"events":…,"resources":…,"nodes":…,"bytes":…,"reason":…}]`.
    package mutating func drop(steps: Int, events: Int, resources: Int, nodes: Int, bytes dropped: Int, reason: String)
    {
        append("[\"drop\",{\"steps\":")
        appendInt(steps)
        append(",\"events\":")
        appendInt(events)
        append(",\"resources\":")
        appendInt(resources)
        append(",\"nodes\":")
        appendInt(nodes)
        append(",\"bytes\":")
        appendInt(dropped)
        append(",\"reason\":")
        appendQuoted(reason)
        append("}")
        endRecord()
    }

    /// `["end", {"reason": …, "seq": n}]`: everything recorded is in the file.
    package mutating func end(reason: String, seq: UInt64) {
        append("[\"end\",{\"reason\":")
        appendQuoted(reason)
        append(",\"seq\":")
        appendUInt(seq)
        append("}")
        endRecord()
    }

    /// `["$", id, text]` for a string that must be defined under a given id (a new segment).
    package mutating func define(_ text: String, id: Int) {
        interned[text] = id
        append("[\"$\",")
        appendInt(id)
        comma()
        appendQuoted(text)
        endRecord()
    }

    // MARK: String fields

    /// A string field as written: an interned id or an inline literal.
    enum Field {
        case id(Int)
        case text(String)
    }

    /// The id of `text`, defined by a `"$"` line first when it is new.
    package mutating func intern(_ text: String) -> Int {
        if let id = interned[text] { return id }
        let id = interned.count
        define(text, id: id)
        return id
    }

    /// A value or detail: inline the first time, interned when it comes again (short ones,
    /// up to `valueInternLimit` of them).
    mutating func value(_ text: String) -> Field {
        if let id = interned[text] { return .id(id) }
        guard text.utf8.count <= Self.longValue, internedValues < valueInternLimit else { return .text(text) }
        if seenOnce.contains(text) {
            internedValues += 1
            return .id(intern(text))
        }
        if seenOnce.count >= Self.seenOnceLimit { seenOnce.removeAll(keepingCapacity: true) }
        seenOnce.insert(text)
        return .text(text)
    }

    // MARK: Bytes

    @inline(__always)
    private mutating func comma() { bytes.append(UInt8(ascii: ",")) }

    @inline(__always)
    private mutating func endRecord() {
        bytes.append(UInt8(ascii: "]"))
        bytes.append(UInt8(ascii: "\n"))
    }

    /// ASCII the encoder itself writes (never escaped).
    @inline(__always)
    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func appendRef(_ id: Int?) {
        if let id { appendUInt(UInt64(id)) } else { append("null") }
    }

    private mutating func appendField(_ field: Field?) {
        switch field {
        case .id(let id): appendUInt(UInt64(id))
        case .text(let text): appendQuoted(text)
        case nil: append("null")
        }
    }

    package mutating func appendInt(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendUInt(UInt64(value.magnitude))
        } else {
            appendUInt(UInt64(value))
        }
    }

    package mutating func appendUInt(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) &+ 48)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            var index = buffer.count
            while rest > 0 {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// Seconds given as nanoseconds: `12.000345`, `0`, exact.
    package mutating func appendNanoseconds(_ nanoseconds: UInt64) {
        appendUInt(nanoseconds / 1_000_000_000)
        var fraction = nanoseconds % 1_000_000_000
        guard fraction != 0 else { return }
        var width = 9
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        bytes.append(UInt8(ascii: "."))
        var divisor: UInt64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: (fraction / divisor) % 10) &+ 48)
            divisor /= 10
        }
    }

    /// A JSON number that reads back as the same `Double` (the shortest such spelling; a value
    /// JSON cannot spell, infinity or NaN, is written as 0).
    package mutating func appendDouble(_ value: Double) {
        guard value.isFinite else { return bytes.append(UInt8(ascii: "0")) }
        if value == value.rounded(.towardZero), value.magnitude < 1e15 {
            // Integral: digits only (`3`, not `3.0`).
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            return appendUInt(UInt64(value.magnitude))
        }
        // Swift's own shortest round-trip spelling (`1e-05`, `0.000134`): valid JSON.
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `text` as a JSON string literal: `"`, `\` and control characters escaped.
    package mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(text)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `text`'s bytes, escaped for a JSON string literal (without the quotes).
    package mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                default:
                    append("\\u00")
                    bytes.append(Self.hex[Int(byte >> 4)])
                    bytes.append(Self.hex[Int(byte & 0xF)])
                }
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}

extension TraceDocument {
    /// The document as `rxtrace/2` lines: header, nodes (with their disposal, deinit,
    /// termination and anomalies), edges, steps, events, resource samples, what was dropped,
    /// and an `end` line. Reading it back gives this document.
    public func jsonLinesData() -> Data {
        var encoder = TraceLineEncoder(capacity: 64 * (nodes.count + steps.count + events.count) + 4096)
        encoder.header(meta: meta)
        for node in nodes {
            encoder.node(
                id: node.id, kind: node.kind.rawValue, type: node.type, callSite: node.callSite, fileID: node.fileID,
                created: node.created, thread: node.thread, time: node.createdAt)
            for anomaly in node.anomalies {
                encoder.anomaly(node: node.id, kind: anomaly.kind.rawValue, seq: anomaly.seq, detail: anomaly.detail)
            }
            if let seq = node.terminated { encoder.mark(.terminated, node: node.id, seq: seq, time: node.terminatedAt) }
            if let seq = node.disposed { encoder.mark(.disposed, node: node.id, seq: seq, time: node.disposedAt) }
            if let seq = node.deinitialized {
                encoder.mark(.deinitialized, node: node.id, seq: seq, time: node.deinitializedAt)
            }
        }
        for edge in edges { encoder.edge(from: edge.from, to: edge.to, relation: edge.relation.rawValue) }
        for mark in marks {
            encoder.mark(seq: mark.seq, kind: mark.kind.rawValue, name: mark.name, thread: mark.thread)
        }
        for step in steps {
            encoder.step(
                seq: step.seq, from: step.from, to: step.to, call: step.call.rawValue, detail: step.detail,
                thread: step.thread)
        }
        for event in events {
            encoder.event(
                seq: event.seq, node: event.node, kind: event.kind, value: event.value, time: event.time,
                virtual: event.virtualTime, thread: event.thread)
        }
        for sample in resources {
            encoder.resources(
                seq: sample.seq, total: sample.total,
                byType: sample.byType.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
        if dropped != DroppedCounts() {
            encoder.drop(
                steps: dropped.steps, events: dropped.events, resources: dropped.resources, nodes: 0, bytes: 0,
                reason: "ring")
        }
        encoder.end(reason: "snapshot", seq: lastSeq)
        return Data(encoder.takeBytes())
    }

    /// The largest `seq` the document mentions.
    var lastSeq: UInt64 {
        var last: UInt64 = 0
        for node in nodes {
            last = Swift.max(last, node.created, node.disposed ?? 0, node.deinitialized ?? 0, node.terminated ?? 0)
            for anomaly in node.anomalies { last = Swift.max(last, anomaly.seq) }
        }
        if let step = steps.last { last = Swift.max(last, step.seq) }
        if let event = events.last { last = Swift.max(last, event.seq) }
        if let sample = resources.last { last = Swift.max(last, sample.seq) }
        if let mark = marks.last { last = Swift.max(last, mark.seq) }
        return last
    }

    /// The document in `format`: `rxtrace/1` JSON, `rxtrace/2` lines or `rxtrace/3` records.
    public func data(format: TraceFormat) throws -> Data {
        switch format {
        case .v1: return try jsonData()
        case .v2: return jsonLinesData()
        case .v3: return binaryData()
        }
    }
}
