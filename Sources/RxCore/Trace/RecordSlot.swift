import Synchronization

/// A `TraceRecord` as the ring and the threads' buffers store it: 40 bytes instead of 64, made
/// a `TraceRecord` again where they are read (`expand`), so that everything downstream (the
/// snapshot, the overflow rings, a streamed recording's lanes and its file) reads wide records.
///
/// Most records fit in one slot: a value of at most one word (an `Int`, a `Double`, a detail's
/// first number), its type as a number in `TraceTypes` (looked up through the thread's own
/// cache: `TraceLocal.recordTypeNumber`), a thread numbered below 65,535. Any other record takes
/// two slots (`wide`): the first as above, the second (`continued`) holding the value's second
/// and third words, its type and its thread in full. The value's three words are contiguous
/// across the two (`word` is the slot's last field), so a three-word element is stored with one
/// copy, as in a `TraceRecord`. A record never straddles two chunks: a thread's buffer (a
/// chunk) with one slot left before a two-slot record ends with a `filler` instead.
///
/// The ring's bookkeeping (`RecordRing.Held`) counts slots: the second slot of a record and a
/// filler hold no step or event, and the ring never keeps one without what precedes it.
struct RecordSlot {
    var seq: UInt64
    var time: UInt64
    var from: UInt32
    var to: UInt32
    /// The value's type: 0 none, else its number in `TraceTypes`; `wide`: the next slot holds it.
    var type: UInt16
    /// The thread's number (`wide`: the next slot holds it).
    var thread: UInt16
    var call: TraceCall
    var kind: TraceEventKind
    var parts: TraceRecord.Parts
    /// `TraceRecord.Shape`'s raw value, or `continued`: a slot that starts no record. (Right
    /// after `parts`: the ring reads both in one load, `kindOffset`.)
    var shape: UInt8
    /// The value's first word (the rest, in a two-slot record, follow it in the next slot).
    var word: UInt64

    /// Where `word` sits (checked by `RecordRing.init`): an element is stored straight there.
    static var wordOffset: Int { 32 }
    /// Where `parts` sits, `shape` in the next byte (checked by `RecordRing.init`).
    static var kindOffset: Int { 30 }

    /// `parts` and `shape` of the slot at `slot` in one number below 2,048 (`parts | shape << 8`,
    /// `shape` being below 8), read in one load: what the ring's `heldByKind` is indexed by.
    @inline(__always)
    static func kind(at slot: UnsafePointer<RecordSlot>) -> Int {
        Int(UInt16(littleEndian: UnsafeRawPointer(slot).load(fromByteOffset: kindOffset, as: UInt16.self)) & 0x7FF)
    }
    /// `type` and `thread` of a record in two slots.
    static let wide: UInt16 = .max
    /// `shape` of a slot that starts no record: a two-slot record's second slot, or a filler.
    static let continued: UInt8 = 7

    /// A chunk's last slot when the record that follows takes two.
    static let filler = RecordSlot(
        seq: 0, time: 0, from: 0, to: 0, type: 0, thread: 0, call: .on, kind: .next, shape: continued, parts: [],
        word: 0)

    /// `record` in one slot, its value's first word kept and its type numbered `type`.
    @inline(__always)
    init(_ record: TraceRecord, type: UInt16) {
        self.init(
            seq: record.seq, time: record.time, from: record.from, to: record.to, type: type,
            thread: UInt16(truncatingIfNeeded: record.thread), call: record.call, kind: record.kind,
            shape: record.shape.rawValue, parts: record.parts, word: record.words.0)
    }

    private init(
        seq: UInt64, time: UInt64, from: UInt32, to: UInt32, type: UInt16, thread: UInt16, call: TraceCall,
        kind: TraceEventKind, shape: UInt8, parts: TraceRecord.Parts, word: UInt64
    ) {
        self.seq = seq
        self.time = time
        self.from = from
        self.to = to
        self.type = type
        self.thread = thread
        self.call = call
        self.kind = kind
        self.shape = shape
        self.parts = parts
        self.word = word
    }

    /// Whether `record` fits in one slot, its type numbered `type`.
    @inline(__always)
    static func fitsOne(_ record: TraceRecord, type: UInt16) -> Bool {
        fitsOne(type: type, thread: record.thread) && record.words.1 == 0 && record.words.2 == 0
    }

    /// Whether a record of a value of at most one word, of type number `type`, on `thread`, fits
    /// in one slot: both numbers narrow enough.
    @inline(__always)
    static func fitsOne(type: UInt16, thread: UInt32) -> Bool { type != wide && thread < UInt32(wide) }

    /// Slots `record` takes (its type numbered `type`).
    @inline(__always)
    static func count(_ record: TraceRecord, type: UInt16) -> Int { fitsOne(record, type: type) ? 1 : 2 }

    /// `record` into the two slots at `slot`.
    @inline(__always)
    static func initializeWide(_ slot: UnsafeMutablePointer<RecordSlot>, to record: TraceRecord) {
        var first = RecordSlot(record, type: wide)
        first.thread = wide
        slot.initialize(to: first)
        (slot + 1).initialize(
            to: RecordSlot(
                seq: record.words.1, time: record.words.2, from: record.thread, to: 0, type: 0, thread: 0,
                call: .on, kind: .next, shape: continued, parts: [],
                word: UInt64(UInt(bitPattern: unsafeBitCast(record.type, to: Int.self)))))
    }

    /// `record` into the slot(s) at `slot` (room for two), its type numbered `type`: the slots
    /// it took.
    @inline(__always)
    static func initialize(_ slot: UnsafeMutablePointer<RecordSlot>, to record: TraceRecord, type: UInt16) -> Int {
        if fitsOne(record, type: type) {
            slot.initialize(to: RecordSlot(record, type: type))
            return 1
        }
        initializeWide(slot, to: record)
        return 2
    }

    /// The record starting at `slot` (not a `continued` one), wide again; `types` is
    /// `TraceTypes.all` (taken after the slots were published).
    static func record(at slot: UnsafePointer<RecordSlot>, types: [Any.Type]) -> TraceRecord {
        types.withUnsafeBufferPointer { record(at: slot, types: $0) }
    }

    @inline(__always)
    static func record(
        at slot: UnsafePointer<RecordSlot>, types: UnsafeBufferPointer<Any.Type>
    )
        -> TraceRecord
    {
        let first = slot.pointee
        var record = TraceRecord(
            seq: first.seq, time: first.time, words: (first.word, 0, 0), type: nil, from: first.from, to: first.to,
            thread: UInt32(first.thread), call: first.call, kind: first.kind,
            shape: TraceRecord.Shape(rawValue: first.shape)!, parts: first.parts)
        if first.type == wide {
            let second = slot[1]
            record.words.1 = second.seq
            record.words.2 = second.time
            record.thread = second.from
            record.type = unsafeBitCast(Int(bitPattern: UInt(second.word)), to: Any.Type?.self)
        } else if first.type != 0 {
            record.type = types[Int(first.type) &- 1]
        }
        return record
    }

    /// Slots the record starting at `slot` takes.
    @inline(__always)
    static func width(at slot: UnsafePointer<RecordSlot>) -> Int { slot.pointee.type == wide ? 2 : 1 }

    /// The records of `slots` (whole records: a chunk's, a buffer's published ones, a lane's),
    /// wide, appended to `records`: made in a scratch buffer a chunk's worth at a time, then
    /// copied in one go (appending them one at a time cost about 60 instructions a record).
    static func expand(_ slots: UnsafeBufferPointer<RecordSlot>, into records: inout [TraceRecord]) {
        guard let base = slots.baseAddress, !slots.isEmpty else { return }
        let types = TraceTypes.all
        let block = RecordRing.chunkCapacity
        withUnsafeTemporaryAllocation(of: TraceRecord.self, capacity: block) { scratch in
            guard let out = scratch.baseAddress else { return }
            types.withUnsafeBufferPointer { types in
                var index = 0
                while index < slots.count {
                    var count = 0
                    while index < slots.count, count < block {
                        let slot = base + index
                        if slot.pointee.shape == continued {
                            index &+= 1
                            continue
                        }
                        (out + count).initialize(to: record(at: slot, types: types))
                        count &+= 1
                        index &+= width(at: slot)
                    }
                    records.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
                }
            }
        }
    }
}

/// The types of the values records hold, numbered from 1 for `RecordSlot.type` (at most
/// 65,534 of them; a record of any further type takes two slots). Shared by every recorder: a
/// program records values of few types, and a number once given stays (the types are the
/// program's own, never unloaded).
final class TraceTypes: Sendable {
    private struct Table {
        var types: [Any.Type] = []
        var numbers: [ObjectIdentifier: UInt16] = [:]
    }

    private let table = Mutex(Table())
    /// Most types numbered.
    let limit: Int

    init(limit: Int) { self.limit = min(limit, Int(RecordSlot.wide) - 1) }

    /// The numbers the recorder's records use.
    static let shared = TraceTypes(limit: Int(RecordSlot.wide) - 1)

    /// `type`'s number (0 for none; `RecordSlot.wide` when every number is taken).
    func number(of type: Any.Type?) -> UInt16 {
        guard let type else { return 0 }
        return table.withLock { table in
            if let number = table.numbers[ObjectIdentifier(type)] { return number }
            guard table.types.count < limit else { return RecordSlot.wide }
            table.types.append(type)
            let number = UInt16(table.types.count)
            table.numbers[ObjectIdentifier(type)] = number
            return number
        }
    }

    /// Every type numbered, by number − 1.
    var types: [Any.Type] { table.withLock { $0.types } }

    /// `shared.number(of:)`.
    static func number(of type: Any.Type?) -> UInt16 { shared.number(of: type) }

    /// `shared.types`.
    static var all: [Any.Type] { shared.types }
}
