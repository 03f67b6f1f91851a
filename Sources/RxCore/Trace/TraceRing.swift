import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One traced call as the recorder keeps it: the step (or steps) and the event (or events) that
/// call recorded, in one record, expanded into the document's steps and events only when the
/// trace is read. The ring and the threads' buffers store it as one or two `RecordSlot`s of 40
/// bytes; this wide form (64 bytes) is what reading them gives. A hop `forwardOn` of `next(3)` from sink 4 to sink 5
/// is one record standing for the step `forwardOn 4→5 next(3)` at `seq` and the event `next(3)`
/// on node 5 at `seq + 1`.
///
/// Plain data (no references): the rings and the per-thread buffers copy and overwrite records
/// like integers. A value or detail too long to sit in the record lives in `RecordRing.texts`,
/// under the record's `seq`.
struct TraceRecord {
    /// Which steps and events a traced call stands for, in the order of their `seq`s.
    enum Shape: UInt8 {
        /// The step `forwardOn` (`from` → `to`), then the event on `to`.
        case forwarded
        /// The step `call` (`from` → `to`: the sink or subject delivering, 0 for user code), then
        /// the event on `to`. Without the step: an event alone.
        case received
        /// The step `on` (`from` → `to`, as in `received`), the event on `to`, the step `onCore`
        /// (`from` → `to`).
        case observed
        /// The step `call` (`from` → `to`) alone; its detail is the value, as text.
        case step
        /// A sink's own `on` and the `forwardOn` it does next (`create`'s sink): the step `call`
        /// (0 → `from`), the event on `from`, the step `forwardOn` (`from` → `to`), the event on
        /// `to` (`.secondEvent`).
        case receivedForwarded
        /// A sink's `forwardOn` into an observer that records its own events and the observer's
        /// `on` (`ObserverBase`), recorded by the observer: the step `forwardOn` (`from` → `to`),
        /// the step `on` (`from` → `to`), the event on `to`, the step `onCore` (`from` → `to`).
        case forwardedObserved
    }

    struct Parts: OptionSet {
        let rawValue: UInt8
        /// The call recorded its step(s): they took clock values.
        static let steps = Parts(rawValue: 1)
        /// The call recorded its (first) event: it took a clock value.
        static let event = Parts(rawValue: 2)
        /// This copy holds the steps. (A record the ring had to split keeps one part per copy.)
        static let keptSteps = Parts(rawValue: 4)
        /// This copy holds the events.
        static let keptEvent = Parts(rawValue: 8)
        /// `time` is virtual time.
        static let virtual = Parts(rawValue: 16)
        /// The value is in `RecordRing.texts`, under `seq`.
        static let text = Parts(rawValue: 32)
        /// `.receivedForwarded` recorded the event on `to` too.
        static let secondEvent = Parts(rawValue: 64)
    }

    /// The clock value of the first step or event this call stands for; the others follow it.
    var seq: UInt64
    /// The event's time: a reading of the recorder's `eventClock` (the CPU's counter, or
    /// `CLOCK_MONOTONIC`), made nanoseconds since the recorder was made where the recording is
    /// read (`snapshot`; a streamed recording's `absorb`, after which it holds those
    /// nanoseconds); or (`.virtual`) the bits of the virtual time.
    var time: UInt64
    /// The value: the bytes of a plain element (`type` its type), or up to 23 bytes of UTF-8
    /// with the count in the last byte (`type` is `InlineText`); none when `type` is nil and
    /// `parts` has no `.text`.
    var words: (UInt64, UInt64, UInt64)
    var type: Any.Type?
    /// Node numbers in the recorder (not ids): the recorder numbers at most `UInt32.max` nodes.
    var from: UInt32
    var to: UInt32
    var thread: UInt32
    var call: TraceCall
    var kind: TraceEventKind
    var shape: Shape
    var parts: Parts

    /// Steps the call recorded.
    @inline(__always)
    private var stepCount: Int {
        guard parts.contains(.steps) else { return 0 }
        switch shape {
        case .forwarded, .received, .step: return 1
        case .observed, .receivedForwarded: return 2
        case .forwardedObserved: return 3
        }
    }

    /// Events the call recorded.
    @inline(__always)
    private var eventCount: Int {
        (parts.contains(.event) ? 1 : 0) + (parts.contains(.secondEvent) ? 1 : 0)
    }

    /// Steps held by this copy.
    @inline(__always)
    var keptSteps: Int { parts.contains(.keptSteps) ? stepCount : 0 }

    /// Events held by this copy.
    @inline(__always)
    var keptEvents: Int { parts.contains(.keptEvent) ? eventCount : 0 }

    /// Clock values the call took.
    @inline(__always)
    var clockValues: UInt64 { UInt64(stepCount + eventCount) }

    /// The steps this copy holds: `seq`, call, caller, callee.
    func forEachStep(_ body: (UInt64, TraceCall, UInt32, UInt32) -> Void) {
        guard parts.contains(.keptSteps) else { return }
        let event: UInt64 = parts.contains(.event) ? 1 : 0
        switch shape {
        case .forwarded: body(seq, .forwardOn, from, to)
        case .received: body(seq, call, from, to)
        case .observed:
            body(seq, .on, from, to)
            body(seq &+ 1 &+ event, .onCore, from, to)
        case .step: body(seq, call, from, to)
        case .receivedForwarded:
            body(seq, call, 0, from)
            body(seq &+ 1 &+ event, .forwardOn, from, to)
        case .forwardedObserved:
            body(seq, .forwardOn, from, to)
            body(seq &+ 1, .on, from, to)
            body(seq &+ 2 &+ event, .onCore, from, to)
        }
    }

    /// The events this copy holds: `seq`, node.
    func forEachEvent(_ body: (UInt64, UInt32) -> Void) {
        guard parts.contains(.keptEvent) else { return }
        let steps: UInt64 = parts.contains(.steps) ? 1 : 0
        if shape == .receivedForwarded {
            if parts.contains(.event) { body(seq &+ steps, from) }
            if parts.contains(.secondEvent) { body(seq &+ 2 &* steps &+ (parts.contains(.event) ? 1 : 0), to) }
        } else if parts.contains(.event) {
            // After the one step before it (two for `.forwardedObserved`: `forwardOn`, `on`).
            body(seq &+ (shape == .forwardedObserved ? 2 &* steps : steps), to)
        }
    }
}

/// Marks `TraceRecord.words` holding up to 23 bytes of UTF-8, the count in the last byte.
enum InlineText {}

/// Keeps the newest `steps` steps and the newest `events` events out of a stream of
/// `TraceRecord`s, with memory bounded by those counts.
///
/// A record holds both a step and an event, so the two counts cannot be kept by two rings
/// without splitting every record. Instead the ring keeps the shortest run of newest records
/// holding at least `steps` steps and `events` events: after each append, the oldest record is
/// let go while the rest still hold enough of both. That run is at most `2 × max(steps, events)`
/// records when every record holds a step (all) or an event (events only), which is how the
/// core records, so the ring holds at most that many (`limit`). When it is full and its oldest
/// record is still needed (a long run of records without events, say), that record moves out,
/// its needed parts each into an overflow ring of `steps` (resp. `events`) single parts, oldest
/// dropped: what a snapshot keeps is the same (the newest `steps` steps are all in the ring or
/// in the overflow ring), and memory stays bounded (at most `limit + steps + events` records).
///
/// The records live in chunks of `chunkCapacity` slots (10 KB: `RecordSlot`, one or two a
/// record; the bounds above count slots), the size of a thread's
/// buffer: a recording thread writes its records into an empty chunk the ring lends it
/// (`lendChunk`), and a full one is taken into the ring as it is (`adopt`), not copied. A chunk
/// the ring lets go of is lent again; chunks are cut from slabs taken as the ring grows (80 KB
/// first, each twice the last, up to 1.25 MB), so resident memory follows what is kept, not the
/// limit (a short recording holds 80 KB of slots), and a ring in its steady state writes into
/// memory it already touched.
///
/// Not thread-safe: the recorder uses it under its lock.
final class RecordRing: @unchecked Sendable {
    /// Newest steps kept, newest events kept.
    let steps: Int
    let events: Int
    /// Most slots held in the chunks.
    let limit: Int
    /// Slots per chunk, and per thread buffer (`TraceRecorder.Buffer.capacity`).
    static let chunkCapacity = 256
    /// Chunks cut from the largest slabs.
    private let chunksPerSlab: Int
    /// A chunk: its records (`count` of them written), and what its records hold from its start
    /// (`held[j]`: records `0..<j` together; `count + 1` entries), read when letting records go
    /// so that the records themselves are only written until a snapshot, and so that `trim`
    /// finds where to cut a chunk by halving rather than record by record.
    private struct Chunk {
        var records: UnsafeMutablePointer<RecordSlot>
        var held: UnsafeMutablePointer<Held>
        var count: Int
        /// Records whose value is in `texts`, appended one at a time (a thread's buffer, adopted
        /// as it is, holds none: a record with a text goes into the ring itself).
        var texts = 0

        /// What record `j` holds.
        @inline(__always)
        func size(_ j: Int) -> Held { Held(bits: held[j &+ 1].bits &- held[j].bits) }

        /// What records `from..<to` hold together.
        @inline(__always)
        func run(_ from: Int, _ to: Int) -> Held { Held(bits: held[to].bits &- held[from].bits) }
    }

    /// What a slot (or a run of slots of one chunk) holds, in one word, so that runs add and
    /// subtract as words: steps kept (bits 0–11), events kept (bits 12–23), slots that start no
    /// record (bits 24–31: a two-slot record's second, a filler). A chunk's 256 slots hold at
    /// most 768 steps and 512 events.
    private struct Held {
        let bits: UInt32

        @inline(__always)
        init(_ record: TraceRecord) {
            bits = UInt32(truncatingIfNeeded: record.keptSteps) | UInt32(truncatingIfNeeded: record.keptEvents) << 12
        }

        @inline(__always)
        init(bits: UInt32) { self.bits = bits }

        /// What a record of `shape` and `parts` holds (`heldByKind`'s entries).
        static func of(shape: TraceRecord.Shape, parts: TraceRecord.Parts) -> Held {
            Held(
                TraceRecord(
                    seq: 0, time: 0, words: (0, 0, 0), type: nil, from: 0, to: 0, thread: 0, call: .on, kind: .next,
                    shape: shape, parts: parts))
        }

        /// A slot that starts no record.
        static let continued = Held(bits: 1 << 24)

        var steps: Int { @inline(__always) get { Int(bits & 0xFFF) } }
        var events: Int { @inline(__always) get { Int(bits >> 12 & 0xFFF) } }
        var startsNoRecord: Bool { @inline(__always) get { bits >> 24 != 0 } }
    }
    /// The chunks held from `first` on, oldest first (the ones before `first` are let go, and
    /// removed from the array now and then).
    @exclusivity(unchecked) private var chunks: [Chunk] = []
    @exclusivity(unchecked) private var first = 0
    /// The oldest record's place in `chunks[first]`.
    @exclusivity(unchecked) private var head = 0
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var heldSteps = 0
    @exclusivity(unchecked) private var heldEvents = 0
    /// Chunks' memory not in use: records (to lend, or for the ring's next chunk) and `held`s.
    @exclusivity(unchecked) private var spareRecords: [UnsafeMutablePointer<RecordSlot>] = []
    @exclusivity(unchecked) private var spareHeld: [UnsafeMutablePointer<Held>] = []
    /// Every slab taken (records), freed with the ring.
    @exclusivity(unchecked) private var slabs: [Slab] = []
    /// Parts of records the chunks had to let go while still needed.
    private let overflowSteps: PlainRing<TraceRecord>
    private let overflowEvents: PlainRing<TraceRecord>
    /// Steps and events ever appended.
    @exclusivity(unchecked) private(set) var totalSteps = 0
    @exclusivity(unchecked) private(set) var totalEvents = 0
    /// Texts of the records held whose value or detail does not fit in them, by `seq`.
    @exclusivity(unchecked) private(set) var texts: [UInt64: String] = [:]
    /// Texts held by two copies of a split record (both overflow rings), by `seq`.
    @exclusivity(unchecked) private var sharedTexts: Set<UInt64> = []
    /// Records moved out while still needed (their parts into the overflow rings).
    @exclusivity(unchecked) private(set) var splits = 0

    /// `Held` of every slot's shape and parts (at `RecordSlot.kind`, `parts | shape << 8`;
    /// `RecordSlot.continued` for a slot that starts no record): a chunk adopted reads one word a
    /// slot here, found from one load of the slot, rather than working it out.
    private let heldByKind: UnsafeMutablePointer<Held>
    /// Chunks cut from the next slab: `firstSlabChunks`, then twice the last, up to
    /// `chunksPerSlab`. (These two after the fields `append` and `adopt` use, which keep their
    /// places.)
    @exclusivity(unchecked) private var nextSlabChunks: Int
    /// Where the slabs' memory comes from.
    private let slabMemory: SlabMemory

    /// Slots per slab at most: 1.25 MB of slots.
    static let maxSlabRecords = 1 << 15
    /// Chunks cut from a ring's first slab (80 KB of slots): all that a short recording makes
    /// resident, where a first slab of 1.25 MB cost it half a millisecond of populating.
    static let firstSlabChunks = 8

    /// Where a ring's slabs come from: `populated`, mapped on their own and made resident in one
    /// call each (Linux; elsewhere, and for a slab too small to map, `heap`); `mapped`, mapped
    /// but made resident a page at a time as records are first written (what `populated` does
    /// where the kernel does not know `MADV_POPULATE_WRITE`); `heap`, from `malloc` (what
    /// `populated` does where mapping fails). The recorder uses `populated`; tests run the others.
    enum SlabMemory { case populated, mapped, heap }

    /// A slab's memory, and whether it was mapped on its own (else it is from `malloc`).
    private struct Slab {
        let base: UnsafeMutableRawPointer
        let byteCount: Int
        let mapped: Bool
    }

    /// Each slab's size in bytes and whether it is mapped on its own, oldest first.
    var slabSizes: [(bytes: Int, mapped: Bool)] { slabs.map { ($0.byteCount, $0.mapped) } }

    /// Bytes in the slabs of every ring alive (for tests: a ring frees its slabs with it).
    static let liveSlabBytes = Atomic<Int>(0)

    init(steps: Int, events: Int, slabMemory: SlabMemory = .populated) {
        precondition(_isPOD(TraceRecord.self) && _isPOD(RecordSlot.self), "records must be plain data")
        precondition(MemoryLayout<RecordSlot>.offset(of: \RecordSlot.word) == RecordSlot.wordOffset)
        precondition(MemoryLayout<RecordSlot>.stride == 40, "a slot is 40 bytes")
        precondition(Self.chunkCapacity % 8 == 0, "adopt takes a chunk's slots eight at a time")
        precondition(
            MemoryLayout<RecordSlot>.offset(of: \RecordSlot.parts) == RecordSlot.kindOffset
                && MemoryLayout<RecordSlot>.offset(of: \RecordSlot.shape) == RecordSlot.kindOffset + 1)
        self.steps = max(0, steps)
        self.events = max(0, events)
        limit = 2 * max(self.steps, self.events)
        // Room for what the ring holds and a few threads' buffers, at most 1.25 MB a slab.
        chunksPerSlab = min(Self.maxSlabRecords, limit + 4 * Self.chunkCapacity) / Self.chunkCapacity
        nextSlabChunks = min(Self.firstSlabChunks, chunksPerSlab)
        self.slabMemory = slabMemory
        // Room for 8 shapes (there are 6) and every set of parts.
        heldByKind = .allocate(capacity: 8 << 8)
        heldByKind.initialize(repeating: Held(bits: 0), count: 8 << 8)
        for rawShape in 0..<8 {
            if rawShape == RecordSlot.continued {
                for parts in 0..<256 { heldByKind[parts | rawShape << 8] = Held.continued }
            }
            guard let shape = TraceRecord.Shape(rawValue: UInt8(rawShape)) else { continue }
            for parts in 0..<256 {
                heldByKind[parts | rawShape << 8] = Held.of(
                    shape: shape, parts: TraceRecord.Parts(rawValue: UInt8(parts)))
            }
        }
        // Overflow rings: address space only unless used (pages become resident as they fill).
        overflowSteps = PlainRing(capacity: self.steps)
        overflowEvents = PlainRing(capacity: self.events)
    }

    deinit {
        for slab in slabs { Self.freeSlab(slab) }
        for chunk in chunks[first...] { chunk.held.deallocate() }
        for held in spareHeld { held.deallocate() }
        heldByKind.deallocate()
    }

    /// An empty chunk's slots for a thread to write into (the ring's until it is freed).
    func lendChunk() -> UnsafeMutablePointer<RecordSlot> {
        if let records = spareRecords.popLast() { return records }
        return addSlab()
    }

    /// Takes back a lent chunk whose records were taken (a thread's buffer, when it exits).
    func takeBack(_ chunk: UnsafeMutablePointer<RecordSlot>) {
        spareRecords.append(chunk)
    }

    /// Takes the first `recordCount` slots of `chunk`, a chunk lent to a thread, as they are
    /// (whole records): a full chunk joins the ring with no copy (then the thread writes into the
    /// chunk returned); any other is copied, and is returned to write into again.
    func adopt(_ chunk: UnsafeMutablePointer<RecordSlot>, count recordCount: Int) -> UnsafeMutablePointer<RecordSlot> {
        guard recordCount == Self.chunkCapacity, recordCount <= limit &- count else {
            append(contentsOf: UnsafeBufferPointer(start: chunk, count: recordCount))
            return chunk
        }
        let held = newHeld()
        var sum: UInt32 = 0
        let heldByKind = self.heldByKind
        @inline(__always)
        func take(_ j: Int) {
            let record = chunk + j
            sum &+= heldByKind[RecordSlot.kind(at: record)].bits
            held[j &+ 1] = Held(bits: sum)
            // A record with a text goes into the ring itself (`Chunk.texts` counts none here).
            assert(!record.pointee.parts.contains(.text), "a thread's buffer holds a record with a text")
        }
        // Eight slots a turn (a chunk's 256 slots are a multiple of 8): the loop's own counting
        // and branch cost a third of a slot's instructions when taken one or two at a time.
        var j = 0
        while j < recordCount {
            take(j)
            take(j &+ 1)
            take(j &+ 2)
            take(j &+ 3)
            take(j &+ 4)
            take(j &+ 5)
            take(j &+ 6)
            take(j &+ 7)
            j &+= 8
        }
        if first == chunks.count { head = 0 }
        chunks.append(Chunk(records: chunk, held: held, count: recordCount))
        let added = Held(bits: sum)
        count &+= recordCount
        heldSteps &+= added.steps
        heldEvents &+= added.events
        totalSteps &+= added.steps
        totalEvents &+= added.events
        trim()
        return lendChunk()
    }

    /// Adds `record`, with its `text` when its value is in the text table.
    func append(_ record: TraceRecord, text: String? = nil) {
        let size = Held(record)
        let recordSteps = size.steps, recordEvents = size.events
        totalSteps &+= recordSteps
        totalEvents &+= recordEvents
        guard recordSteps + recordEvents > 0 else { return }
        if let text { texts[record.seq] = text }
        let hasText = record.parts.contains(.text)
        if limit == 0 {
            if hasText { texts[record.seq] = nil }
            return
        }
        let type = TraceTypes.number(of: record.type)
        let width = RecordSlot.count(record, type: type)
        // Room for its slots (and a filler, when the newest chunk has one slot left for two).
        while count > 0 {
            let room = first < chunks.count ? Self.chunkCapacity &- chunks[chunks.count &- 1].count : 0
            if count &+ (width == 2 && room == 1 ? 3 : width) <= limit { break }
            letOldestGo(adding: size)
        }
        var index = chunkWithRoom()
        if chunks[index].count &+ width > Self.chunkCapacity {
            appendFiller(index)
            index = chunkWithRoom()
        }
        let offset = chunks[index].count
        _ = RecordSlot.initialize(chunks[index].records + offset, to: record, type: type)
        chunks[index].held[offset &+ 1] = Held(bits: chunks[index].held[offset].bits &+ size.bits)
        if width == 2 {
            chunks[index].held[offset &+ 2] = Held(bits: chunks[index].held[offset &+ 1].bits &+ Held.continued.bits)
        }
        chunks[index].count = offset &+ width
        if hasText { chunks[index].texts &+= 1 }
        count &+= width
        heldSteps &+= recordSteps
        heldEvents &+= recordEvents
        trim()
    }

    /// Ends chunk `index`, which has one slot left, with a filler: the next record takes two.
    @inline(never)
    private func appendFiller(_ index: Int) {
        let offset = chunks[index].count
        (chunks[index].records + offset).initialize(to: .filler)
        chunks[index].held[offset &+ 1] = Held(bits: chunks[index].held[offset].bits &+ Held.continued.bits)
        chunks[index].count = offset &+ 1
        count &+= 1
    }

    /// Adds the records of a thread's buffer (whole records' slots), oldest first (copied: see
    /// `adopt`).
    func append(contentsOf batch: UnsafeBufferPointer<RecordSlot>) {
        guard let base = batch.baseAddress, batch.count > 0 else { return }
        // (A filler where a two-slot record would straddle two chunks: at most one a chunk.)
        if batch.count > limit || count + batch.count + batch.count / Self.chunkCapacity + 1 > limit {
            // Near the limit (or a ring smaller than a buffer): one at a time, the oldest let
            // go as needed.
            var records: [TraceRecord] = []
            RecordSlot.expand(batch, into: &records)
            for record in records { append(record) }
            return
        }
        var copied = 0, addedSteps = 0, addedEvents = 0
        let heldByKind = self.heldByKind
        while copied < batch.count {
            let index = chunkWithRoom()
            let chunk = chunks[index]
            var n = min(batch.count &- copied, Self.chunkCapacity &- chunk.count)
            if n < batch.count &- copied, base[copied &+ n &- 1].type == RecordSlot.wide {
                // A two-slot record would straddle the chunks: it starts the next one.
                n &-= 1
                if n == 0 {
                    appendFiller(index)
                    continue
                }
            }
            (chunk.records + chunk.count).initialize(from: base + copied, count: n)
            let held = chunk.held + chunk.count
            var sum = held[0].bits, texts = 0
            for j in 0..<n {
                let slot = base + (copied &+ j)
                sum &+= heldByKind[RecordSlot.kind(at: slot)].bits
                held[j &+ 1] = Held(bits: sum)
                if slot.pointee.parts.contains(.text) { texts &+= 1 }
            }
            let added = Held(bits: sum &- held[0].bits)
            addedSteps &+= added.steps
            addedEvents &+= added.events
            chunks[index].count = chunk.count &+ n
            chunks[index].texts &+= texts
            count &+= n
            copied &+= n
        }
        heldSteps &+= addedSteps
        heldEvents &+= addedEvents
        totalSteps &+= addedSteps
        totalEvents &+= addedEvents
        trim()
    }

    /// The newest chunk when it has room, else a new one: its index.
    @inline(__always)
    private func chunkWithRoom() -> Int {
        if first < chunks.count, chunks[chunks.count &- 1].count < Self.chunkCapacity { return chunks.count &- 1 }
        return addChunk()
    }

    /// Lets go of the oldest records while the rest hold enough steps and events: the rest of
    /// the oldest chunk at once while the newer chunks hold enough without it, then the run of
    /// its records that can go, found by halving (what a run holds is a difference of two
    /// `held`s), rather than record by record. A ring keeps at least one record.
    @inline(__always)
    private func trim() {
        guard count > 0 else { return }
        var head = self.head, count = self.count, heldSteps = self.heldSteps, heldEvents = self.heldEvents
        while true {
            let chunk = chunks[first]
            let rest = chunk.run(head, chunk.count)
            if first &+ 1 < chunks.count, heldSteps &- rest.steps >= steps, heldEvents &- rest.events >= events {
                if chunk.texts > 0 { forgetTexts(chunk, head..<chunk.count) }
                heldSteps &-= rest.steps
                heldEvents &-= rest.events
                count &-= chunk.count &- head
                head = 0
                retireOldestChunk()
                continue
            }
            // Records `head..<low` can go, `head..<high` cannot (or `high` is the chunk's end).
            var low = head, high = chunk.count
            while high &- low > 1 {
                let middle = (low &+ high) &>> 1
                let gone = chunk.run(head, middle)
                if heldSteps &- gone.steps >= steps, heldEvents &- gone.events >= events {
                    low = middle
                } else {
                    high = middle
                }
            }
            // The second slot of a record let go goes with it (it holds nothing).
            if low != head, low < chunk.count, chunk.size(low).startsNoRecord { low &+= 1 }
            if low != head {
                if chunk.texts > 0 { forgetTexts(chunk, head..<low) }
                let gone = chunk.run(head, low)
                heldSteps &-= gone.steps
                heldEvents &-= gone.events
                count &-= low &- head
                head = low
                if head == chunk.count {
                    head = 0
                    retireOldestChunk()
                }
            }
            break
        }
        self.head = head
        self.count = count
        self.heldSteps = heldSteps
        self.heldEvents = heldEvents
    }

    /// The texts of `chunk`'s records in `range`, let go with them.
    @inline(never)
    private func forgetTexts(_ chunk: Chunk, _ range: Range<Int>) {
        for j in range where chunk.records[j].parts.contains(.text) { texts[chunk.records[j].seq] = nil }
    }

    /// A chunk's `held`, its first entry 0.
    @inline(__always)
    private func newHeld() -> UnsafeMutablePointer<Held> {
        let held = spareHeld.popLast() ?? .allocate(capacity: Self.chunkCapacity &+ 1)
        held[0] = Held(bits: 0)
        return held
    }

    /// The oldest chunk is empty: its memory is kept for the next chunk needed.
    @inline(never)
    private func retireOldestChunk() {
        let chunk = chunks[first]
        spareRecords.append(chunk.records)
        spareHeld.append(chunk.held)
        first &+= 1
        if first >= 64, first &* 2 >= chunks.count {
            chunks.removeFirst(first)
            first = 0
        }
    }

    @inline(never)
    private func addChunk() -> Int {
        if first == chunks.count { head = 0 }
        let records = lendChunk()
        chunks.append(Chunk(records: records, held: newHeld(), count: 0))
        return chunks.count &- 1
    }

    /// A new slab cut into chunks (twice as many as the last, up to `chunksPerSlab`): one
    /// returned, the others spare.
    @inline(never)
    private func addSlab() -> UnsafeMutablePointer<RecordSlot> {
        let stride = Self.chunkCapacity * MemoryLayout<RecordSlot>.stride
        let chunkCount = nextSlabChunks
        nextSlabChunks = min(chunkCount * 2, chunksPerSlab)
        let slab = Self.allocateSlab(byteCount: chunkCount * stride, memory: slabMemory)
        slabs.append(slab)
        for index in (1..<chunkCount).reversed() {
            spareRecords.append((slab.base + index * stride).assumingMemoryBound(to: RecordSlot.self))
        }
        return slab.base.assumingMemoryBound(to: RecordSlot.self)
    }

    /// Memory for a slab's records. On Linux a slab of whole pages, 64 KB or more, is mapped on
    /// its own and made resident at once (`MADV_POPULATE_WRITE`, Linux 5.14+; where the kernel
    /// refuses it, pages become resident as they are first written): one call instead of a page
    /// fault per 4 KB as the ring fills it; and unmapped with the ring (from `malloc`, glibc kept
    /// a freed ring's 1.25 MB slabs in its heap: 15 MB more resident in TraceBench). The kernel
    /// still zeroes and accounts for every page (a tenth of a fresh recorder's time in
    /// `TraceBench`: see "The ring's fresh memory" in docs/performance.md). (Offering slabs to
    /// transparent huge pages made that far cheaper for some recorders and far dearer for
    /// others, when the memory had to be found afresh.)
    private static func allocateSlab(byteCount: Int, memory: SlabMemory) -> Slab {
        #if os(Linux)
        if memory != .heap, byteCount >= Self.mappedSlabBytes, byteCount % Self.pageSize == 0,
            let pointer = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            pointer != MAP_FAILED
        {
            if memory == .populated { _ = madvise(pointer, byteCount, 23 /* MADV_POPULATE_WRITE */) }
            liveSlabBytes.add(byteCount, ordering: .relaxed)
            return Slab(base: pointer, byteCount: byteCount, mapped: true)
        }
        #endif
        liveSlabBytes.add(byteCount, ordering: .relaxed)
        return Slab(base: malloc(byteCount)!, byteCount: byteCount, mapped: false)
    }

    /// Slabs of at least this many bytes are mapped on their own (Linux).
    private static let mappedSlabBytes = 1 << 16

    #if os(Linux)
    private static let pageSize = max(1, sysconf(Int32(_SC_PAGESIZE)))
    #endif

    private static func freeSlab(_ slab: Slab) {
        liveSlabBytes.subtract(slab.byteCount, ordering: .relaxed)
        #if os(Linux)
        if slab.mapped {
            munmap(slab.base, slab.byteCount)
            return
        }
        #endif
        free(slab.base)
    }

    /// Removes the oldest record, the ring being at its limit before a record holding `adding`
    /// joins it: its parts still needed then move to the overflow rings.
    private func letOldestGo(adding: Held) {
        let chunk = chunks[first]
        let size = chunk.size(head)
        let slot = chunk.records + head
        let width = RecordSlot.width(at: slot)
        heldSteps &-= size.steps
        heldEvents &-= size.events
        if heldSteps &+ adding.steps < steps || heldEvents &+ adding.events < events {
            split(RecordSlot.record(at: slot, types: TraceTypes.all), size, adding: adding)
        } else if slot.pointee.parts.contains(.text) {
            texts[slot.pointee.seq] = nil
        }
        head &+= width
        count &-= width
        // A filler goes with the record before it.
        if head < chunk.count, chunk.size(head).startsNoRecord {
            head &+= 1
            count &-= 1
        }
        if head == chunk.count {
            head = 0
            retireOldestChunk()
        }
    }

    /// `record`, let go while at the limit: its parts still needed go to the overflow rings.
    @inline(never)
    private func split(_ record: TraceRecord, _ size: Held, adding: Held) {
        splits += 1
        var copies = 0
        if size.steps != 0, heldSteps &+ adding.steps < steps {
            var part = record
            part.parts.remove(.keptEvent)
            copies += 1
            if let gone = overflowSteps.append(part, reportingGone: true) { release(gone) }
        }
        if size.events != 0, heldEvents &+ adding.events < events {
            var part = record
            part.parts.remove(.keptSteps)
            copies += 1
            if let gone = overflowEvents.append(part, reportingGone: true) { release(gone) }
        }
        if record.parts.contains(.text) {
            if copies == 0 { texts[record.seq] = nil }
            if copies == 2 { sharedTexts.insert(record.seq) }
        }
    }

    /// A copy let go by an overflow ring: its text goes with its last copy.
    private func release(_ record: TraceRecord) {
        guard record.parts.contains(.text) else { return }
        if sharedTexts.remove(record.seq) == nil { texts[record.seq] = nil }
    }

    /// Every record held (the overflow parts first, then the chunks' oldest first).
    func appendRecords(to result: inout [TraceRecord]) {
        result.reserveCapacity(result.count + count + overflowSteps.count + overflowEvents.count)
        result.append(contentsOf: overflowSteps.elements)
        result.append(contentsOf: overflowEvents.elements)
        var place = head
        for chunk in chunks[first...] {
            let slots = UnsafeBufferPointer(start: chunk.records + place, count: chunk.count &- place)
            RecordSlot.expand(slots, into: &result)
            place = 0
        }
    }
}

/// `Ring` for plain data (no references): the elements live in memory allocated once (address
/// space only: pages become resident as the ring fills) and are written and overwritten like
/// integers, with no uniqueness or bounds checks. A class: copies of it share the storage, so
/// read it only where it is written (under the recorder's lock).
final class PlainRing<Element>: @unchecked Sendable {
    let capacity: Int
    private let storage: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var head = 0
    @exclusivity(unchecked) private(set) var dropped = 0

    init(capacity: Int) {
        precondition(_isPOD(Element.self), "PlainRing holds plain data only")
        self.capacity = capacity
        storage = .allocate(capacity: max(capacity, 1))
    }

    deinit { storage.deallocate() }

    /// Appends `element`; when asked, returns the element let go to make room (`element` itself
    /// when the capacity is 0), if any.
    @inline(__always)
    func append(_ element: Element, reportingGone: Bool) -> Element? {
        if count < capacity {
            (storage + count).initialize(to: element)
            count += 1
            return nil
        }
        dropped += 1
        if capacity == 0 { return reportingGone ? element : nil }
        let slot = storage + head
        let gone: Element? = reportingGone ? slot.pointee : nil
        slot.pointee = element
        head += 1
        if head == capacity { head = 0 }
        return gone
    }

    /// Oldest first.
    var elements: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        result.append(contentsOf: UnsafeBufferPointer(start: storage + head, count: count - head))
        result.append(contentsOf: UnsafeBufferPointer(start: storage, count: head))
        return result
    }
}

/// A fixed-capacity buffer keeping the newest `capacity` elements, counting what it let go.
struct Ring<Element> {
    let capacity: Int
    private var storage: [Element] = []
    private var head = 0
    private(set) var dropped = 0

    init(capacity: Int) {
        self.capacity = capacity
        // Reserved, not touched: pages become resident as the ring fills, and appending never
        // copies the ring to grow it.
        storage.reserveCapacity(capacity)
    }

    var count: Int { storage.count }

    /// Appends `element`; returns the element let go to make room (`element` itself when the
    /// capacity is 0), if any.
    @discardableResult
    mutating func append(_ element: Element) -> Element? {
        if storage.count < capacity {
            storage.append(element)
            return nil
        } else if capacity == 0 {
            dropped += 1
            return element
        } else {
            let gone = storage[head]
            storage[head] = element
            head += 1
            if head == capacity { head = 0 }
            dropped += 1
            return gone
        }
    }

    /// Oldest first.
    var elements: [Element] {
        head == 0 ? storage : Array(storage[head...] + storage[..<head])
    }
}

extension TraceRecord {
    /// Whether `time` is a reading of the recorder's clock: not virtual, and not 0 (a step made
    /// outside a delivery, or a recording that keeps no events, has no time). The steps of a
    /// delivery carry its time too: the trace file writes every call's time.
    var hasRealTime: Bool { time != 0 && !parts.contains(.virtual) }
}
