import Testing

@testable import RxCore

/// The ring's memory: slabs that start small and double up to 1.25 MB, so that a short
/// recording makes little memory resident, and that keep the same records whether their memory
/// is made resident in one call, mapped and touched a page at a time, or taken from `malloc` (the
/// paths the recorder falls back on where the kernel refuses the first two).
@Suite(.serialized) struct RingSlabTests {
    /// Bytes of one chunk's slots.
    static let chunkBytes = RecordRing.chunkCapacity * MemoryLayout<RecordSlot>.stride

    /// A record holding one step and one event (`forwardOn` of `seq` from 1 to 2), one slot; or,
    /// from a thread numbered past 65,534, two.
    static func record(_ seq: UInt64, wide: Bool = false) -> TraceRecord {
        TraceRecord(
            seq: seq, time: seq &* 3, words: (seq, 0, 0), type: Int.self, from: 1, to: 2,
            thread: wide ? 70_000 : 0, call: .forwardOn, kind: .next, shape: .forwarded,
            parts: [.steps, .keptSteps, .event, .keptEvent])
    }

    /// Writes `count` records as the recorder does: into chunks the ring lends, a full chunk
    /// adopted whole, a filler before a two-slot record that would not fit, and now and then a
    /// record appended to the ring itself after the buffer is handed over (copied). Every 50th
    /// record takes two slots. Returns the records written, in order.
    static func fill(
        _ ring: RecordRing, count: Int,
        making make: (_ index: Int) -> TraceRecord = {
            record(UInt64($0) &* 2 &+ 1, wide: $0 % 50 == 49)
        }
    ) -> [TraceRecord] {
        var written: [TraceRecord] = []
        var chunk = ring.lendChunk()
        var filled = 0
        for index in 0..<count {
            let record = make(index)
            written.append(record)
            if index % 1_009 == 1_008 {
                chunk = ring.adopt(chunk, count: filled)
                filled = 0
                ring.append(record)
                continue
            }
            ring.write(record, into: &chunk, filled: &filled)
        }
        chunk = ring.adopt(chunk, count: filled)
        ring.takeBack(chunk)
        return written
    }

    /// Runs `body`, then checks that every ring it made freed its slabs with it.
    static func expectingSlabsFreed(sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) {
        let before = RecordRing.liveSlabBytes.load(ordering: .relaxed)
        body()
        #expect(
            RecordRing.liveSlabBytes.load(ordering: .relaxed) == before, "the ring's slabs were not freed",
            sourceLocation: sourceLocation)
    }

    /// `(seq, value, thread)` of each record.
    static func keys(_ records: [TraceRecord]) -> [[UInt64]] {
        records.map { [$0.seq, $0.words.0, $0.time, UInt64($0.thread)] }
    }

    @Test func aShortRecordingTakesOneSlabOfEightyKilobytes() {
        Self.expectingSlabsFreed {
            let ring = RecordRing(
                steps: TraceRecorder.Options.defaultRingCapacity, events: TraceRecorder.Options.defaultRingCapacity)
            let written = Self.fill(ring, count: 1_000)
            #expect(ring.slabSizes.map(\.bytes) == [RecordRing.firstSlabChunks * Self.chunkBytes])
            #expect(ring.slabSizes.map(\.bytes) == [81_920])
            var held: [TraceRecord] = []
            ring.appendRecords(to: &held)
            #expect(Self.keys(held) == Self.keys(written))
        }
    }

    /// Each slab holds twice the chunks of the one before, up to 1.25 MB; a ring keeps taking
    /// slabs only while what it keeps grows, and lends again the chunks it lets go of.
    @Test func slabsDoubleUpToAMegabyteAndAQuarter() {
        Self.expectingSlabsFreed {
            // Keeps the newest 200,000 records: 780 chunks' worth.
            let ring = RecordRing(steps: 200_000, events: 200_000)
            let written = Self.fill(ring, count: 600_000)
            let kilobytes = ring.slabSizes.map { $0.bytes / 1_024 }
            #expect(Array(kilobytes.prefix(6)) == [80, 160, 320, 640, 1_280, 1_280])
            #expect(kilobytes.allSatisfy { $0 <= 1_280 })
            // Enough for what it keeps (a chunk or two part-full among them), not much more.
            let total = kilobytes.reduce(0, +)
            #expect(total >= 200_000 * 40 / 1_024 && total <= 200_000 * 40 / 1_024 + 2 * 1_280)
            #if os(Linux)
            #expect(ring.slabSizes.allSatisfy { $0.mapped })
            #endif
            var held: [TraceRecord] = []
            ring.appendRecords(to: &held)
            #expect(Self.keys(held) == Self.keys(Array(written.suffix(200_000))))
        }
    }

    /// The memory the recorder falls back on where the kernel refuses to populate a mapping, or
    /// to map one, keeps what the populated slabs keep, record for record, and is freed with the
    /// ring (a slab from `malloc` is freed, not unmapped).
    @Test(arguments: [RecordRing.SlabMemory.populated, .mapped, .heap])
    func everyKindOfSlabKeepsTheNewestRecords(memory: RecordRing.SlabMemory) {
        Self.expectingSlabsFreed {
            let ring = RecordRing(steps: 40_000, events: 40_000, slabMemory: memory)
            let written = Self.fill(ring, count: 250_000)
            #if os(Linux)
            #expect(ring.slabSizes.allSatisfy { $0.mapped == (memory != .heap) })
            #endif
            #expect(ring.slabSizes.count >= 5)
            var held: [TraceRecord] = []
            ring.appendRecords(to: &held)
            #expect(Self.keys(held) == Self.keys(Array(written.suffix(40_000))))
            #expect(ring.totalSteps == written.count && ring.totalEvents == written.count)
        }
    }

    /// Records of every shape, holding steps, events or both (some not kept: a split record's
    /// copy), adopted in whole chunks: the ring reads what each slot holds from its shape and
    /// parts (`heldByKind`), and keeps exactly the shortest newest run holding `steps` steps and
    /// `events` events, cutting inside a chunk, with the totals of what was written.
    @Test func everyShapeAndPartsKeepTheNewestStepsAndEvents() {
        let shapes: [TraceRecord.Shape] = [
            .forwarded, .received, .observed, .step, .receivedForwarded, .forwardedObserved,
        ]
        let partsSets: [TraceRecord.Parts] = [
            [.steps, .keptSteps], [.event, .keptEvent], [.steps, .keptSteps, .event, .keptEvent],
            [.steps, .keptSteps, .event, .keptEvent, .secondEvent], [.steps, .event, .keptEvent],
            [.steps, .keptSteps, .event], [.event, .keptEvent, .secondEvent, .virtual],
        ]
        func make(_ index: Int) -> TraceRecord {
            let seq = UInt64(index) &* 4 &+ 1
            return TraceRecord(
                seq: seq, time: seq &* 3, words: (seq, 0, 0), type: Int.self, from: 1, to: 2,
                thread: index % 37 == 36 ? 70_000 : 0, call: .forwardOn, kind: .next,
                shape: shapes[index % shapes.count], parts: partsSets[index / shapes.count % partsSets.count])
        }
        for (steps, events) in [(3_000, 2_000), (1_000, 4_000)] {
            Self.expectingSlabsFreed {
                let ring = RecordRing(steps: steps, events: events)
                let written = Self.fill(ring, count: 20_000, making: make)
                #expect(written.contains { $0.keptSteps == 3 } && written.contains { $0.keptEvents == 2 })
                #expect(ring.totalSteps == written.reduce(0) { $0 + $1.keptSteps })
                #expect(ring.totalEvents == written.reduce(0) { $0 + $1.keptEvents })
                // The shortest newest run holding both.
                var start = written.count, heldSteps = 0, heldEvents = 0
                while heldSteps < steps || heldEvents < events {
                    start -= 1
                    heldSteps += written[start].keptSteps
                    heldEvents += written[start].keptEvents
                }
                var held: [TraceRecord] = []
                ring.appendRecords(to: &held)
                #expect(Self.keys(held) == Self.keys(Array(written[start...])))
                #expect(held.map(\.parts.rawValue) == written[start...].map(\.parts.rawValue))
                #expect(ring.splits == 0)
            }
        }
    }

    /// A ring too small for a slab of 80 KB cuts every slab to its own size, from `malloc`
    /// (smaller than a mapping is worth).
    @Test func aSmallRingTakesSmallSlabsFromTheHeap() {
        Self.expectingSlabsFreed {
            let ring = RecordRing(steps: 100, events: 100)
            let written = Self.fill(ring, count: 5_000)
            #expect(ring.slabSizes.allSatisfy { $0.bytes == 4 * Self.chunkBytes && !$0.mapped })
            var held: [TraceRecord] = []
            ring.appendRecords(to: &held)
            #expect(Self.keys(held) == Self.keys(Array(written.suffix(100))))
        }
    }
}
