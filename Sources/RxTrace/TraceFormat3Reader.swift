import Foundation

// Reading `rxtrace/3` (docs/trace-format.md): after the header line, binary records. Each is
// handed on as the records an `rxtrace/2` file holds for the same thing (a traced call as its
// steps and its events), so that everything that reads traces reads both alike.

extension TraceRecordReader {
    /// What `rxtrace/3` records carry from one to the next.
    struct Format3State {
        /// The current thread's name (a `T` record sets it).
        var thread: String?
        /// The `seq` after the last call's, its caller and its (real) time in nanoseconds.
        var nextSeq: UInt64 = 0
        var lastFrom: UInt64 = 0
        var lastTime: UInt64 = 0
    }
}

/// The bytes of one binary record; running out of them is `ByteCursor.Short`.
struct ByteCursor {
    struct Short: Error {}

    let bytes: UnsafeRawBufferPointer
    var index: Int
    let end: Int

    mutating func byte() throws(Short) -> UInt8 {
        guard index < end else { throw Short() }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func unsigned() throws(Short) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(Short) -> Int64 {
        let value = try unsigned()
        return Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    mutating func fixed() throws(Short) -> UInt64 {
        guard end - index >= 8 else { throw Short() }
        defer { index += 8 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    mutating func text() throws(Short) -> String {
        let count = try unsigned()
        guard UInt64(end - index) >= count else { throw Short() }
        defer { index += Int(count) }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<index + Int(count)]), as: UTF8.self)
    }
}

extension TraceRecordReader.Parser {
    /// Parses the complete binary records of `bytes` from `start`; returns how far it used them.
    /// With `final`, bytes left that do not make a whole record are the incomplete last record of a
    /// cut-short file.
    mutating func consumeBinary(
        _ bytes: UnsafeRawBufferPointer, from start: Int, final: Bool,
        _ visit: (TraceFileRecord) throws(TraceFileError) -> Void
    ) throws(TraceFileError) -> Int {
        var start = start
        var records: [TraceFileRecord] = []
        while start < bytes.count {
            var cursor = ByteCursor(bytes: bytes, index: start, end: bytes.count)
            let saved = format3
            records.removeAll(keepingCapacity: true)
            do {
                try parseBinaryRecord(&cursor, into: &records)
            } catch is ByteCursor.Short {
                format3 = saved
                if final {
                    status.incompleteLastLine = true
                    return bytes.count
                }
                return start
            } catch let error as LineError {
                throw .malformed(path: path, line: line + 1, reason: error.reason)
            } catch {
                throw .malformed(path: path, line: line + 1, reason: "\(error)")
            }
            line += 1
            start = cursor.index
            for record in records { try visit(record) }
        }
        return start
    }

    private func string(_ id: UInt64) throws(LineError) -> String {
        guard id < UInt64(strings.count), let text = strings[Int(id)] else {
            throw LineError("string \(id) is used before it is defined")
        }
        return text
    }

    /// An optional string: 0 none, else the id + 1.
    private func optionalString(_ value: UInt64) throws(LineError) -> String? {
        value == 0 ? nil : try string(value - 1)
    }

    private func enumField<Value: RawRepresentable<String>>(_ id: UInt64, _ what: String) throws(LineError) -> Value {
        let text = try string(id)
        guard let value = Value(rawValue: text) else { throw LineError("unknown \(what) \"\(text)\"") }
        return value
    }

    private func readTime(_ cursor: inout ByteCursor) throws -> Double? {
        switch try cursor.byte() {
        case TraceFormat3.Time.none: return nil
        case TraceFormat3.Time.nanoseconds: return Double(try cursor.unsigned()) / 1e9
        case TraceFormat3.Time.seconds: return Double(bitPattern: try cursor.fixed())
        case let other: throw LineError("unknown time kind \(other)")
        }
    }

    /// A value or detail as text.
    private func readValue(_ cursor: inout ByteCursor) throws -> String? {
        switch try cursor.byte() {
        case TraceFormat3.Value.none: return nil
        case TraceFormat3.Value.int: return String(try cursor.signed())
        case TraceFormat3.Value.double: return Double(bitPattern: try cursor.fixed()).description
        case TraceFormat3.Value.false: return "false"
        case TraceFormat3.Value.true: return "true"
        case TraceFormat3.Value.text: return try cursor.text()
        case TraceFormat3.Value.detail:
            let code = try cursor.byte()
            guard let detail = TraceDetail(rawValue: code) else { throw LineError("unknown detail \(code)") }
            let first = try cursor.unsigned()
            return detail.text(first, detail.arity > 1 ? try cursor.unsigned() : 0)
        case let other: throw LineError("unknown value kind \(other)")
        }
    }

    private func code<Value>(_ code: UInt8, in list: [Value], _ what: String) throws(LineError) -> Value {
        guard Int(code) < list.count else { throw LineError("unknown \(what) \(code)") }
        return list[Int(code)]
    }

    private mutating func parseBinaryRecord(_ cursor: inout ByteCursor, into records: inout [TraceFileRecord]) throws {
        let tag = try cursor.byte()
        empty = false
        switch tag {
        case TraceFormat3.Tag.string:
            let id = try cursor.unsigned()
            guard id < 1 << 24 else { throw LineError("interned string id \(id) is too large") }
            let text = try cursor.text()
            if Int(id) >= strings.count {
                strings.append(contentsOf: repeatElement(nil, count: Int(id) - strings.count + 1))
            }
            strings[Int(id)] = text
        case TraceFormat3.Tag.thread:
            format3.thread = try optionalString(try cursor.unsigned())
        case TraceFormat3.Tag.node:
            let id = try cursor.unsigned()
            guard id != 0 else { throw LineError("node id 0") }
            let kind: TraceNodeKind = try enumField(try cursor.unsigned(), "node kind")
            let type = try string(try cursor.unsigned())
            let callSite = try optionalString(try cursor.unsigned())
            let fileID = try optionalString(try cursor.unsigned())
            let created = try cursor.unsigned()
            let thread = try optionalString(try cursor.unsigned())
            let time = try readTime(&cursor)
            see(created)
            records.append(
                .node(
                    TraceNode(
                        id: id, kind: kind, type: type, callSite: callSite, fileID: fileID, created: created,
                        thread: thread, createdAt: time)))
        case TraceFormat3.Tag.edge:
            let from = try cursor.unsigned()
            let to = try cursor.unsigned()
            let relation: TraceRelation = try enumField(try cursor.unsigned(), "relation")
            records.append(.edge(TraceEdge(from: from, to: to, relation: relation)))
        case TraceFormat3.Tag.disposed, TraceFormat3.Tag.deinitialized, TraceFormat3.Tag.terminated:
            let node = try cursor.unsigned()
            let seq = try cursor.unsigned()
            let time = try readTime(&cursor)
            see(seq)
            switch tag {
            case TraceFormat3.Tag.disposed: records.append(.disposed(node: node, seq: seq, time: time))
            case TraceFormat3.Tag.deinitialized: records.append(.deinitialized(node: node, seq: seq, time: time))
            default: records.append(.terminated(node: node, seq: seq, time: time))
            }
        case TraceFormat3.Tag.anomaly:
            let node = try cursor.unsigned()
            let kind: TraceAnomaly = try enumField(try cursor.unsigned(), "anomaly")
            let seq = try cursor.unsigned()
            let detail = try cursor.text()
            see(seq)
            records.append(.anomaly(node: node, TraceAnomalyRecord(kind: kind, seq: seq, detail: detail)))
        case TraceFormat3.Tag.mark:
            let seq = try cursor.unsigned()
            let kind: TraceMarkKind = try enumField(try cursor.unsigned(), "mark kind")
            let name = try cursor.text()
            let thread = try optionalString(try cursor.unsigned())
            see(seq)
            records.append(.mark(TraceMark(seq: seq, kind: kind, name: name, thread: thread)))
        case TraceFormat3.Tag.resources:
            let seq = try cursor.unsigned()
            let total = Int(try cursor.signed())
            let count = try cursor.unsigned()
            var byType: [String: Int] = [:]
            for _ in 0..<count {
                let type = try string(try cursor.unsigned())
                byType[type] = Int(try cursor.signed())
            }
            see(seq)
            records.append(.resource(ResourceSample(seq: seq, total: total, byType: byType)))
        case TraceFormat3.Tag.drop:
            var counts: [Int] = []
            for _ in 0..<5 { counts.append(Int(clamping: try cursor.unsigned())) }
            let reason = try cursor.text()
            let drop = TraceDrop(
                steps: counts[0], events: counts[1], resources: counts[2], nodes: counts[3], bytes: counts[4],
                reason: reason)
            status.dropped.steps += drop.steps
            status.dropped.events += drop.events
            status.dropped.resources += drop.resources
            status.dropped.nodes += drop.nodes
            status.dropped.bytes += drop.bytes
            status.dropped.reason = reason
            records.append(.drop(drop))
        case TraceFormat3.Tag.end:
            let reason = try cursor.text()
            let seq = try cursor.unsigned()
            see(seq)
            status.endReason = reason
            records.append(.end(reason: reason, seq: seq))
        case TraceFormat3.Tag.step:
            let seq = try cursor.unsigned()
            let from = try cursor.unsigned()
            let to = try cursor.unsigned()
            let call = try code(try cursor.byte(), in: TraceFormat3.calls, "call")
            let detail = try readValue(&cursor)
            see(seq)
            records.append(
                .step(TraceStep(seq: seq, from: from, to: to, call: call, detail: detail, thread: format3.thread)))
        case TraceFormat3.Tag.event:
            let seq = try cursor.unsigned()
            let node = try cursor.unsigned()
            let flags = try cursor.byte()
            let kind = try code(flags & 3, in: TraceFormat3.eventKinds, "event kind")
            let time = Double(bitPattern: try cursor.fixed())
            let value = try readValue(&cursor)
            see(seq)
            records.append(
                .event(
                    TraceEvent(
                        seq: seq, node: node, kind: kind, value: value, time: time,
                        virtualTime: flags & TraceFormat3.Flag.virtual != 0, thread: format3.thread)))
        case TraceFormat3.Tag.call..<TraceFormat3.Tag.call + UInt8(TraceFormat3.Shape.allCases.count):
            try parseCall(TraceFormat3.Shape(rawValue: tag - TraceFormat3.Tag.call)!, &cursor, into: &records)
        case TraceFormat3.Tag.skippable...:
            let length = try cursor.unsigned()
            guard UInt64(cursor.end - cursor.index) >= length else { throw ByteCursor.Short() }
            cursor.index += Int(length) // a record of a later version: skipped
        default:
            throw LineError("unknown record tag 0x\(String(tag, radix: 16))")
        }
    }

    /// A traced call: its steps, then its events, as `TraceRecord.forEachStep` and
    /// `forEachEvent` number them.
    private mutating func parseCall(
        _ shape: TraceFormat3.Shape, _ cursor: inout ByteCursor, into records: inout [TraceFileRecord]
    ) throws {
        let flags = try cursor.byte()
        let kind = try code(flags & 3, in: TraceFormat3.eventKinds, "event kind")
        let call = try code(try cursor.byte(), in: TraceFormat3.calls, "call")
        let seq = format3.nextSeq &+ UInt64(bitPattern: try cursor.signed())
        let from = format3.lastFrom &+ UInt64(bitPattern: try cursor.signed())
        let to = from &+ UInt64(bitPattern: try cursor.signed())
        let virtual = flags & TraceFormat3.Flag.virtual != 0
        let time: Double
        if virtual {
            time = Double(bitPattern: try cursor.fixed())
        } else {
            format3.lastTime &+= UInt64(bitPattern: try cursor.signed())
            time = Double(format3.lastTime) / 1e9
        }
        let value = try readValue(&cursor)
        format3.lastFrom = from
        let steps = flags & TraceFormat3.Flag.steps != 0
        let event = flags & TraceFormat3.Flag.event != 0
        let second = flags & TraceFormat3.Flag.secondEvent != 0
        let stepCount: UInt64
        switch shape {
        case _ where !steps: stepCount = 0
        case .forwarded, .received, .step: stepCount = 1
        case .observed, .receivedForwarded: stepCount = 2
        case .forwardedObserved: stepCount = 3
        }
        format3.nextSeq = seq &+ stepCount &+ (event ? 1 : 0) &+ (second ? 1 : 0)
        let thread = format3.thread
        let detail = shape == .step ? value : TraceEventKind.describe(kind, value)
        func step(_ seq: UInt64, _ call: TraceCall, _ from: UInt64, _ to: UInt64) {
            see(seq)
            records.append(.step(TraceStep(seq: seq, from: from, to: to, call: call, detail: detail, thread: thread)))
        }
        func deliver(_ seq: UInt64, _ node: UInt64) {
            see(seq)
            records.append(
                .event(
                    TraceEvent(
                        seq: seq, node: node, kind: kind, value: value, time: time, virtualTime: virtual,
                        thread: thread)))
        }
        let eventStep: UInt64 = event ? 1 : 0
        if steps {
            switch shape {
            case .forwarded: step(seq, .forwardOn, from, to)
            case .received, .step: step(seq, call, from, to)
            case .observed:
                step(seq, .on, from, to)
                step(seq &+ 1 &+ eventStep, .onCore, from, to)
            case .receivedForwarded:
                step(seq, call, 0, from)
                step(seq &+ 1 &+ eventStep, .forwardOn, from, to)
            case .forwardedObserved:
                step(seq, .forwardOn, from, to)
                step(seq &+ 1, .on, from, to)
                step(seq &+ 2 &+ eventStep, .onCore, from, to)
            }
        }
        let stepValues: UInt64 = steps ? 1 : 0
        if shape == .receivedForwarded {
            if event { deliver(seq &+ stepValues, from) }
            if second { deliver(seq &+ 2 &* stepValues &+ eventStep, to) }
        } else if event {
            deliver(seq &+ (shape == .forwardedObserved ? 2 &* stepValues : stepValues), to)
        }
    }
}
