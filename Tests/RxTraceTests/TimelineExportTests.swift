import Foundation
import RxTesting
import RxTrace
import Testing

/// `TimelineExport` (`rxtrace convert --to perfetto`): the Trace Event Format's rules, checked
/// on recorded traces, one of them a pipeline run across threads.
@Suite(.serialized, .noLeaks) struct TimelineExportTests {
    /// A source that emits on a thread of its own, `map`, `observe(on:)` a serial
    /// queue, subscribed through `subscribe(on:)` another: every element crosses from the
    /// source's thread to a queue's.
    static func recordAcrossThreads(count: Int = 5) -> TraceDocument {
        Trace.record {
            let done = DispatchSemaphore(value: 0)
            let subscription = Observable<Int>.create { observer in
                let thread = Thread {
                    for value in 1...count { observer.onNext(value) }
                    observer.onCompleted()
                }
                thread.start()
                return Disposables.create()
            }
            .map { $0 * 10 }
            .observe(on: SerialDispatchQueueScheduler(internalSerialQueueName: "rx.observe"))
            .subscribe(on: SerialDispatchQueueScheduler(internalSerialQueueName: "rx.subscribe"))
            .subscribe(onCompleted: { done.signal() })
            done.wait()
            subscription.dispose()
        }
    }

    @Test func aPipelineAcrossThreadsKeepsTheFormatsRules() throws {
        let document = Self.recordAcrossThreads()
        let timeline = try Timeline(document)
        #expect(timeline.violations.isEmpty, "\(timeline.violations)")

        // Every delivery, once, on its thread's track.
        #expect(timeline.ofPhase("X").count == document.events.count)
        // The source thread's track: where the map ran (not found by its name: on Linux a
        // thread's name may reach the recorder after its first record).
        let mapped = timeline.ofPhase("X").filter {
            ($0["name"] as? String)?.hasPrefix("MapSink TimelineExportTests.swift:") == true
        }
        #expect(mapped.count == 6)
        let source = try #require(mapped.first?["tid"] as? Int)
        #expect(mapped.allSatisfy { $0["tid"] as? Int == source })
        #expect(timeline.threads[source] != nil)
        let observer = try #require(document.nodes.first { $0.type == "AnonymousObserver" })
        let delivered = timeline.ofPhase("X").filter {
            ($0["args"] as? [String: Any])?["node"] as? UInt64 == observer.id
        }
        #expect(
            delivered.map { ($0["args"] as? [String: Any])?["kind"] as? String } == Array(repeating: "next", count: 5)
                + ["completed"])
        #expect(delivered.allSatisfy { $0["tid"] as? Int != source })

        // Each element (and the completion) crossed from the source's thread: an arrow each,
        // from the ObserveOnSink's event there to the one of the sink it forwards to (subscribe(on:)'s,
        // which passes it on to the observer) on the queue.
        let starts = timeline.ofPhase("s")
        #expect(starts.count == 6)
        #expect(
            starts.allSatisfy {
                $0["tid"] as? Int == source && $0["name"] as? String == "ObserveOnSink → SubscribeOnSink"
            })
        #expect(Set(timeline.ofPhase("f").map { $0["tid"] as? Int }) == Set(delivered.map { $0["tid"] as? Int }))
        #expect(timeline.stats.hops == 6)

        // A span per sink and observer, from its birth to its end as recorded, none left open.
        let subscriptions = document.nodes.filter { $0.kind == .sink || $0.kind == .observer }
        #expect(timeline.ofPhase("b").count == subscriptions.count)
        #expect(timeline.stats.openSpans == 0)
        #expect(timeline.stats.estimatedSpans == 0)
        #expect(timeline.metadata["spanTimes"]?.hasPrefix("recorded: ") == true)
        func microseconds(_ seconds: Double?) -> Double? { seconds.map { ($0 * 1e9).rounded() / 1e3 } }
        for node in subscriptions {
            let (begin, end) = try #require(timeline.span(node.id), "\(node.type)")
            #expect(begin == microseconds(node.createdAt), "\(node.type)")
            let ends = [
                (node.disposed, node.disposedAt), (node.terminated, node.terminatedAt),
                (node.deinitialized, node.deinitializedAt),
            ].filter { $0.0 != nil }.min { $0.0! < $1.0! }
            #expect(end == microseconds(ends?.1).map { max($0, begin) }, "\(node.type)")
        }

        // A trace without those times (recorded before they were): spans bounded by the events'
        // times, each still holding its deliveries, and said to be estimated.
        var untimed = document
        for index in untimed.nodes.indices {
            untimed.nodes[index].createdAt = nil
            untimed.nodes[index].disposedAt = nil
            untimed.nodes[index].terminatedAt = nil
            untimed.nodes[index].deinitializedAt = nil
        }
        let bounded = try Timeline(untimed)
        #expect(bounded.violations.isEmpty, "\(bounded.violations)")
        #expect(bounded.stats.estimatedSpans == subscriptions.count)
        #expect(bounded.metadata["spanTimes"]?.hasPrefix("bounds: ") == true)
        for node in subscriptions {
            let (begin, end) = try #require(bounded.span(node.id), "\(node.type)")
            let times = bounded.ofPhase("X").filter { ($0["args"] as? [String: Any])?["node"] as? UInt64 == node.id }
                .compactMap { $0["ts"] as? Double }
            #expect(times.allSatisfy { begin <= $0 && $0 <= end }, "\(node.type) \(begin)…\(end): \(times)")
            if let born = microseconds(node.createdAt) { #expect(begin <= born) }
        }
    }

    @Test func bothFormatsConvertAlike() throws {
        let document = Self.recordAcrossThreads(count: 3)
        let directory = FileManager.default.temporaryDirectory
        let v1 = directory.appendingPathComponent("timeline-\(UUID().uuidString).json")
        let v2 = directory.appendingPathComponent("timeline-\(UUID().uuidString).rxt")
        defer {
            try? FileManager.default.removeItem(at: v1)
            try? FileManager.default.removeItem(at: v2)
        }
        try document.write(to: v1, format: .v1)
        try document.write(to: v2, format: .v2)
        let one = try Timeline(v1)
        let two = try Timeline(v2)
        #expect(one.violations.isEmpty && two.violations.isEmpty, "\(one.violations) \(two.violations)")
        #expect(NSArray(array: one.events).isEqual(to: two.events))
        #expect(one.stats == two.stats)
    }

    /// Records reach a streamed file in the order threads hand them over (a stop event before the
    /// elements still in its thread's buffer): the timeline is the same as from a file in order.
    @Test func eventsOutOfOrderAreWrittenInOrder() throws {
        let document = Self.recordAcrossThreads(count: 4)
        let lines = String(decoding: document.jsonLinesData(), as: UTF8.self).split(separator: "\n")
        let events = lines.filter { $0.hasPrefix("[\"v\",") }
        // All of them at the end, newest first (after the lines defining their strings).
        let end = lines.firstIndex { $0.hasPrefix("[\"end\"") } ?? lines.count
        let shuffled =
            lines[..<end].filter { !$0.hasPrefix("[\"v\",") } + events.reversed() + lines[end...]
        #expect(Array(shuffled) != lines)
        let inOrder = try Timeline(document)
        let outOfOrder = try Timeline(Data((shuffled.joined(separator: "\n") + "\n").utf8))
        #expect(outOfOrder.violations.isEmpty, "\(outOfOrder.violations)")
        #expect(NSArray(array: outOfOrder.events).isEqual(to: inOrder.events))
        #expect(outOfOrder.stats.hops == 5)
    }

    /// A run killed while a subscription was open: its span ends at the trace's last event,
    /// marked open, and the metadata says where the trace was cut.
    @Test func aTraceCutShortClosesWhatWasOpen() throws {
        let document = Trace.record {
            let subject = PublishSubject<Int>()
            let subscription = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
            subject.onNext(1)
            subject.onNext(2)
            subscription.dispose()
        }
        let lines = String(decoding: document.jsonLinesData(), as: UTF8.self).split(separator: "\n")
        // Without the dispose and what follows it, and without the end record.
        let disposedAt = try #require(document.nodes.compactMap(\.disposed).min())
        let kept = lines.filter { line in
            guard let fields = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any],
                let tag = fields.first as? String
            else { return true }
            switch tag {
            case "end": return false
            case "c": return (fields[1] as? UInt64 ?? 0) < disposedAt
            case "d", "x", "t": return (fields[2] as? UInt64 ?? 0) < disposedAt
            default: return true
            }
        }
        let timeline = try Timeline(Data((kept.joined(separator: "\n") + "\n").utf8))
        #expect(timeline.violations.isEmpty, "\(timeline.violations)")
        let metadata = timeline.metadata
        #expect(metadata["cut"] != nil)
        let last = try #require(timeline.ofPhase("X").compactMap { $0["ts"] as? Double }.max())
        let ends = timeline.ofPhase("e")
        #expect(!ends.isEmpty)
        #expect(timeline.stats.openSpans == ends.count)
        for end in ends {
            let args = try #require(end["args"] as? [String: Any])
            #expect(args["open"] as? Bool == true)
            #expect(args["why"] as? String == "open at the cut")
            #expect(end["ts"] as? Double == last)
        }
    }

    /// The output comes in chunks of about a megabyte while the trace is read, never whole.
    @Test func theOutputStreams() throws {
        let document = Trace.record {
            _ = Observable.range(start: 0, count: 20_000).map { $0 * 2 }.subscribe(onNext: { _ in })
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString).rxt")
        defer { try? FileManager.default.removeItem(at: url) }
        try document.write(to: url, format: .v2)
        var chunks: [Int] = []
        var passes: Set<Int> = []
        let stats = try TimelineExport.write(from: url, progress: { pass, _, _ in passes.insert(pass) }) {
            chunks.append($0.count)
        }
        #expect(stats.deliveries == document.events.count)
        #expect(chunks.count > 5)
        #expect(chunks.max()! < (1 << 20) + 4_096)
        #expect(passes == [1, 2])
    }

    @Test func badInputIsOneError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString).rxt")
        defer { try? FileManager.default.removeItem(at: url) }
        var written = 0
        #expect(throws: TraceFileError.missing(path: url.path)) {
            _ = try TimelineExport.write(from: url) { written += $0.count }
        }
        try Data("{\"format\":\"rxtrace/2\",\"meta\":{}}\n[\"v\",1,\n[\"end\",{}]\n".utf8).write(to: url)
        #expect(throws: TraceFileError.self) {
            _ = try TimelineExport.write(from: url) { written += $0.count }
        }
        #expect(written == 0, "nothing is written before the whole trace was read")
    }
}

/// A converted timeline, parsed, with the format's rules checked.
struct Timeline {
    let events: [[String: Any]]
    let metadata: [String: String]
    let stats: TimelineExport.Stats
    /// Track number to thread name.
    let threads: [Int: String]
    let violations: [String]

    init(_ document: TraceDocument) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString).rxt")
        defer { try? FileManager.default.removeItem(at: url) }
        try document.write(to: url, format: .v2)
        try self.init(url)
    }

    init(_ data: Data) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString).rxt")
        defer { try? FileManager.default.removeItem(at: url) }
        try data.write(to: url)
        try self.init(url)
    }

    init(_ url: URL) throws {
        var bytes: [UInt8] = []
        stats = try TimelineExport.write(from: url) { bytes += $0 }
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        events = object?["traceEvents"] as? [[String: Any]] ?? []
        metadata = (object?["metadata"] as? [String: Any])?["rxtrace"] as? [String: String] ?? [:]
        var threads: [Int: String] = [:]
        for event in events where event["ph"] as? String == "M" && event["name"] as? String == "thread_name" {
            threads[event["tid"] as? Int ?? -1] = (event["args"] as? [String: Any])?["name"] as? String
        }
        self.threads = threads
        violations = Self.check(events)
    }

    func ofPhase(_ phase: String) -> [[String: Any]] { events.filter { $0["ph"] as? String == phase } }

    /// The times of the async span of `id`.
    func span(_ id: UInt64) -> (Double, Double)? {
        let begin = ofPhase("b").first { $0["id"] as? UInt64 == id }?["ts"] as? Double
        let end = ofPhase("e").first { $0["id"] as? UInt64 == id }?["ts"] as? Double
        guard let begin, let end else { return nil }
        return (begin, end)
    }

    /// The Trace Event Format's rules: every event has a phase, pid and time; on each thread
    /// track times never go back and each `E` closes a `B`; async `b`/`e` pair by category and
    /// id, the end not before the beginning; every flow start has one finish of its id, later,
    /// and both sit inside a slice of their thread; every thread with events is named.
    static func check(_ events: [[String: Any]]) -> [String] {
        var problems: [String] = []
        var lastTime: [Int: Double] = [:]
        var stacks: [Int: [String]] = [:]
        var open: [String: Double] = [:]
        var flows: [Int: (start: Int, finish: Int, startTime: Double, finishTime: Double)] = [:]
        var slices: [Int: [(Double, Double)]] = [:]
        var named = Set<Int>()
        var used = Set<Int>()
        for (index, event) in events.enumerated() {
            guard let phase = event["ph"] as? String, event["pid"] is Int else {
                problems.append("event \(index) has no phase or pid")
                continue
            }
            let tid = event["tid"] as? Int ?? 0
            if phase == "M" {
                if event["name"] as? String == "thread_name" { named.insert(tid) }
                continue
            }
            guard let ts = event["ts"] as? Double else {
                problems.append("event \(index) has no time")
                continue
            }
            let name = event["name"] as? String ?? ""
            switch phase {
            case "X", "B", "E", "i", "I":
                used.insert(tid)
                if let last = lastTime[tid], ts < last {
                    problems.append("event \(index): time goes back on track \(tid)")
                }
                lastTime[tid] = ts
                if phase == "X" { slices[tid, default: []].append((ts, ts + (event["dur"] as? Double ?? 0))) }
                if phase == "B" { stacks[tid, default: []].append(name) }
                if phase == "E" {
                    if stacks[tid, default: []].popLast() == nil { problems.append("event \(index): E without B") }
                }
            case "b", "e":
                let key = "\(event["cat"] as? String ?? "")/\(event["id"].map { "\($0)" } ?? "?")"
                if phase == "b" {
                    if open[key] != nil { problems.append("async \(key) begins twice") }
                    open[key] = ts
                } else if let begin = open.removeValue(forKey: key) {
                    if ts < begin { problems.append("async \(key) ends before it begins") }
                } else {
                    problems.append("async \(key) ends without a beginning")
                }
            case "s", "f":
                guard let id = event["id"] as? Int else {
                    problems.append("flow event \(index) without an id")
                    continue
                }
                var flow = flows[id] ?? (0, 0, 0, 0)
                if phase == "s" {
                    flow.start += 1
                    flow.startTime = ts
                } else {
                    flow.finish += 1
                    flow.finishTime = ts
                    if event["bp"] as? String != "e" { problems.append("flow \(id) finish not bound to its slice") }
                }
                flows[id] = flow
                let inside = slices[tid, default: []].contains { $0.0 <= ts && ts <= $0.1 }
                if !inside { problems.append("flow \(id) \(phase) is in no slice of thread \(tid)") }
            default:
                problems.append("event \(index): unexpected phase \(phase)")
            }
        }
        for (tid, stack) in stacks where !stack.isEmpty { problems.append("track \(tid): B without E") }
        for key in open.keys { problems.append("async \(key) never ends") }
        for (id, flow) in flows {
            if flow.start != 1 || flow.finish != 1 {
                problems.append("flow \(id): \(flow.start) starts, \(flow.finish) finishes")
            }
            if flow.finishTime < flow.startTime { problems.append("flow \(id) finishes before it starts") }
        }
        for tid in used.subtracting(named) { problems.append("track \(tid) has no thread_name") }
        return problems
    }
}
