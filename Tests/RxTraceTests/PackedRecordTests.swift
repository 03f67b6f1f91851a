import Foundation
import RxTesting
import RxTrace
import Testing

@testable import RxCore

/// The recorder stores a record in one 40-byte slot when its value is one word, its value's type
/// has a number and its thread a number below 65,535, else in two (`RecordSlot`). Either way a
/// trace reads the same: a thread numbered past 65,534 stores every record in two slots, so the
/// same program recorded on it gives the document of the two-slot form to compare against.
@Suite(.serialized) struct PackedRecordTests {
    struct Triple {
        var a: Int
        var b: Int
        var c: Int
    }

    struct TestError: Error {}

    /// Values of every form: one word (`Int`, `Double`), less (`Bool`), two and three words (a
    /// pair, `Triple`), short texts (inline) and long ones (kept aside), elements whose types
    /// change at every operator (the thread's type cache missing), an error, steps with
    /// details, and events in virtual time.
    private func program() {
        let ints = Observable.from([1, 2, 3]).map { $0 * 10 }.subscribe(onNext: { _ in })
        let pairs = Observable.from([(1, 2), (3, 4)]).map { ($0.1, $0.0) }.subscribe(onNext: { _ in })
        let triples = Observable.just(Triple(a: 1, b: 2, c: 3)).subscribe(onNext: { _ in })
        let flags = Observable.from([true, false]).subscribe(onNext: { _ in })
        let mixed = Observable.from(0..<20).map { Double($0) / 2 }.map { "\($0)" }.map { $0.count > 3 }
            .map { $0 ? (1, 2) : (3, 4) }.subscribe(onNext: { _ in })
        let subject = PublishSubject<String>()
        let strings = subject.map { $0 + "!" }.subscribe(onNext: { _ in })
        subject.onNext("short")
        subject.onNext(String(repeating: "a text too long for a record ", count: 3))
        subject.onCompleted()
        let failing = Observable<Int>.error(TestError()).subscribe(onNext: { _ in }, onError: { _ in })
        for d in [ints, pairs, triples, flags, mixed, strings, failing] { d.dispose() }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.map { ($0, $0 * 2) }.map { "\($0.1)" } }
        #expect(res.events == [.next(210, "4"), .next(220, "6"), .completed(300)])
    }

    /// `program` recorded on this thread numbered `thread` (nil: its own number), and the slots
    /// and records the recorder held when it was done (ring and this thread's buffer).
    private func recordProgram(
        onThread thread: UInt32?, ringCapacity: Int = TraceRecorder.Options.defaultRingCapacity
    )
        -> (document: TraceDocument, slots: Int, records: Int)
    {
        checkingNoLeaks {
            let local = TraceLocal.current
            let saved = TraceThreads.current(local)
            if let thread { local.threadIndex = thread }
            defer { local.threadIndex = saved }
            let recorder = TraceRecorder(options: TraceRecorder.Options(ringCapacity: ringCapacity))
            Tracing.tracer = recorder
            program()
            Tracing.tracer = nil
            let (slots, records) = recorder.state.withLock { state in
                var records: [TraceRecord] = []
                state.records.appendRecords(to: &records)
                var slots = state.records.count
                for buffer in state.buffers {
                    slots += buffer.undrained.count
                    RecordSlot.expand(buffer.undrained, into: &records)
                }
                return (slots, records.count)
            }
            return (recorder.snapshot(), slots, records)
        }
    }

    /// What two runs of `program` share: everything but wall-clock times and thread names.
    private func keys(_ document: TraceDocument) -> [String] {
        nodeLines(document)
            + document.steps.map { "\($0.seq) \($0.call.rawValue) \($0.from)→\($0.to) \($0.detail ?? "-")" }
            + document.events.map { event in
                "\(event.seq) \(event.node) \(event.kind.rawValue) \(event.value ?? "-")"
                    + (event.virtualTime ? " at \(event.time)" : "")
            }
    }

    @Test func oneSlotAndTwoSlotRecordsReadBackTheSame() {
        let packed = recordProgram(onThread: nil)
        let wide = recordProgram(onThread: 70_000)
        #expect(keys(packed.document) == keys(wide.document))
        #expect(packed.document.dropped == wide.document.dropped)
        #expect(packed.document.dropped == DroppedCounts())
        // The same records: two slots each on the thread numbered past 65,534, mostly one here.
        #expect(packed.records == wide.records)
        #expect(wide.slots == 2 * wide.records)
        #expect(packed.slots < wide.slots * 3 / 4)
        // Each run's events carry its thread.
        let here = TraceThreads.name(of: TraceThreads.current(TraceLocal.current))
        #expect(packed.document.events.allSatisfy { $0.thread == here })
        #expect(wide.document.events.allSatisfy { $0.thread == "thread-70000" })
        // The values are the program's, whatever their form.
        let values = Set(packed.document.events.compactMap(\.value))
        for value in [
            "10", "30", "(2, 1)", "(4, 3)", "Triple(a: 1, b: 2, c: 3)", "true", "false", "(3, 4)", "(1, 2)",
            "short!", String(repeating: "a text too long for a record ", count: 3) + "!", "4", "6", "(2, 4)",
        ] {
            #expect(values.contains(value), "\(value)")
        }
        #expect(packed.document.events.contains { $0.kind == .error })
        #expect(packed.document.events.contains { $0.virtualTime && $0.time == 210 })
        #expect(packed.document.steps.contains { $0.detail == "SinkDisposer" })
    }

    /// A small ring keeps the newest steps and events whether its records take one slot or two.
    @Test(arguments: [3, 40, 200])
    func aSmallRingKeepsTheNewestInEitherForm(capacity: Int) {
        for thread in [nil, 70_000 as UInt32?] {
            let full = recordProgram(onThread: thread).document
            let small = recordProgram(onThread: thread, ringCapacity: capacity).document
            #expect(small.steps.map(\.seq) == full.steps.suffix(capacity).map(\.seq))
            #expect(small.events.map(\.seq) == full.events.suffix(capacity).map(\.seq))
            #expect(small.events.map(\.value) == full.events.suffix(capacity).map(\.value))
            #expect(small.dropped.steps == full.steps.count - small.steps.count)
            #expect(small.dropped.events == full.events.count - small.events.count)
        }
    }

    /// Threads recording at once, one of them numbered past 65,534 (its records in two slots),
    /// values of three types interleaved on each: every thread's values arrive whole and in order.
    @Test func threadsOfBothFormsInterleave() {
        let threads = 3, count = 700
        let trace = checkingNoLeaks {
            Trace.record {
                let group = DispatchGroup()
                for index in 0..<threads {
                    group.enter()
                    Thread.detachNewThread {
                        func run() {
                            if index == 0 { TraceLocal.current.threadIndex = 70_001 }
                            let d = Observable<Int>.create { observer in
                                for i in 0..<count { observer.onNext(i) }
                                observer.onCompleted()
                                return Disposables.create()
                            }
                            .map { ($0, index) }.map { "\($0.0)" }
                            .subscribe(onNext: { _ in })
                            d.dispose()
                        }
                        run()
                        group.leave()
                    }
                }
                group.wait()
            }
        }
        #expect(trace.dropped == DroppedCounts())
        let observers = Set(trace.nodes.filter { $0.type == "AnonymousObserver" }.map(\.id))
        #expect(observers.count == threads)
        for observer in observers {
            let values = trace.events.filter { $0.node == observer && $0.kind == .next }.map(\.value)
            #expect(values == (0..<count).map { "\($0)" })
        }
        // The pairs (two slots on every thread), as the second `map`'s sink received them.
        let pairs = trace.events.compactMap(\.value).filter { $0.hasPrefix("(") }
        for index in 0..<threads {
            #expect(pairs.filter { $0.hasSuffix(", \(index))") } == (0..<count).map { "(\($0), \(index))" })
        }
        #expect(Set(trace.events.compactMap(\.thread)).count == threads)
        #expect(trace.events.contains { $0.thread == "thread-70001" })
        let seqs = trace.events.map(\.seq)
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
    }

    /// Past the types a slot can number, a record keeps its type in full, in two slots.
    @Test func typesPastTheNumberedOnesTakeTwoSlots() {
        let types = TraceTypes(limit: 2)
        #expect(types.number(of: nil) == 0)
        #expect(types.number(of: Int.self) == 1)
        #expect(types.number(of: String.self) == 2)
        #expect(types.number(of: Int.self) == 1)
        #expect(types.number(of: Double.self) == RecordSlot.wide)
        #expect(types.types.count == 2)
        let record = TraceRecord(
            seq: 7, time: 9, words: (0x4000_0000_0000_0000, 0, 0), type: Double.self, from: 3, to: 4, thread: 5,
            call: .forwardOn, kind: .next, shape: .forwarded, parts: [.steps, .keptSteps, .event, .keptEvent])
        let slots = UnsafeMutablePointer<RecordSlot>.allocate(capacity: 4)
        defer { slots.deallocate() }
        #expect(RecordSlot.initialize(slots, to: record, type: types.number(of: Double.self)) == 2)
        #expect(RecordSlot.initialize(slots + 2, to: record, type: types.number(of: Int.self)) == 1)
        var read: [TraceRecord] = []
        RecordSlot.expand(UnsafeBufferPointer(start: slots, count: 2), into: &read)
        #expect(read.count == 1 && HopRecordTests.same(read[0], record))
        // The one-slot form reads its type by number.
        #expect(RecordSlot.record(at: slots + 2, types: types.types).type == Int.self)
        #expect(MemoryLayout<RecordSlot>.stride == 40)
        #expect(TraceRecorder.recordSizes.step == 40)
    }

    /// A recorder, its ring and buffers go when the recording is done with.
    @Test func theRecorderGoesWithItsRecords() {
        weak var gone: TraceRecorder?
        checkingNoLeaks {
            let recorder = TraceRecorder(options: TraceRecorder.Options(ringCapacity: 100))
            gone = recorder
            Tracing.tracer = recorder
            let d = Observable.from(0..<1_000).map { ($0, $0) }.subscribe(onNext: { _ in })
            d.dispose()
            Tracing.tracer = nil
            #expect(recorder.snapshot().events.count == 100)
        }
        #expect(gone == nil)
    }
}
