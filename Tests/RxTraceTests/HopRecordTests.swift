import Foundation
import RxTrace
import Testing

@testable import RxCore

/// The recorder keeps one record per traced call (a hop's `forwardOn` step and the event it
/// carries together) and expands it into steps and events when the trace is read: what a
/// document says must be what separate step and event rings would have said.
@Suite(.serialized) struct HopRecordTests {
    // MARK: Expansion

    /// One element through `create` → `map` → `subscribe`: each traced call's step and event,
    /// in the order (and with the consecutive `seq`s) the documents' step9 gives.
    @Test func eachHopExpandsIntoItsStepsAndEventInOrder() {
        let trace = checkingNoLeaks {
            Trace.record {
                let d = Observable<Int>.create { observer in
                    observer.onNext(1)
                    return Disposables.create()
                }
                .map { $0 * 10 }
                .subscribe(onNext: { _ in })
                d.dispose()
            }
        }
        let types = Dictionary(uniqueKeysWithValues: trace.nodes.map { ($0.id, $0.type) })
        func name(_ id: UInt64) -> String { id == 0 ? "0" : types[id] ?? "?" }
        let items: [(seq: UInt64, line: String)] =
            trace.steps.filter { $0.detail?.hasPrefix("next(") == true }.map {
                ($0.seq, "\($0.call.rawValue) \(name($0.from))→\(name($0.to)) \($0.detail ?? "")")
            }
            + trace.events.filter { $0.kind == .next }.map {
                ($0.seq, "event \(name($0.node)) next(\($0.value ?? ""))")
            }
        let sorted = items.sorted { $0.seq < $1.seq }
        #expect(
            sorted.map(\.line) == [
                "on 0→AnonymousObservableSink next(1)",
                "event AnonymousObservableSink next(1)",
                "forwardOn AnonymousObservableSink→MapSink next(1)",
                "event MapSink next(1)",
                "forwardOn MapSink→AnonymousObserver next(10)",
                "on MapSink→AnonymousObserver next(10)",
                "event AnonymousObserver next(10)",
                "onCore MapSink→AnonymousObserver next(10)",
            ])
        // One clock value each, none skipped: nothing else happened in between.
        let seqs = sorted.map(\.seq)
        #expect(seqs == Array(seqs[0]...(seqs[0] + UInt64(seqs.count) - 1)))
    }

    /// `create` straight into `subscribe`: the observer records its own event, so the create
    /// sink's `forwardOn` carries none.
    @Test func aForwardIntoAnObserverCarriesNoEventOfItsOwn() {
        let trace = checkingNoLeaks {
            Trace.record {
                let d = Observable<Int>.create { observer in
                    observer.onNext(7)
                    observer.onCompleted()
                    return Disposables.create()
                }
                .subscribe(onNext: { _ in })
                d.dispose()
            }
        }
        let types = Dictionary(uniqueKeysWithValues: trace.nodes.map { ($0.id, $0.type) })
        func name(_ id: UInt64) -> String { id == 0 ? "0" : types[id] ?? "?" }
        let items: [(seq: UInt64, line: String)] =
            trace.steps.filter { $0.detail == "next(7)" }.map {
                ($0.seq, "\($0.call.rawValue) \(name($0.from))→\(name($0.to))")
            }
            + trace.events.filter { $0.value == "7" }.map { ($0.seq, "event \(name($0.node))") }
        let sorted = items.sorted { $0.seq < $1.seq }
        #expect(
            sorted.map(\.line) == [
                "on 0→AnonymousObservableSink",
                "event AnonymousObservableSink",
                "forwardOn AnonymousObservableSink→AnonymousObserver",
                "on AnonymousObservableSink→AnonymousObserver",
                "event AnonymousObserver",
                "onCore AnonymousObservableSink→AnonymousObserver",
            ])
        let seqs = sorted.map(\.seq)
        #expect(seqs == Array(seqs[0]...(seqs[0] + UInt64(seqs.count) - 1)))
        let times = Set(trace.events.filter { $0.value == "7" }.map(\.time))
        #expect(times.count == 1)
    }

    /// A `create` sink whose subscription was disposed (or that has completed) still records
    /// its own `on` of a late element, and nothing downstream.
    @Test func aCreateSinkThatNoLongerForwardsRecordsItsOnAlone() {
        let trace = checkingNoLeaks {
            Trace.record {
                var saved: AnyObserver<Int>?
                let d = Observable<Int>.create { observer in
                    saved = observer
                    observer.onNext(1)
                    return Disposables.create()
                }
                .map { $0 * 10 }
                .subscribe(onNext: { _ in })
                d.dispose()
                saved?.onNext(2)
                saved?.onCompleted()
                saved?.onNext(3)
                saved = nil
            }
        }
        let types = Dictionary(uniqueKeysWithValues: trace.nodes.map { ($0.id, $0.type) })
        for value in [2, 3] {
            #expect(stepLines(trace).filter { $0.hasSuffix("next(\(value))") }.count == 1)
            #expect(trace.steps.filter { $0.detail == "next(\(value))" }.map(\.call) == [.on])
            #expect(
                trace.events.filter { $0.value == "\(value)" }.map { types[$0.node] } == ["AnonymousObservableSink"])
        }
        #expect(trace.events.filter { $0.value == "1" || $0.value == "10" }.count == 3)
    }

    // MARK: The ring

    /// A run that mixes every kind of record: hops with and without their event, received and
    /// observed elements, stop events, steps of the subscribe flow, long texts kept aside.
    private func mixedRun(_ options: TraceRecorder.Options) -> TraceDocument {
        checkingNoLeaks {
            Trace.record(options: options) {
                let subject = PublishSubject<String>()
                let fromSubject = subject.map { $0 + "!" }.subscribe(onNext: { _ in })
                let direct = subject.subscribe(onNext: { _ in })
                let numbers = Observable.from(Array(1...30)).map { $0 * 3 }.filter { $0 % 2 == 0 }
                    .subscribe(onNext: { _ in })
                for i in 0..<6 {
                    subject.onNext(i.isMultiple(of: 2) ? "\(i)" : "a value too long to sit in a record, number \(i)")
                }
                subject.onCompleted()
                fromSubject.dispose()
                direct.dispose()
                numbers.dispose()
            }
        }
    }

    /// Steps as a document gives them, without what differs between two runs (nothing here).
    private func stepKeys(_ steps: some Sequence<TraceStep>) -> [String] {
        steps.map { "\($0.seq) \($0.call.rawValue) \($0.from)→\($0.to) \($0.detail ?? "-")" }
    }

    /// Events without their time (two runs differ only there).
    private func eventKeys(_ events: some Sequence<TraceEvent>) -> [String] {
        events.map { "\($0.seq) \($0.node) \($0.kind.rawValue) \($0.value ?? "-")" }
    }

    @Test(arguments: [TraceRecorder.Keep.all, .events], [1, 2, 5, 17, 64])
    func aSmallRingKeepsTheNewestOfEach(keep: TraceRecorder.Keep, capacity: Int) {
        let full = mixedRun(TraceRecorder.Options(keep: keep))
        let small = mixedRun(TraceRecorder.Options(keep: keep, ringCapacity: capacity))
        #expect(full.dropped == DroppedCounts())
        if keep == .all { #expect(full.steps.count > 64) }
        #expect(full.events.count > 64)
        #expect(stepKeys(small.steps) == stepKeys(full.steps.suffix(capacity)))
        #expect(eventKeys(small.events) == eventKeys(full.events.suffix(capacity)))
        #expect(small.dropped.steps == full.steps.count - small.steps.count)
        #expect(small.dropped.events == full.events.count - small.events.count)
    }

    /// A stand-in for what the core records, for driving a `RecordRing` directly.
    private struct Generator {
        var state: UInt64
        var seq: UInt64 = 1

        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }

        /// A record of a random shape: a hop with or without its event, an observed element,
        /// a `create` sink's `on` and `forwardOn`, a hop and the observer's `on`, a step alone, an
        /// event alone; a few with their value kept aside as text, a few that take two slots (a
        /// two-word value, a thread numbered past 65,534).
        mutating func record(keepSteps: Bool) -> (TraceRecord, String?) {
            var shape: TraceRecord.Shape = [
                .forwarded, .received, .observed, .step, .receivedForwarded, .forwardedObserved,
            ][Int(next() % 6)]
            var parts: TraceRecord.Parts = []
            if keepSteps, next() % 5 != 0 { parts.formUnion([.steps, .keptSteps]) }
            if shape != .step, next() % 3 != 0 { parts.formUnion([.event, .keptEvent]) }
            if shape == .receivedForwarded, parts.contains(.event), next() % 2 == 0 { parts.insert(.secondEvent) }
            if parts.isEmpty {
                shape = .received
                parts = [.event, .keptEvent]
            }
            let text: String? = next() % 7 == 0 ? "text of \(seq)" : nil
            if text != nil { parts.insert(.text) }
            var record = TraceRecord(
                seq: seq, time: 0, words: (seq, 0, 0), type: text == nil ? Int.self : nil,
                from: 1, to: 2, thread: 0, call: .on, kind: .next, shape: shape, parts: parts
            )
            switch next() % 8 {
            case 0:
                record.words.1 = seq &* 3
                record.type = text == nil ? (Int, Int).self : nil
            case 1: record.thread = 70_000
            default: break
            }
            // Room for the most clock values a record takes (4), whatever parts the tests then add
            // or take away: no two records' steps or events share a `seq`.
            seq += 4
            return (record, text)
        }
    }

    /// `records` in slots as a thread's buffer stores them (no filler: a batch of whole records).
    private static func slots(of records: [TraceRecord]) -> [RecordSlot] {
        var slots = [RecordSlot](repeating: .filler, count: 2 * records.count)
        var count = 0
        slots.withUnsafeMutableBufferPointer { buffer in
            for record in records {
                count += RecordSlot.initialize(
                    buffer.baseAddress! + count, to: record, type: TraceTypes.number(of: record.type))
            }
        }
        return Array(slots.prefix(count))
    }

    /// Whether two lists of records are the same, field by field (the value's type by identity).
    static func sameRecords(_ a: [TraceRecord], _ b: [TraceRecord]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { Self.same($0, $1) }
    }

    static func same(_ a: TraceRecord, _ b: TraceRecord, ignoringKept: Bool = false) -> Bool {
        let kept: TraceRecord.Parts = ignoringKept ? [.keptSteps, .keptEvent] : []
        return a.seq == b.seq && a.time == b.time && a.words == b.words && a.from == b.from && a.to == b.to
            && a.thread == b.thread && a.call == b.call && a.kind == b.kind && a.shape == b.shape
            && a.parts.subtracting(kept) == b.parts.subtracting(kept)
            && a.type.map(ObjectIdentifier.init) == b.type.map(ObjectIdentifier.init)
    }

    /// The `seq`s of the steps and events `records` hold, the newest `steps` and `events`.
    private func newest(_ records: [TraceRecord], steps: Int, events: Int) -> (steps: [UInt64], events: [UInt64]) {
        var stepSeqs: [UInt64] = [], eventSeqs: [UInt64] = []
        for record in records {
            record.forEachStep { seq, _, _, _ in stepSeqs.append(seq) }
            record.forEachEvent { seq, _ in eventSeqs.append(seq) }
        }
        return (Array(stepSeqs.sorted().suffix(steps)), Array(eventSeqs.sorted().suffix(events)))
    }

    /// Against a model that keeps everything: after every append the ring holds the newest
    /// steps and events (and their texts), within its bound, whatever the mix of records —
    /// including long runs of records without events, which make it split records.
    @Test(arguments: [(4, 4), (4, 0), (0, 4), (1, 1), (16, 16), (30, 10)])
    func theRingMatchesAModelThatKeepsEverything(steps: Int, events: Int) {
        let ring = RecordRing(steps: steps, events: events)
        var generator = Generator(state: UInt64(steps * 31 + events))
        var all: [TraceRecord] = []
        var written: [UInt64: TraceRecord] = [:]
        var texts: [UInt64: String] = [:]
        for round in 0..<2_000 {
            // Stretches of records without events, then of records without steps.
            var (record, text) = generator.record(keepSteps: steps > 0)
            if (round / 100).isMultiple(of: 3), record.shape != .step, steps > 0 {
                record.parts.subtract([.event, .keptEvent, .secondEvent])
                if !record.parts.contains(.steps) { record.parts.formUnion([.steps, .keptSteps]) }
            }
            if events == 0 { record.parts.subtract([.event, .keptEvent, .secondEvent]) }
            if record.keptSteps + record.keptEvents == 0 { continue }
            ring.append(record, text: text)
            all.append(record)
            written[record.seq] = record
            if let text { texts[record.seq] = text }

            var held: [TraceRecord] = []
            ring.appendRecords(to: &held)
            // One slot or two, each record reads back as written (a part of it, if split).
            #expect(held.allSatisfy { Self.same($0, written[$0.seq]!, ignoringKept: true) })
            let expected = newest(all, steps: steps, events: events)
            let got = newest(held, steps: steps, events: events)
            #expect(got.steps == expected.steps)
            #expect(got.events == expected.events)
            #expect(ring.count <= ring.limit)
            #expect(held.count <= ring.limit + steps + events)
            // Every kept record with a text still has it; texts never outnumber the records.
            let keptSeqs = Set(expected.steps + expected.events)
            for record in held where record.parts.contains(.text) {
                var holdsKept = false
                record.forEachStep { seq, _, _, _ in if keptSeqs.contains(seq) { holdsKept = true } }
                record.forEachEvent { seq, _ in if keptSeqs.contains(seq) { holdsKept = true } }
                if holdsKept { #expect(ring.texts[record.seq] == texts[record.seq]) }
            }
            #expect(ring.texts.count <= held.count)
            if got != expected { break }
        }
        // The stretches without events made it split records (the path under test).
        if steps > 0, events > 0 { #expect(ring.splits > 0) }
        #expect(ring.totalSteps == all.reduce(0) { $0 + $1.keptSteps })
        #expect(ring.totalEvents == all.reduce(0) { $0 + $1.keptEvents })
    }

    /// The batch a thread's buffer hands over keeps what appending one by one keeps.
    @Test func aBatchKeepsWhatAppendingOneByOneKeeps() {
        let one = RecordRing(steps: 50, events: 50), batch = RecordRing(steps: 50, events: 50)
        var generator = Generator(state: 7)
        var pending: [TraceRecord] = []
        var written: [UInt64: TraceRecord] = [:]
        for _ in 0..<5_000 {
            var (record, _) = generator.record(keepSteps: true)
            record.parts.remove(.text)
            if record.type == nil { record.type = Int.self }
            one.append(record)
            written[record.seq] = record
            pending.append(record)
            if pending.count == 200 {
                Self.slots(of: pending).withUnsafeBufferPointer { batch.append(contentsOf: $0) }
                pending.removeAll()
            }
        }
        Self.slots(of: pending).withUnsafeBufferPointer { batch.append(contentsOf: $0) }
        var a: [TraceRecord] = [], b: [TraceRecord] = []
        one.appendRecords(to: &a)
        batch.appendRecords(to: &b)
        #expect(newest(a, steps: 50, events: 50) == newest(b, steps: 50, events: 50))
        #expect(one.totalSteps == batch.totalSteps && one.totalEvents == batch.totalEvents)
        // Every record read back is the one appended (a part of it, when the ring split it).
        #expect(b.allSatisfy { Self.same($0, written[$0.seq]!, ignoringKept: true) })
    }

    /// A thread's full buffer joins the ring as a chunk, with no copy (`adopt`), among records
    /// appended one at a time and partial buffers copied: the ring keeps what appending every
    /// record one by one keeps, over many chunks let go and lent again, and near its limit.
    @Test(arguments: [(600, 600), (2_000, 300), (100, 100)])
    func adoptedChunksKeepWhatAppendingOneByOneKeeps(steps: Int, events: Int) {
        let one = RecordRing(steps: steps, events: events), adopted = RecordRing(steps: steps, events: events)
        var generator = Generator(state: UInt64(steps + events))
        var chunk = adopted.lendChunk()
        var filled = 0
        for round in 0..<20_000 {
            var (record, _) = generator.record(keepSteps: true)
            record.parts.remove(.text)
            if record.type == nil { record.type = Int.self }
            record.words.0 = record.seq
            one.append(record)
            if round % 997 == 0 {
                // A record into the ring itself: the thread's buffer goes first (copied).
                chunk = adopted.adopt(chunk, count: filled)
                filled = 0
                adopted.append(record)
                continue
            }
            adopted.write(record, into: &chunk, filled: &filled)
        }
        chunk = adopted.adopt(chunk, count: filled)
        adopted.takeBack(chunk)
        var a: [TraceRecord] = [], b: [TraceRecord] = []
        one.appendRecords(to: &a)
        adopted.appendRecords(to: &b)
        #expect(newest(a, steps: steps, events: events) == newest(b, steps: steps, events: events))
        #expect(one.totalSteps == adopted.totalSteps && one.totalEvents == adopted.totalEvents)
        #expect(adopted.count <= adopted.limit)
        // The records are the ones written, each once (their values are their `seq`s).
        #expect(b.allSatisfy { $0.words.0 == $0.seq })
        #expect(Set(b.map(\.seq)).count == b.count)
    }

    /// `trim` lets the rest of the oldest chunk go at once when the newer chunks hold enough
    /// without it, else record by record. Either way the ring holds exactly the shortest run of
    /// newest records holding the newest steps and events, and the texts of those records only:
    /// full chunks adopted as they are, records with a text appended one at a time among them
    /// (as the recorder keeps them), over many chunks let go.
    @Test(arguments: [(600, 600), (700, 200), (130, 130), (1, 1)])
    func trimmingWholeChunksKeepsTheShortestNewestRun(steps: Int, events: Int) {
        let ring = RecordRing(steps: steps, events: events)
        var generator = Generator(state: UInt64(steps * 3 + events))
        var all: [TraceRecord] = []
        var chunk = ring.lendChunk()
        var filled = 0
        var slots: [UInt64: Int] = [:]
        for round in 0..<12_000 {
            var (record, text) = generator.record(keepSteps: true)
            // Every record holds a step and an event: the ring never reaches its limit.
            record.parts.formUnion([.steps, .keptSteps, .event, .keptEvent])
            if let text, round % 3 == 0 {
                // Into the ring itself, after the thread's buffer (copied), as `keep` does.
                chunk = ring.adopt(chunk, count: filled)
                filled = 0
                ring.append(record, text: text)
            } else {
                record.parts.remove(.text)
                ring.write(record, into: &chunk, filled: &filled)
            }
            slots[record.seq] = RecordSlot.count(record, type: TraceTypes.number(of: record.type))
            all.append(record)
        }
        chunk = ring.adopt(chunk, count: filled)
        ring.takeBack(chunk)
        // The model: the newest records, back to the first that makes both counts.
        var keep = 0, heldSteps = 0, heldEvents = 0
        for record in all.reversed() where heldSteps < steps || heldEvents < events {
            heldSteps += record.keptSteps
            heldEvents += record.keptEvents
            keep += 1
        }
        var held: [TraceRecord] = []
        ring.appendRecords(to: &held)
        #expect(ring.splits == 0)
        #expect(held.map(\.seq) == all.suffix(keep).map(\.seq))
        #expect(Self.sameRecords(held, Array(all.suffix(keep))))
        // The slots of those records, and a filler at most where a chunk ended before a record
        // of two slots.
        let keptSlots = all.suffix(keep).reduce(0) { $0 + slots[$1.seq]! }
        #expect(ring.count >= keptSlots && ring.count <= keptSlots + keptSlots / (RecordRing.chunkCapacity - 1) + 1)
        let textSeqs = Set(held.filter { $0.parts.contains(.text) }.map(\.seq))
        #expect(Set(ring.texts.keys) == textSeqs)
        if keep > 100 { #expect(!textSeqs.isEmpty) }
        #expect(ring.totalSteps == all.reduce(0) { $0 + $1.keptSteps })
        #expect(ring.totalEvents == all.reduce(0) { $0 + $1.keptEvents })
    }

    // MARK: Anomalies

    /// Deliveries from two threads that take turns under a lock are not concurrent: the check
    /// (a load and a store, no compare-and-exchange) must not report them.
    @Test func deliveriesTakingTurnsUnderALockAreNotConcurrent() {
        let lock = NSLock()
        let trace = checkingNoLeaks {
            Trace.record {
                let observable = Observable<Int>.create { observer in
                    let group = DispatchGroup()
                    for thread in 0..<2 {
                        group.enter()
                        Thread.detachNewThread {
                            for i in 0..<500 {
                                lock.lock()
                                observer.onNext(thread * 1_000 + i)
                                lock.unlock()
                            }
                            group.leave()
                        }
                    }
                    group.wait()
                    return Disposables.create()
                }
                let d = observable.map { $0 + 1 }.subscribe(onNext: { _ in })
                d.dispose()
            }
        }
        #expect(trace.nodes.allSatisfy { $0.anomalies.isEmpty })
        #expect(trace.events.filter { $0.kind == .next }.count == 3 * 1_000)
        #expect(Set(trace.events.compactMap(\.thread)).count == 2)
    }
}

extension RecordRing {
    /// Writes `record` into `chunk`, lent by this ring, as a thread's buffer does: a filler ends
    /// a chunk with one slot left before a record of two, and a full chunk is handed over.
    func write(_ record: TraceRecord, into chunk: inout UnsafeMutablePointer<RecordSlot>, filled: inout Int) {
        let type = TraceTypes.number(of: record.type)
        if filled + RecordSlot.count(record, type: type) > RecordRing.chunkCapacity {
            (chunk + filled).initialize(to: .filler)
            chunk = adopt(chunk, count: filled + 1)
            filled = 0
        }
        filled += RecordSlot.initialize(chunk + filled, to: record, type: type)
        if filled == RecordRing.chunkCapacity {
            chunk = adopt(chunk, count: filled)
            filled = 0
        }
    }
}
