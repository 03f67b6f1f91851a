import Foundation

/// `rxtrace/3`'s numbers (docs/trace-format.md): record tags, the codes of the fixed
/// vocabularies that a traced call's record carries, and how a value is written. Shared by the
/// writers (RxCore) and the reader (RxTrace); a list only ever grows at its end.
package enum TraceFormat3 {
    package static let name = "rxtrace/3"

    /// Record tags, one byte each. A tag from `skippable` up is followed by its length, so a
    /// reader skips a record of a later version it does not know.
    package enum Tag {
        package static let string = UInt8(ascii: "$")
        package static let thread = UInt8(ascii: "T")
        package static let node = UInt8(ascii: "n")
        package static let edge = UInt8(ascii: "e")
        package static let step = UInt8(ascii: "c")
        package static let event = UInt8(ascii: "v")
        package static let disposed = UInt8(ascii: "d")
        package static let deinitialized = UInt8(ascii: "x")
        package static let terminated = UInt8(ascii: "t")
        package static let anomaly = UInt8(ascii: "a")
        package static let mark = UInt8(ascii: "m")
        package static let resources = UInt8(ascii: "r")
        package static let drop = UInt8(ascii: "D")
        package static let end = UInt8(ascii: "E")
        /// A traced call: `call + shape`, `shape` one of `TraceFormat3.shapes`' positions.
        package static let call: UInt8 = 0x10
        package static let skippable: UInt8 = 0x80
    }

    /// A traced call's shapes (`TraceRecord.Shape`), by code.
    package enum Shape: UInt8, CaseIterable {
        case forwarded, received, observed, step, receivedForwarded, forwardedObserved
    }

    /// The flags byte of a traced call: bits 0–1 the event's kind (`eventKinds`), then these.
    package enum Flag {
        package static let steps: UInt8 = 4
        package static let event: UInt8 = 8
        package static let secondEvent: UInt8 = 16
        package static let virtual: UInt8 = 32
    }

    package static let eventKinds: [TraceEventKind] = [.next, .error, .completed]
    package static let calls: [TraceCall] = [
        .subscribe, .schedule, .enqueue, .dequeue, .run, .`init`, .handler, .on, .forwardOn, .onCore,
        .setSinkAndSubscription, .dispose,
    ]

    @inline(__always)
    package static func code(_ kind: TraceEventKind) -> UInt8 {
        switch kind {
        case .next: return 0
        case .error: return 1
        case .completed: return 2
        }
    }

    @inline(__always)
    package static func code(_ call: TraceCall) -> UInt8 {
        switch call {
        case .subscribe: return 0
        case .schedule: return 1
        case .enqueue: return 2
        case .dequeue: return 3
        case .run: return 4
        case .`init`: return 5
        case .handler: return 6
        case .on: return 7
        case .forwardOn: return 8
        case .onCore: return 9
        case .setSinkAndSubscription: return 10
        case .dispose: return 11
        }
    }

    /// What a value (or a step's detail) is written as: its kind, then its bytes.
    package enum Value {
        package static let none: UInt8 = 0
        /// Zigzag LEB128: an `Int`, described as its digits.
        package static let int: UInt8 = 1
        /// 8 bytes: a `Double`'s bits, described as Swift describes it.
        package static let double: UInt8 = 2
        package static let `false`: UInt8 = 3
        package static let `true`: UInt8 = 4
        /// A byte count and that much UTF-8.
        package static let text: UInt8 = 5
        /// A step's detail that names nodes: its code (`TraceDetail`), then its one or two
        /// numbers (`subscribe(2)`; `run(observer: 2, cancel: 3)`, `sink: 4, subscription: 5`).
        package static let detail: UInt8 = 6
    }

    /// How a node's or a lifecycle record's time is written: absent, nanoseconds (LEB128), or
    /// seconds (8 bytes, a `Double`'s bits).
    package enum Time {
        package static let none: UInt8 = 0
        package static let nanoseconds: UInt8 = 1
        package static let seconds: UInt8 = 2
    }
}

/// Bytes being encoded: a buffer written through its pointer, one capacity check per record.
package final class TraceBytes {
    // One owner writes them, record by record: no exclusivity checks per byte.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) package private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    package init(capacity: Int = 1 << 16) {
        self.capacity = Swift.max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    package func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(count + extra) }
    }

    @inline(never)
    private func grow(_ needed: Int) {
        var larger = capacity * 2
        while larger < needed { larger *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    /// One byte (room reserved).
    @inline(__always)
    package func byte(_ value: UInt8) {
        base[count] = value
        count &+= 1
    }

    /// An unsigned LEB128 number (room for 10 bytes reserved).
    @inline(__always)
    package func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: value) | 0x80
            count &+= 1
            value &>>= 7
        }
        base[count] = UInt8(truncatingIfNeeded: value)
        count &+= 1
    }

    /// A signed number: zigzag, then LEB128 (room for 10 bytes reserved).
    @inline(__always)
    package func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value &<< 1) ^ (value &>> 63)))
    }

    /// `value - base`, signed (room for 10 bytes reserved).
    @inline(__always)
    package func delta(_ value: UInt64, from base: UInt64) {
        signed(Int64(bitPattern: value &- base))
    }

    /// 8 bytes, little-endian (room reserved).
    @inline(__always)
    package func fixed(_ value: UInt64) {
        (UnsafeMutableRawPointer(base) + count).storeBytes(of: value.littleEndian, as: UInt64.self)
        count &+= 8
    }

    /// Raw bytes (reserves their room).
    package func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress, !bytes.isEmpty {
            (UnsafeMutableRawPointer(base) + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count &+= bytes.count
    }

    /// Text: its byte count, then its UTF-8 (reserves its room).
    package func text(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            reserve(utf8.count + 10)
            unsigned(UInt64(utf8.count))
            append(UnsafeRawBufferPointer(utf8))
        }
    }

    /// The bytes so far.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Empties the buffer, keeping its room.
    package func removeAll() { count = 0 }
}

/// Writes `rxtrace/3`: the `rxtrace/2` header line with `"format":"rxtrace/3"`, then binary
/// records (docs/trace-format.md). A traced call is one record holding its steps and events as
/// the recorder keeps them; numbers are LEB128, and what a reader carries from one call's record
/// to the next (the thread, the `seq` it expects, the caller, the time) is written as a
/// difference, or only when it changes. Not thread-safe: one writer owns it.
package struct TraceBinaryEncoder {
    package let out: TraceBytes
    private var strings: [String: Int] = [:]
    /// What the reader carries: the thread (string id + 1; 0 none), the `seq` after the last
    /// call's, the last call's caller and (real) time.
    private var thread = 0
    private var nextSeq: UInt64 = 0
    private var lastFrom: UInt64 = 0
    private var lastTime: UInt64 = 0

    package init(capacity: Int = 1 << 16) {
        out = TraceBytes(capacity: capacity)
    }

    /// Forgets the strings and what records carry (a new file starts with none).
    package mutating func reset() {
        strings.removeAll(keepingCapacity: true)
        thread = 0
        nextSeq = 0
        lastFrom = 0
        lastTime = 0
    }

    /// Line 1: `{"format":"rxtrace/3","meta":{…}}` and its newline.
    package mutating func header(meta: [String: String]) {
        var line = TraceLineEncoder(capacity: 256)
        line.header(meta: meta, format: TraceFormat3.name)
        line.bytes.withUnsafeBytes { out.append($0) }
    }

    /// The id of `text`, defined by a `$` record first when it is new.
    package mutating func intern(_ text: String) -> Int {
        if let id = strings[text] { return id }
        let id = strings.count
        strings[text] = id
        out.reserve(11)
        out.byte(TraceFormat3.Tag.string)
        out.unsigned(UInt64(id))
        out.text(text)
        return id
    }

    /// Makes `id` (an interned thread name; nil: none) the thread of the records that follow.
    @inline(__always)
    package mutating func thread(_ id: Int?) {
        let value = id.map { $0 + 1 } ?? 0
        guard value != thread else { return }
        thread = value
        out.reserve(11)
        out.byte(TraceFormat3.Tag.thread)
        out.unsigned(UInt64(value))
    }

    private func optional(_ id: Int?) -> UInt64 { id.map { UInt64($0) + 1 } ?? 0 }

    private func time(nanoseconds: UInt64?, seconds: Double?) {
        if let nanoseconds {
            out.byte(TraceFormat3.Time.nanoseconds)
            out.unsigned(nanoseconds)
        } else if let seconds {
            out.byte(TraceFormat3.Time.seconds)
            out.fixed(seconds.bitPattern)
        } else {
            out.byte(TraceFormat3.Time.none)
        }
    }

    /// A node's birth: its strings interned already (`intern`).
    package mutating func node(
        id: UInt64, kindID: Int, typeID: Int, callSiteID: Int?, fileIDID: Int?, created: UInt64, threadID: Int?,
        nanoseconds: UInt64? = nil, seconds: Double? = nil
    ) {
        out.reserve(80)
        out.byte(TraceFormat3.Tag.node)
        out.unsigned(id)
        out.unsigned(UInt64(kindID))
        out.unsigned(UInt64(typeID))
        out.unsigned(optional(callSiteID))
        out.unsigned(optional(fileIDID))
        out.unsigned(created)
        out.unsigned(optional(threadID))
        time(nanoseconds: nanoseconds, seconds: seconds)
    }

    package mutating func edge(from: UInt64, to: UInt64, relationID: Int) {
        out.reserve(31)
        out.byte(TraceFormat3.Tag.edge)
        out.unsigned(from)
        out.unsigned(to)
        out.unsigned(UInt64(relationID))
    }

    /// A disposal, deinit or termination.
    package mutating func lifecycle(
        _ tag: TraceLineEncoder.NodeMark, node: UInt64, seq: UInt64, nanoseconds: UInt64? = nil, seconds: Double? = nil
    ) {
        out.reserve(32)
        switch tag {
        case .disposed: out.byte(TraceFormat3.Tag.disposed)
        case .deinitialized: out.byte(TraceFormat3.Tag.deinitialized)
        case .terminated: out.byte(TraceFormat3.Tag.terminated)
        }
        out.unsigned(node)
        out.unsigned(seq)
        time(nanoseconds: nanoseconds, seconds: seconds)
    }

    package mutating func anomaly(node: UInt64, kindID: Int, seq: UInt64, detail: String) {
        out.reserve(31)
        out.byte(TraceFormat3.Tag.anomaly)
        out.unsigned(node)
        out.unsigned(UInt64(kindID))
        out.unsigned(seq)
        out.text(detail)
    }

    package mutating func mark(seq: UInt64, kindID: Int, name: String, threadID: Int?) {
        out.reserve(21)
        out.byte(TraceFormat3.Tag.mark)
        out.unsigned(seq)
        out.unsigned(UInt64(kindID))
        out.text(name)
        out.reserve(10)
        out.unsigned(optional(threadID))
    }

    /// A resource sample: types interned already, zero counts left out.
    package mutating func resources(seq: UInt64, total: Int, byType: [(typeID: Int, count: Int)]) {
        out.reserve(31 + 20 * byType.count)
        out.byte(TraceFormat3.Tag.resources)
        out.unsigned(seq)
        out.signed(Int64(total))
        out.unsigned(UInt64(byType.count { $0.count != 0 }))
        for (type, count) in byType where count != 0 {
            out.unsigned(UInt64(type))
            out.signed(Int64(count))
        }
    }

    package mutating func drop(steps: Int, events: Int, resources: Int, nodes: Int, bytes: Int, reason: String) {
        out.reserve(51)
        out.byte(TraceFormat3.Tag.drop)
        for count in [steps, events, resources, nodes, bytes] { out.unsigned(UInt64(Swift.max(0, count))) }
        out.text(reason)
    }

    package mutating func end(reason: String, seq: UInt64) {
        out.reserve(1)
        out.byte(TraceFormat3.Tag.end)
        out.text(reason)
        out.reserve(10)
        out.unsigned(seq)
    }

    /// A value as text, or none.
    private func value(_ text: String?) {
        guard let text else {
            out.reserve(1)
            return out.byte(TraceFormat3.Value.none)
        }
        out.reserve(1)
        out.byte(TraceFormat3.Value.text)
        out.text(text)
    }

    /// A step on its own (a document's; the streamed writer writes calls), thread interned.
    package mutating func step(
        seq: UInt64, from: UInt64, to: UInt64, call: TraceCall, detail: String?, threadID: Int?
    ) {
        thread(threadID)
        out.reserve(32)
        out.byte(TraceFormat3.Tag.step)
        out.unsigned(seq)
        out.unsigned(from)
        out.unsigned(to)
        out.byte(TraceFormat3.code(call))
        value(detail)
    }

    /// An event on its own (a document's), its time in seconds, thread interned.
    package mutating func event(
        seq: UInt64, node: UInt64, kind: TraceEventKind, value: String?, time: Double, virtual: Bool, threadID: Int?
    ) {
        thread(threadID)
        out.reserve(42)
        out.byte(TraceFormat3.Tag.event)
        out.unsigned(seq)
        out.unsigned(node)
        out.byte(TraceFormat3.code(kind) | (virtual ? TraceFormat3.Flag.virtual : 0))
        out.fixed(time.bitPattern)
        self.value(value)
    }

    /// A traced call as the recorder keeps it (`TraceRecord`): one record for its steps and
    /// events. `value` writes the value (after the fixed part, room for 32 bytes reserved).
    @inline(__always)
    package mutating func call(
        shape: TraceFormat3.Shape, flags: UInt8, call: TraceCall, seq: UInt64, clockValues: UInt64, from: UInt64,
        to: UInt64, time: UInt64, value: (TraceBytes) -> Void
    ) {
        out.reserve(80)
        out.byte(TraceFormat3.Tag.call &+ shape.rawValue)
        out.byte(flags)
        out.byte(TraceFormat3.code(call))
        out.delta(seq, from: nextSeq)
        nextSeq = seq &+ clockValues
        out.delta(from, from: lastFrom)
        lastFrom = from
        out.delta(to, from: from)
        if flags & TraceFormat3.Flag.virtual != 0 {
            out.fixed(time)
        } else {
            out.delta(time, from: lastTime)
            lastTime = time
        }
        value(out)
    }
}

extension TraceDocument {
    /// The document as `rxtrace/3` (in the order of `jsonLinesData()`); reading it back gives
    /// this document.
    public func binaryData() -> Data {
        var encoder = TraceBinaryEncoder(capacity: 32 * (nodes.count + steps.count + events.count) + 4096)
        encoder.header(meta: meta)
        func id(_ text: String?) -> Int? { text.map { encoder.intern($0) } }
        for node in nodes {
            let kind = encoder.intern(node.kind.rawValue), type = encoder.intern(node.type)
            let site = id(node.callSite), file = id(node.fileID), thread = id(node.thread)
            encoder.node(
                id: node.id, kindID: kind, typeID: type, callSiteID: site, fileIDID: file, created: node.created,
                threadID: thread, seconds: node.createdAt)
            for anomaly in node.anomalies {
                let kind = encoder.intern(anomaly.kind.rawValue)
                encoder.anomaly(node: node.id, kindID: kind, seq: anomaly.seq, detail: anomaly.detail)
            }
            if let seq = node.terminated {
                encoder.lifecycle(.terminated, node: node.id, seq: seq, seconds: node.terminatedAt)
            }
            if let seq = node.disposed {
                encoder.lifecycle(.disposed, node: node.id, seq: seq, seconds: node.disposedAt)
            }
            if let seq = node.deinitialized {
                encoder.lifecycle(.deinitialized, node: node.id, seq: seq, seconds: node.deinitializedAt)
            }
        }
        for edge in edges {
            let relation = encoder.intern(edge.relation.rawValue)
            encoder.edge(from: edge.from, to: edge.to, relationID: relation)
        }
        for mark in marks {
            let kind = encoder.intern(mark.kind.rawValue), thread = id(mark.thread)
            encoder.mark(seq: mark.seq, kindID: kind, name: mark.name, threadID: thread)
        }
        for step in steps {
            let thread = id(step.thread)
            encoder.step(
                seq: step.seq, from: step.from, to: step.to, call: step.call, detail: step.detail, threadID: thread)
        }
        for event in events {
            let thread = id(event.thread)
            encoder.event(
                seq: event.seq, node: event.node, kind: event.kind, value: event.value, time: event.time,
                virtual: event.virtualTime, threadID: thread)
        }
        for sample in resources {
            let byType = sample.byType.sorted { $0.key < $1.key }.map {
                (typeID: encoder.intern($0.key), count: $0.value)
            }
            encoder.resources(seq: sample.seq, total: sample.total, byType: byType)
        }
        if dropped != DroppedCounts() {
            encoder.drop(
                steps: dropped.steps, events: dropped.events, resources: dropped.resources, nodes: 0, bytes: 0,
                reason: "ring")
        }
        encoder.end(reason: "snapshot", seq: lastSeq)
        return Data(encoder.out.bytes)
    }
}
