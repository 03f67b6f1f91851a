import Foundation
import RxTrace
import Synchronization
import Testing

@testable import RxCore

/// When each node was born, first disposed of, deinitialized and terminated (what a timeline
/// draws as a subscription's span), and when events happened: recorded on the clock of events'
/// times, in a recording in code, in a streamed file, and read back from lines that carry them
/// or not. Events' times are the CPU's counter made nanoseconds where the kernel's clock runs on
/// it (`EventClock`), else `CLOCK_MONOTONIC`: both must agree with `clock_gettime`.
@Suite(.serialized) struct NodeTimesTests {
    /// A run with a subject, a finished sequence and a disposal from outside.
    static func run() {
        let subject = PublishSubject<Int>()
        let d = subject.map { $0 * 2 }.filter { $0 > 2 }.subscribe(onNext: { _ in })
        for value in 0..<50 { subject.onNext(value) }
        subject.onCompleted()
        d.dispose()
        let e = Observable.of(1, 2, 3).map { $0 + 1 }.subscribe(onNext: { _ in })
        e.dispose()
    }

    @Test func aRecordingInCodeTimesEveryChange() {
        let trace = checkingNoLeaks { Trace.record { Self.run() } }
        #expect(trace.nodes.count > 10)
        for node in trace.nodes {
            #expect(node.createdAt != nil, "\(node.type) \(node.id)")
            #expect((node.disposed == nil) == (node.disposedAt == nil), "\(node.type) \(node.id)")
            #expect((node.deinitialized == nil) == (node.deinitializedAt == nil), "\(node.type) \(node.id)")
            #expect((node.terminated == nil) == (node.terminatedAt == nil), "\(node.type) \(node.id)")
        }
        #expect(trace.nodes.contains { $0.disposedAt != nil && $0.terminatedAt != nil && $0.deinitializedAt != nil })
        #expect(Self.outOfOrder(trace) == [])
    }

    /// What times must be on one thread: births, disposals and deinits in `seq` order; a node
    /// terminated at the time of its stop event (the events of one delivery share one clock
    /// reading: see docs/trace-format.md); every event before its node was deinitialized.
    static func outOfOrder(_ trace: TraceDocument) -> [String] {
        var problems: [String] = []
        var changes: [(seq: UInt64, time: Double, what: String)] = []
        let byID = Dictionary(uniqueKeysWithValues: trace.nodes.map { ($0.id, $0) })
        for node in trace.nodes {
            let name = "\(node.type) \(node.id)"
            if let time = node.createdAt { changes.append((node.created, time, "\(name) born")) }
            if let seq = node.disposed, let time = node.disposedAt { changes.append((seq, time, "\(name) disposed")) }
            if let seq = node.deinitialized, let time = node.deinitializedAt {
                changes.append((seq, time, "\(name) deinitialized"))
            }
        }
        changes.sort { $0.seq < $1.seq }
        for (earlier, later) in zip(changes, changes.dropFirst()) where later.time < earlier.time {
            problems.append("\(later.what) at \(later.time) before \(earlier.what) at \(earlier.time)")
        }
        for event in trace.events where !event.virtualTime {
            guard let node = byID[event.node] else { continue }
            if event.kind != .next, node.terminated == event.seq, node.terminatedAt != event.time {
                problems.append(
                    "\(node.type) \(node.id) terminated at \(node.terminatedAt ?? -1), its event at \(event.time)")
            }
            if let end = node.deinitializedAt, event.time > end {
                problems.append("event \(event.seq) at \(event.time) after \(node.type) \(node.id) went at \(end)")
            }
        }
        return problems
    }

    // MARK: Events' times against the monotonic clock

    /// Seconds on `CLOCK_MONOTONIC` since `origin` (nanoseconds).
    static func seconds(since origin: UInt64) -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let now = UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        return Double(Int64(bitPattern: now &- origin)) / 1e9
    }

    /// Deliveries of distinct values on a second thread, then on this one, each between two
    /// readings of `CLOCK_MONOTONIC` (seconds since `origin`), by value; pauses between rounds
    /// so that a streamed recording's writer takes several batches. One thread after the other:
    /// `outOfOrder` compares births and deinits of all nodes in `seq` order, which threads
    /// running at once interleave between taking a `seq` and reading the clock.
    static func timedDeliveries(origin: UInt64, pause: TimeInterval) -> [String: ClosedRange<Double>] {
        let windows = Mutex<[String: ClosedRange<Double>]>([:])
        @Sendable func deliver(_ values: Range<Int>) {
            let subject = PublishSubject<Int>()
            let d = subject.map { $0 }.filter { _ in true }.subscribe(onNext: { _ in })
            for value in values {
                let before = seconds(since: origin)
                subject.onNext(value)
                let after = seconds(since: origin)
                windows.withLock { $0[String(value)] = before...after }
                if value % 100 == 99 { Thread.sleep(forTimeInterval: pause) }
            }
            subject.onCompleted()
            d.dispose()
        }
        let done = DispatchSemaphore(value: 0)
        Thread {
            deliver(10_000..<10_300)
            done.signal()
        }.start()
        done.wait()
        deliver(0..<300)
        return windows.withLock { $0 }
    }

    /// What events' real times must be: each within its delivery's window (`tolerance` either
    /// side; nearly all within a microsecond of it: a busy machine widens the windows, not the
    /// error of a time), between the start and `end`, never before its node was born (by more
    /// than a microsecond), and, on each thread, in `seq` order.
    static func eventTimeProblems(
        _ trace: TraceDocument, windows: [String: ClosedRange<Double>], end: Double, tolerance: Double = 0.002
    ) -> [String] {
        var problems: [String] = []
        let born = Dictionary(uniqueKeysWithValues: trace.nodes.map { ($0.id, $0.createdAt) })
        var lastOnThread: [String: (seq: UInt64, time: Double)] = [:]
        var inWindows = 0, closeToWindows = 0
        for event in trace.events.sorted(by: { $0.seq < $1.seq }) where !event.virtualTime {
            if event.time < 0 || event.time > end + 1e-6 {
                problems.append("event \(event.seq) at \(event.time), outside 0…\(end)")
            }
            if let born = born[event.node] ?? nil, event.time < born - 1e-6 {
                problems.append("event \(event.seq) at \(event.time), before its node's birth at \(born)")
            }
            if let value = event.value, let window = windows[value] {
                inWindows += 1
                if event.time >= window.lowerBound - 1e-6 && event.time <= window.upperBound + 1e-6 {
                    closeToWindows += 1
                }
                if event.time < window.lowerBound - tolerance || event.time > window.upperBound + tolerance {
                    problems.append("event \(event.seq) of \(value) at \(event.time), delivered in \(window)")
                }
            }
            let thread = event.thread ?? ""
            if let last = lastOnThread[thread], event.time < last.time {
                problems.append("event \(event.seq) at \(event.time) before event \(last.seq) at \(last.time)")
            }
            lastOnThread[thread] = (event.seq, event.time)
        }
        // Every delivery's events were checked (the three nodes of each of 600 deliveries).
        if inWindows < 3 * windows.count { problems.append("\(inWindows) events of \(windows.count) deliveries") }
        if Double(closeToWindows) < 0.95 * Double(inWindows) {
            problems.append("\(inWindows - closeToWindows) of \(inWindows) events more than 1 µs off their delivery")
        }
        return problems
    }

    /// The line through two (counter, nanoseconds) pairs: exact at both ends, in between in
    /// proportion (rounded down), a reading before the start at 0, times in the readings'
    /// order; a clock that reads nanoseconds gives a reading less the start.
    @Test func aLineThroughTwoPairsGivesNanosecondsSinceTheStart() {
        checkingNoLeaks {
            typealias Pair = EventClock.Pair
            // Three ticks a nanosecond, the start 1,000 ns after the clock's origin.
            let start = Pair(count: 9_000, nanoseconds: 1_000)
            let line = EventClock.Line(origin: 1_000, from: start, to: Pair(count: 12_000, nanoseconds: 2_000))
            #expect(
                [8_000, 9_000, 9_001, 9_002, 9_003, 10_500, 12_000, 12_003].map { line.nanoseconds($0) } == [
                    0, 0, 0, 0, 1, 500, 1_000, 1_001,
                ])
            // A segment after it (a streamed recording's next batch), and readings before its
            // start carried back along it: 300 ns less than the start at `from` 3,300 ticks back.
            let next = EventClock.Line(
                origin: 1_000, from: Pair(count: 12_000, nanoseconds: 2_000),
                to: Pair(count: 13_200, nanoseconds: 2_600))
            #expect([12_000, 12_600, 13_200, 11_400, 0].map { next.nanoseconds($0) } == [1_000, 1_300, 1_600, 700, 0])
            // An hour of a 2.9 GHz counter: within a nanosecond of the exact proportion.
            let hour = UInt64(3_600_000_000_000), ticks = UInt64(10_440_000_000_000)
            let long = EventClock.Line(
                origin: 5, from: Pair(count: 77, nanoseconds: 5), to: Pair(count: 77 + ticks, nanoseconds: 5 + hour))
            for fraction in [0.1, 0.25, 0.5, 0.999] {
                let reading = 77 + UInt64(Double(ticks) * fraction)
                let exact = Double(reading - 77) * Double(hour) / Double(ticks)
                #expect(abs(Double(long.nanoseconds(reading)) - exact) <= 1, "at \(fraction)")
            }
            let readings = (0..<1_000).map { _ in UInt64.random(in: 0...(77 + 2 * ticks)) }.sorted()
            let times = readings.map { long.nanoseconds($0) }
            #expect(times == times.sorted())
            // Pairs that do not rise give one time, never a falling one.
            let flat = EventClock.Line(
                origin: 0, from: Pair(count: 10, nanoseconds: 50), to: Pair(count: 10, nanoseconds: 90))
            #expect([10, 20, 5].map { flat.nanoseconds($0) } == [50, 50, 50])
            let monotonic = EventClock.Line(origin: 1_000)
            #expect([0, 1_000, 1_234].map { monotonic.nanoseconds($0) } == [0, 0, 234])
        }
    }

    /// A recording in code, on the CPU's counter where it is sound and on `CLOCK_MONOTONIC`.
    @Test(arguments: [false, true]) func eventTimesOfARecordingInCodeAgreeWithTheClock(forcingMonotonic: Bool) {
        EventClock.forcesMonotonic.store(forcingMonotonic, ordering: .relaxed)
        defer { EventClock.forcesMonotonic.store(false, ordering: .relaxed) }
        checkingNoLeaks {
            let recorder = TraceRecorder()
            #expect(recorder.eventClock.usesCounter == (EventClock.counterIsSound && !forcingMonotonic))
            Tracing.tracer = recorder
            let windows = Self.timedDeliveries(origin: recorder.startedAt, pause: 0.001)
            Tracing.tracer = nil
            let trace = recorder.snapshot()
            let end = Self.seconds(since: recorder.startedAt)
            #expect(Self.eventTimeProblems(trace, windows: windows, end: end) == [])
            #expect(Self.outOfOrder(trace) == [])
        }
    }

    /// A streamed `RXTRACE` recording (taken in several batches), read back from its file.
    @Test(arguments: [false, true]) func eventTimesOfAStreamedRecordingAgreeWithTheClock(
        forcingMonotonic: Bool
    )
        throws
    {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("times-\(UUID().uuidString).rxt")
        defer { try? FileManager.default.removeItem(at: url) }
        EventClock.forcesMonotonic.store(forcingMonotonic, ordering: .relaxed)
        defer { EventClock.forcesMonotonic.store(false, ordering: .relaxed) }
        try checkingNoLeaks {
            let recorder = try #require(TraceAutostart.start(environment: ["RXTRACE": url.path]))
            #expect(recorder.eventClock.usesCounter == (EventClock.counterIsSound && !forcingMonotonic))
            let windows = Self.timedDeliveries(origin: recorder.startedAt, pause: 0.15)
            #expect(TraceAutostart.finish() == url.path)
            let end = Self.seconds(since: recorder.startedAt)
            let trace = try TraceDocument.read(from: url)
            #expect(Self.eventTimeProblems(trace, windows: windows, end: end) == [])
            #expect(Self.outOfOrder(trace) == [])
        }
    }

    /// A streamed recording's thread notes a node's birth and disposal as readings of the events'
    /// clock (no `clock_gettime` where the counter is sound), which the writer's batch makes
    /// nanoseconds along the same lines as the events' times.
    @Test(arguments: [false, true]) func aStreamedNodesTimesAreClockReadingsUntilTheBatch(forcingMonotonic: Bool) {
        EventClock.forcesMonotonic.store(forcingMonotonic, ordering: .relaxed)
        defer { EventClock.forcesMonotonic.store(false, ordering: .relaxed) }
        checkingNoLeaks {
            let recorder = TraceRecorder(options: TraceRecorder.Options(), streamed: true)
            let before = recorder.eventClock.now()
            let id = recorder.node(kind: .sink, type: "MapSink", callSite: nil)
            recorder.disposed(id)
            let after = recorder.eventClock.now()
            let lane = recorder.state.withLock { state in state.buffers[0].lane.withLock { $0 } }
            let born: UInt64? = lane.births.first?.node.record.createdAt
            var disposed: UInt64?
            if case .disposed(_, _, at: let time?) = lane.ops.first { disposed = time }
            #expect(born.map { (before...after).contains($0) } == true)
            #expect(disposed.map { $0 >= born ?? .max && $0 <= after } == true)
            let batch = recorder.takeBatch()
            let node = batch.nodes.first?.record
            #expect(node?.createdAt == born.map(batch.lines.nanoseconds))
            #expect(node?.disposedAt == disposed.map(batch.lines.nanoseconds))
            var written: UInt64?
            if case .mark(let mark, _, _, let time?) = batch.ops.last, mark == .disposed { written = time }
            #expect(written != nil && written == node?.disposedAt)
        }
    }

    /// In the file, a node's birth and disposal lie within `clock_gettime`'s readings around them.
    @Test func aStreamedNodesTimesAgreeWithTheClock() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("times-\(UUID().uuidString).rxt")
        defer { try? FileManager.default.removeItem(at: url) }
        var windows: [(born: ClosedRange<Double>, disposed: ClosedRange<Double>)] = []
        try checkingNoLeaks {
            let recorder = try #require(TraceAutostart.start(environment: ["RXTRACE": url.path]))
            for _ in 0..<3 {
                let subject = PublishSubject<Int>()
                let beforeBirth = Self.seconds(since: recorder.startedAt)
                let d = subject.map { $0 }.subscribe(onNext: { _ in })
                let afterBirth = Self.seconds(since: recorder.startedAt)
                Thread.sleep(forTimeInterval: 0.02)
                let beforeDisposal = Self.seconds(since: recorder.startedAt)
                d.dispose()
                let afterDisposal = Self.seconds(since: recorder.startedAt)
                windows.append((beforeBirth...afterBirth, beforeDisposal...afterDisposal))
                // The writer takes a batch or two meanwhile.
                Thread.sleep(forTimeInterval: 0.3)
            }
            #expect(TraceAutostart.finish() == url.path)
        }
        let sinks = try TraceDocument.read(from: url).nodes.filter { $0.type == "MapSink" }
        #expect(sinks.count == windows.count)
        // A time is a reading between the two, converted to within a few nanoseconds.
        let tolerance = 1e-6
        for (sink, window) in zip(sinks, windows) {
            let born = try #require(sink.createdAt), disposed = try #require(sink.disposedAt)
            #expect(born >= window.born.lowerBound - tolerance && born <= window.born.upperBound + tolerance)
            #expect(
                disposed >= window.disposed.lowerBound - tolerance && disposed <= window.disposed.upperBound + tolerance
            )
        }
    }

    @Test func linesWithAndWithoutTimesRead() throws {
        let text = """
            {"format":"rxtrace/2","meta":{}}
            ["n",1,"sink","MapSink",null,null,1,null,0.000125]
            ["n",2,"sink","FilterSink",null,null,2,null]
            ["t",1,5,0.0005]
            ["d",1,7,0.00075]
            ["d",1,6,0.0006]
            ["x",1,8]
            ["d",2,9,"a field of a later version"]
            ["end",{"reason":"exit","seq":9}]

            """
        let document = try TraceDocument.decode(Data(text.utf8))
        let first = try #require(document.nodes.first)
        #expect(first.createdAt == 0.000125 && first.terminatedAt == 0.0005)
        // The earliest disposal is kept, with its own time.
        #expect(first.disposed == 6 && first.disposedAt == 0.0006)
        #expect(first.deinitialized == 8 && first.deinitializedAt == nil)
        #expect(document.nodes[1].createdAt == nil)
        #expect(document.nodes[1].disposed == 9 && document.nodes[1].disposedAt == nil)
        // Written back and read again, the times stay.
        let again = try TraceDocument.decode(document.jsonLinesData())
        #expect(again.nodes == document.nodes)
    }
}
