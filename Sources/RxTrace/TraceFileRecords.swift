import Foundation

/// One record of an `rxtrace/2` file (docs/trace-format.md), interned strings resolved.
///
/// Records come in write order, not `seq` order, and may name a node whose `.node` record comes
/// later in the file.
public enum TraceFileRecord: Sendable, Equatable {
    /// A node was born (`disposed`, `deinitialized`, `terminated` and `anomalies` are empty here:
    /// they come as their own records).
    indirect case node(TraceNode)
    case edge(TraceEdge)
    case step(TraceStep)
    case event(TraceEvent)
    /// The node was first disposed of, deinitialized, terminated: at `seq`, and at `time`
    /// (seconds since the recording started; nil in traces that do not say).
    case disposed(node: UInt64, seq: UInt64, time: Double? = nil)
    case deinitialized(node: UInt64, seq: UInt64, time: Double? = nil)
    case terminated(node: UInt64, seq: UInt64, time: Double? = nil)
    case anomaly(node: UInt64, TraceAnomalyRecord)
    case resource(ResourceSample)
    /// A point the program marked (a test started or ended).
    case mark(TraceMark)
    /// The writer let these go (counts since the previous drop record).
    case drop(TraceDrop)
    /// A clean end: everything recorded is in the file.
    case end(reason: String, seq: UInt64)
}

/// What a `drop` record says the writer let go of.
public struct TraceDrop: Sendable, Equatable {
    public var steps = 0
    public var events = 0
    public var resources = 0
    public var nodes = 0
    public var bytes = 0
    public var reason: String?

    public init(
        steps: Int = 0, events: Int = 0, resources: Int = 0, nodes: Int = 0, bytes: Int = 0, reason: String? = nil
    ) {
        self.steps = steps
        self.events = events
        self.resources = resources
        self.nodes = nodes
        self.bytes = bytes
        self.reason = reason
    }
}

/// What reading a trace file found besides its records: its format, its header, and whether it
/// was cut short (no `end` record, or an incomplete last line: a crash, a kill, or a file still
/// being written).
public struct TraceReadStatus: Sendable, Equatable {
    /// `rxtrace/1`, `rxtrace/2` or `rxtrace/3`.
    public var format: String
    /// The header's meta.
    public var meta: [String: String] = [:]
    /// The `end` record's reason (`exit`, `SIGINT`, `SIGTERM`, `snapshot`), when there is one.
    public var endReason: String?
    /// The last line had no newline and was ignored.
    public var incompleteLastLine = false
    /// The largest `seq` of any record read.
    public var lastSeq: UInt64 = 0
    /// Complete lines read (the header included); for `rxtrace/3`, the header and the records.
    public var lines = 0
    /// Sums of the `drop` records.
    public var dropped = TraceDrop()

    /// No clean end: what the file holds stops at `lastSeq`.
    public var cutShort: Bool {
        TraceRecordReader.streamedFormats.contains(format) && (endReason == nil || incompleteLastLine)
    }

    public init(format: String) { self.format = format }
}

/// Reads `rxtrace/2` files record by record, without holding them all: a byte-level JSON-lines
/// parser over chunks of the file.
///
/// ```swift
/// var events = 0
/// let status = try TraceRecordReader.read(from: url) { record in
///     if case .event = record { events += 1 }
/// }
/// if status.cutShort { print("cut short at seq \(status.lastSeq)") }
/// ```
public enum TraceRecordReader {
    /// The first bytes of every `rxtrace/2` file.
    public static let formatName = "rxtrace/2"
    /// The streamed formats this reader reads: `rxtrace/2` and `rxtrace/3` (the `rxtrace/2`
    /// header line, then binary records).
    public static let streamedFormats = [formatName, TraceFormat.v3.rawValue]

    /// Whether `bytes` (the start of a file) begin the header of a streamed format.
    public static func isStreamedFormat(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var cursor = LineCursor(bytes, start: 0, end: bytes.count, line: 1)
        guard (try? cursor.expect(UInt8(ascii: "{"))) != nil else { return false }
        guard let key = try? cursor.parseString(), key == "format" else { return false }
        guard (try? cursor.expect(UInt8(ascii: ":"))) != nil else { return false }
        return (try? cursor.parseString()).map(streamedFormats.contains) ?? false
    }

    /// Whether `bytes` (the start of a file) begin an `rxtrace/2` header.
    public static func isFormat2(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var cursor = LineCursor(bytes, start: 0, end: bytes.count, line: 1)
        guard (try? cursor.expect(UInt8(ascii: "{"))) != nil else { return false }
        guard let key = try? cursor.parseString(), key == "format" else { return false }
        guard (try? cursor.expect(UInt8(ascii: ":"))) != nil else { return false }
        return (try? cursor.parseString()) == formatName
    }

    /// Reads `data` (a whole `rxtrace/2` file); `path` only names the source in errors.
    public static func read(
        _ data: Data, path: String = "<data>", _ visit: (TraceFileRecord) throws(TraceFileError) -> Void
    ) throws(TraceFileError) -> TraceReadStatus {
        var parser = Parser(path: path)
        let result: Result<Void, TraceFileError> = data.withUnsafeBytes { bytes in
            do throws(TraceFileError) {
                _ = try parser.consume(bytes, final: true, visit)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        return try parser.finish()
    }

    /// Reads the file at `url` in chunks, calling `visit` for each record. `progress` gets the
    /// bytes read so far and the file's size, after each chunk of `chunkSize` bytes.
    public static func read(
        from url: URL, progress: ((Int, Int) -> Void)? = nil, chunkSize: Int = 1 << 20,
        _ visit: (TraceFileRecord) throws(TraceFileError) -> Void
    ) throws(TraceFileError) -> TraceReadStatus {
        let path = url.path
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .missing(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var info = stat()
        let size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
        var parser = Parser(path: path)
        var capacity = max(chunkSize, 16)
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0
        var total = 0
        while true {
            if filled == capacity { // one line longer than the buffer: grow it
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity * 2, alignment: 16)
                larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            }
            let count = Foundation.read(descriptor, buffer.baseAddress! + filled, capacity - filled)
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            total += count
            filled += count
            let final = count == 0
            let consumed = try parser.consume(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), final: final, visit)
            if final { break }
            if consumed > 0 {
                let rest = filled - consumed
                if rest > 0 {
                    memmove(buffer.baseAddress!, buffer.baseAddress! + consumed, rest)
                }
                filled = rest
            }
            progress?(total, size)
        }
        return try parser.finish()
    }

    /// The state carried across chunks: the intern table, the line number, the status.
    struct Parser {
        let path: String
        var strings: [String?] = []
        var line = 0
        var status = TraceReadStatus(format: TraceRecordReader.formatName)
        var sawHeader = false
        var empty = true
        /// The header said `rxtrace/3`: binary records follow it.
        var binary = false
        var format3 = Format3State()

        init(path: String) { self.path = path }

        /// Parses the complete lines of `bytes`; returns how many bytes it used. With `final`,
        /// a last line without a newline is the incomplete last line of a cut-short file.
        mutating func consume(
            _ bytes: UnsafeRawBufferPointer, final: Bool, _ visit: (TraceFileRecord) throws(TraceFileError) -> Void
        ) throws(TraceFileError) -> Int {
            guard let base = bytes.baseAddress else { return 0 }
            var start = 0
            let count = bytes.count
            while start < count {
                if binary { return try consumeBinary(bytes, from: start, final: final, visit) }
                guard let newline = memchr(base + start, 0x0A, count - start) else {
                    if final {
                        // The last line has no newline: cut short while it was being written.
                        if !isBlank(bytes, start, count) {
                            empty = false
                            status.incompleteLastLine = true
                            if !sawHeader { throw .invalid(path: path, reason: "the header line is incomplete") }
                        }
                        return count
                    }
                    return start
                }
                let end = base.distance(to: UnsafeRawPointer(newline))
                line += 1
                if !isBlank(bytes, start, end) {
                    empty = false
                    try parseLine(bytes, start, end, visit)
                }
                start = end + 1
            }
            return start
        }

        func isBlank(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
            var index = start
            while index < end {
                switch bytes[index] {
                case 0x20, 0x09, 0x0D: index += 1
                default: return false
                }
            }
            return true
        }

        mutating func finish() throws(TraceFileError) -> TraceReadStatus {
            if empty { throw .empty(path: path) }
            status.lines = line
            return status
        }

        mutating func parseLine(
            _ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int,
            _ visit: (TraceFileRecord) throws(TraceFileError) -> Void
        ) throws(TraceFileError) {
            var cursor = LineCursor(bytes, start: start, end: end, line: line)
            let record: TraceFileRecord?
            do throws(LineError) {
                if !sawHeader {
                    try parseHeader(&cursor)
                    sawHeader = true
                    return
                }
                record = try parseRecord(&cursor)
                if record != nil { try cursor.finishRecord() }
            } catch {
                throw .malformed(path: path, line: line, reason: error.reason)
            }
            if let record { try visit(record) }
        }

        mutating func parseHeader(_ cursor: inout LineCursor) throws(LineError) {
            var format: String?
            try cursor.parseObject { (key, cursor) throws(LineError) in
                switch key {
                case "format": format = try cursor.parseString()
                case "meta":
                    try cursor.parseObject { (key, cursor) throws(LineError) in
                        status.meta[key] = try cursor.parseString()
                    }
                default: try cursor.skipValue()
                }
            }
            guard let format, TraceRecordReader.streamedFormats.contains(format) else {
                throw LineError("the header does not say \"format\":\"\(TraceRecordReader.formatName)\"")
            }
            status.format = format
            binary = format == TraceFormat.v3.rawValue
            try cursor.expectEnd()
        }

        mutating func see(_ seq: UInt64) {
            if seq > status.lastSeq { status.lastSeq = seq }
        }

        /// A string field: an interned string's id, or a literal.
        func string(_ cursor: inout LineCursor) throws(LineError) -> String {
            cursor.skipSpace()
            if cursor.peek == UInt8(ascii: "\"") { return try cursor.parseString() }
            let id = try cursor.parseUInt()
            guard id < UInt64(strings.count), let text = strings[Int(id)] else {
                throw LineError("string \(id) is used before it is defined")
            }
            return text
        }

        func optionalString(_ cursor: inout LineCursor) throws(LineError) -> String? {
            if try cursor.parseNull() { return nil }
            return try string(&cursor)
        }

        /// The next optional trailing field's number of seconds, nil when omitted or null. A field
        /// of another kind there (a later version's) is skipped: the record reads without its time.
        func trailingTime(_ cursor: inout LineCursor) throws(LineError) -> Double? {
            guard try cursor.nextField(required: false), !(try cursor.parseNull()) else { return nil }
            guard let first = cursor.peek, (first &- 0x30) < 10 else {
                try cursor.skipValue()
                return nil
            }
            return try cursor.parseDouble()
        }

        /// The next optional trailing field's string, nil when omitted or null.
        func trailingString(_ cursor: inout LineCursor) throws(LineError) -> String? {
            guard try cursor.nextField(required: false) else { return nil }
            return try optionalString(&cursor)
        }

        func enumField<Value: RawRepresentable<String>>(
            _ cursor: inout LineCursor, _ what: String
        ) throws(LineError)
            -> Value
        {
            let text = try string(&cursor)
            guard let value = Value(rawValue: text) else { throw LineError("unknown \(what) \"\(text)\"") }
            return value
        }

        mutating func parseRecord(_ cursor: inout LineCursor) throws(LineError) -> TraceFileRecord? {
            try cursor.expect(UInt8(ascii: "["))
            let tag = try cursor.parseTag()
            switch tag {
            case Tag.string:
                try cursor.nextField()
                let id = try cursor.parseUInt()
                guard id < 1 << 24 else { throw LineError("interned string id \(id) is too large") }
                try cursor.nextField()
                let text = try cursor.parseString()
                if Int(id) >= strings.count {
                    strings.append(contentsOf: repeatElement(nil, count: Int(id) - strings.count + 1))
                }
                strings[Int(id)] = text
                try cursor.finishRecord()
                return nil
            case Tag.node:
                try cursor.nextField()
                let id = try cursor.parseUInt()
                guard id != 0 else { throw LineError("node id 0") }
                try cursor.nextField()
                let kind: TraceNodeKind = try enumField(&cursor, "node kind")
                try cursor.nextField()
                let type = try string(&cursor)
                let callSite = try trailingString(&cursor)
                let fileID = try trailingString(&cursor)
                var created: UInt64 = 0
                if try cursor.nextField(required: false), !(try cursor.parseNull()) { created = try cursor.parseUInt() }
                let thread = try trailingString(&cursor)
                let time = try trailingTime(&cursor)
                see(created)
                return .node(
                    TraceNode(
                        id: id, kind: kind, type: type, callSite: callSite, fileID: fileID, created: created,
                        thread: thread, createdAt: time))
            case Tag.edge:
                try cursor.nextField()
                let from = try cursor.parseUInt()
                try cursor.nextField()
                let to = try cursor.parseUInt()
                try cursor.nextField()
                let relation: TraceRelation = try enumField(&cursor, "relation")
                return .edge(TraceEdge(from: from, to: to, relation: relation))
            case Tag.step:
                try cursor.nextField()
                let seq = try cursor.parseUInt()
                try cursor.nextField()
                let from = try cursor.parseUInt()
                try cursor.nextField()
                let to = try cursor.parseUInt()
                try cursor.nextField()
                let call: TraceCall = try enumField(&cursor, "call")
                let detail = try trailingString(&cursor)
                let thread = try trailingString(&cursor)
                see(seq)
                return .step(TraceStep(seq: seq, from: from, to: to, call: call, detail: detail, thread: thread))
            case Tag.event:
                try cursor.nextField()
                let seq = try cursor.parseUInt()
                try cursor.nextField()
                let node = try cursor.parseUInt()
                try cursor.nextField()
                let kind: TraceEventKind = try enumField(&cursor, "event kind")
                let value = try trailingString(&cursor)
                var time = 0.0
                if try cursor.nextField(required: false), !(try cursor.parseNull()) { time = try cursor.parseDouble() }
                var virtual = false
                if try cursor.nextField(required: false), !(try cursor.parseNull()) {
                    switch try cursor.parseUInt() {
                    case 0: virtual = false
                    case 1: virtual = true
                    default: throw LineError("virtual must be 0 or 1")
                    }
                }
                let thread = try trailingString(&cursor)
                see(seq)
                return .event(
                    TraceEvent(
                        seq: seq, node: node, kind: kind, value: value, time: time, virtualTime: virtual, thread: thread
                    ))
            case Tag.disposed, Tag.deinitialized, Tag.terminated:
                try cursor.nextField()
                let node = try cursor.parseUInt()
                try cursor.nextField()
                let seq = try cursor.parseUInt()
                let time = try trailingTime(&cursor)
                see(seq)
                switch tag {
                case Tag.disposed: return .disposed(node: node, seq: seq, time: time)
                case Tag.deinitialized: return .deinitialized(node: node, seq: seq, time: time)
                default: return .terminated(node: node, seq: seq, time: time)
                }
            case Tag.mark:
                try cursor.nextField()
                let seq = try cursor.parseUInt()
                try cursor.nextField()
                let kind: TraceMarkKind = try enumField(&cursor, "mark kind")
                try cursor.nextField()
                let name = try string(&cursor)
                let thread = try trailingString(&cursor)
                see(seq)
                return .mark(TraceMark(seq: seq, kind: kind, name: name, thread: thread))
            case Tag.anomaly:
                try cursor.nextField()
                let node = try cursor.parseUInt()
                try cursor.nextField()
                let kind: TraceAnomaly = try enumField(&cursor, "anomaly")
                try cursor.nextField()
                let seq = try cursor.parseUInt()
                let detail = try trailingString(&cursor) ?? ""
                see(seq)
                return .anomaly(node: node, TraceAnomalyRecord(kind: kind, seq: seq, detail: detail))
            case Tag.resource:
                try cursor.nextField()
                let seq = try cursor.parseUInt()
                try cursor.nextField()
                let total = try cursor.parseInt()
                var byType: [String: Int] = [:]
                if try cursor.nextField(required: false), !(try cursor.parseNull()) {
                    try cursor.parseObject { (key, cursor) throws(LineError) in
                        byType[key] = try cursor.parseInt()
                    }
                }
                see(seq)
                return .resource(ResourceSample(seq: seq, total: total, byType: byType))
            case Tag.drop:
                try cursor.nextField()
                var drop = TraceDrop()
                try cursor.parseObject { (key, cursor) throws(LineError) in
                    switch key {
                    case "steps": drop.steps = try cursor.parseInt()
                    case "events": drop.events = try cursor.parseInt()
                    case "resources": drop.resources = try cursor.parseInt()
                    case "nodes": drop.nodes = try cursor.parseInt()
                    case "bytes": drop.bytes = try cursor.parseInt()
                    case "reason": drop.reason = try cursor.parseNull() ? nil : try cursor.parseString()
                    default: try cursor.skipValue()
                    }
                }
                status.dropped.steps += drop.steps
                status.dropped.events += drop.events
                status.dropped.resources += drop.resources
                status.dropped.nodes += drop.nodes
                status.dropped.bytes += drop.bytes
                if let reason = drop.reason { status.dropped.reason = reason }
                return .drop(drop)
            case Tag.end:
                try cursor.nextField()
                var reason = "exit"
                var seq: UInt64 = 0
                try cursor.parseObject { (key, cursor) throws(LineError) in
                    switch key {
                    case "reason": reason = try cursor.parseString()
                    case "seq": seq = try cursor.parseUInt()
                    default: try cursor.skipValue()
                    }
                }
                see(seq)
                status.endReason = reason
                return .end(reason: reason, seq: seq)
            default:
                return nil // a record of a later version: skipped
            }
        }
    }

    /// Record tags as the bytes of the tag string (up to 8 bytes, little-endian).
    enum Tag {
        static let string: UInt64 = pack("$")
        static let node: UInt64 = pack("n")
        static let edge: UInt64 = pack("e")
        static let step: UInt64 = pack("c")
        static let event: UInt64 = pack("v")
        static let disposed: UInt64 = pack("d")
        static let deinitialized: UInt64 = pack("x")
        static let terminated: UInt64 = pack("t")
        static let anomaly: UInt64 = pack("a")
        static let mark: UInt64 = pack("m")
        static let resource: UInt64 = pack("r")
        static let drop: UInt64 = pack("drop")
        static let end: UInt64 = pack("end")

        static func pack(_ text: String) -> UInt64 {
            var value: UInt64 = 0
            for (index, byte) in text.utf8.enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
            return value
        }
    }
}

/// What is wrong with one line, said in a few words.
struct LineError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A position in one line of JSON, with the few parsing steps the records need.
struct LineCursor {
    let bytes: UnsafeRawBufferPointer
    var index: Int
    let end: Int
    let line: Int

    init(_ bytes: UnsafeRawBufferPointer, start: Int, end: Int, line: Int) {
        self.bytes = bytes
        self.index = start
        self.end = end
        self.line = line
    }

    var peek: UInt8? { index < end ? bytes[index] : nil }

    mutating func skipSpace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            default: return
            }
        }
    }

    func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the line" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    mutating func expect(_ byte: UInt8) throws(LineError) {
        skipSpace()
        guard index < end, bytes[index] == byte else {
            throw LineError("expected '\(Character(Unicode.Scalar(byte)))', found \(describe(peek))")
        }
        index += 1
    }

    /// Only spaces may follow.
    mutating func expectEnd() throws(LineError) {
        skipSpace()
        if index < end { throw LineError("unexpected \(describe(peek)) after the value") }
    }

    /// After a field: `,` then another field (true), or `]` (false, allowed only when not
    /// `required`). What follows the fields a reader knows is not read.
    @discardableResult
    mutating func nextField(required: Bool = true) throws(LineError) -> Bool {
        skipSpace()
        if index < end, bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        if !required, index < end, bytes[index] == UInt8(ascii: "]") { return false }
        throw LineError(required ? "a field is missing" : "expected ',' or ']', found \(describe(peek))")
    }

    /// After the fields a reader knows: fields of a later version (skipped), then `]` and
    /// nothing else on the line.
    mutating func finishRecord() throws(LineError) {
        while try nextField(required: false) { try skipValue() }
        try expect(UInt8(ascii: "]"))
        try expectEnd()
    }

    /// The record's tag, packed (see `TraceRecordReader.Tag`); longer tags give a value no tag has.
    mutating func parseTag() throws(LineError) -> UInt64 {
        skipSpace()
        guard index < end, bytes[index] == UInt8(ascii: "\"") else {
            throw LineError("a record must start with its tag string, found \(describe(peek))")
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var position = index + 1
        while position < end, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\") {
            if shift < 64 { value |= UInt64(bytes[position]) << shift }
            shift += 8
            position += 1
        }
        if position < end, bytes[position] == UInt8(ascii: "\""), shift <= 64 {
            index = position + 1
            return value
        }
        _ = try parseString() // escaped or long: not a tag this reader knows
        return UInt64.max
    }

    mutating func parseNull() throws(LineError) -> Bool {
        skipSpace()
        guard index < end, bytes[index] == UInt8(ascii: "n") else { return false }
        guard index + 4 <= end, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"),
            bytes[index + 3] == UInt8(ascii: "l")
        else { throw LineError("expected null") }
        index += 4
        return true
    }

    mutating func parseUInt() throws(LineError) -> UInt64 {
        skipSpace()
        var value: UInt64 = 0
        let start = index
        while index < end {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { break }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { throw LineError("number too large") }
            value = sum
            index += 1
        }
        guard index > start else { throw LineError("expected a non-negative integer, found \(describe(peek))") }
        if let next = peek, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            throw LineError("expected an integer")
        }
        return value
    }

    mutating func parseInt() throws(LineError) -> Int {
        skipSpace()
        let negative = peek == UInt8(ascii: "-")
        if negative { index += 1 }
        let magnitude = try parseUInt()
        guard magnitude <= UInt64(Int.max) else { throw LineError("number too large") }
        return negative ? -Int(magnitude) : Int(magnitude)
    }

    mutating func parseDouble() throws(LineError) -> Double {
        skipSpace()
        let start = index
        while index < end, Self.numberByte(bytes[index]) { index += 1 }
        let length = index - start
        guard length > 0, length < 64 else { throw LineError("expected a number, found \(describe(peek))") }
        let bytes = self.bytes
        let value: Double? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { text in
            for offset in 0..<length { text[offset] = CChar(bitPattern: bytes[start + offset]) }
            text[length] = 0
            var stop: UnsafeMutablePointer<CChar>?
            let value = strtod(text.baseAddress!, &stop)
            guard let stop, text.baseAddress!.distance(to: stop) == length else { return nil }
            return value
        }
        guard let value, value.isFinite else { throw LineError("malformed number") }
        return value
    }

    static func numberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default: return false
        }
    }

    /// A JSON string (its opening quote next, after spaces).
    mutating func parseString() throws(LineError) -> String {
        skipSpace()
        guard index < end, bytes[index] == UInt8(ascii: "\"") else {
            throw LineError("expected a string, found \(describe(peek))")
        }
        index += 1
        let start = index
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw LineError("control character in a string") }
            index += 1
        }
        // Escapes: decode into a byte buffer.
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < end {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < end else { throw LineError("unterminated string") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800..<0xDC00).contains(scalar), index + 6 <= end, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        let save = index
                        index += 2
                        let low = try parseHex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index = save
                        }
                    }
                    let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    utf8.append(contentsOf: String(character).utf8)
                default:
                    throw LineError("bad escape in a string")
                }
            default:
                if byte < 0x20 { throw LineError("control character in a string") }
                utf8.append(byte)
            }
        }
        throw LineError("unterminated string")
    }

    mutating func parseHex4() throws(LineError) -> UInt32 {
        guard index + 4 <= end else { throw LineError("bad \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw LineError("bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// `{"key": value, …}`; `member` reads each value.
    mutating func parseObject(_ member: (String, inout LineCursor) throws(LineError) -> Void) throws(LineError) {
        try expect(UInt8(ascii: "{"))
        skipSpace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            let key = try parseString()
            try expect(UInt8(ascii: ":"))
            try member(key, &self)
            skipSpace()
            guard let next = peek else { throw LineError("unterminated object") }
            index += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw LineError("expected ',' or '}', found \(describe(next))") }
        }
    }

    /// Any JSON value, not kept.
    mutating func skipValue(depth: Int = 0) throws(LineError) {
        guard depth < 64 else { throw LineError("nested too deeply") }
        skipSpace()
        guard let byte = peek else { throw LineError("a value is missing") }
        switch byte {
        case UInt8(ascii: "\""): _ = try parseString()
        case UInt8(ascii: "{"):
            try parseObject { (_, cursor) throws(LineError) in try cursor.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            index += 1
            skipSpace()
            if peek == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                try skipValue(depth: depth + 1)
                skipSpace()
                guard let next = peek else { throw LineError("unterminated array") }
                index += 1
                if next == UInt8(ascii: "]") { return }
                guard next == UInt8(ascii: ",") else { throw LineError("expected ',' or ']', found \(describe(next))") }
            }
        case UInt8(ascii: "n"): _ = try parseNull()
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            let word = byte == UInt8(ascii: "t") ? "true" : "false"
            for expected in word.utf8 {
                guard index < end, bytes[index] == expected else { throw LineError("expected \(word)") }
                index += 1
            }
        default:
            _ = try parseDouble()
        }
    }
}
