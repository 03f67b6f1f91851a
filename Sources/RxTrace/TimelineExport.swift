import Foundation

/// Writes a trace as a timeline in the JSON Trace Event Format, which Perfetto's UI
/// (ui.perfetto.dev) and `chrome://tracing` open: `rxtrace convert TRACE --to perfetto`.
///
/// ```swift
/// var json: [UInt8] = []
/// let stats = try TimelineExport.write(from: URL(fileURLWithPath: "trace.rxt")) { json += $0 }
/// print(stats.deliveries, stats.hops)
/// ```
///
/// What it holds:
/// - a track per thread (`thread_name` metadata), and on it each delivery (`next`, `error`,
///   `completed`) as a complete event (`X`) at its time, named by the receiving node's type and
///   call site, with the value, kind, node and `seq` in `args`;
/// - each subscription's life (every sink and observer, from its birth to its disposal,
///   termination or deinit) as an async span (`b`/`e`, category `subscription`, id the node's
///   id), so on a track of its own; a span still open at the trace's end is closed there, with
///   `"open": true` in the end's `args`;
/// - a flow arrow (`s`/`f`, category `hop`) for each element that crossed from one thread to
///   another: the event a sink received on thread A, paired in order with the one the node it
///   forwards to received on thread B (`observe(on:)`, `delay`…).
///
/// It streams: the trace is read twice, record by record (an `rxtrace/2` file is never held
/// whole; an `rxtrace/1` file is one JSON document and is), and the output goes to `output` in
/// chunks as it is made. Memory is the subscription graph (as for `summary`), a table of the
/// clock of at most 65,536 entries, and the elements waiting in a hop between two threads.
public enum TimelineExport {
    /// What a conversion wrote.
    public struct Stats: Sendable, Equatable {
        public var deliveries = 0
        public var spans = 0
        /// Spans still open at the end of the trace (closed there and marked).
        public var openSpans = 0
        /// Flow arrows: elements that crossed from one thread to another.
        public var hops = 0
        public var threads = 0
        /// Spans whose start or end the trace did not record, bounded by events' times instead.
        public var estimatedSpans = 0
    }

    /// Converts the trace at `url`; `output` receives the JSON in chunks. The trace is checked
    /// whole (first pass) before anything is written. `progress` gets the pass (1 or 2), the
    /// bytes read and the file's size.
    public static func write(
        from url: URL, progress: ((Int, Int, Int) -> Void)? = nil, _ output: @escaping ([UInt8]) throws -> Void
    ) throws -> Stats {
        let source = try Source(url, progress: progress.map { report in { report(1, $0, $1) } })
        var writer = Writer(source, output)
        try writer.begin()
        // Records come in the order threads handed them over, not in `seq` order (a thread's stop
        // event is written before the elements still in its buffer): a window of the newest
        // events puts them back in order before they are written and paired.
        var window = SeqWindow()
        try source.forEachEvent(progress: progress.map { report in { report(2, $0, $1) } }) { event in
            if let next = window.push(event) { try writer.deliver(next) }
        }
        while let next = window.pop() { try writer.deliver(next) }
        try writer.finish()
        return writer.stats
    }

    // MARK: - The trace, read twice

    /// The graph and clock of the first pass, and the way back to the events for the second.
    struct Source {
        let url: URL
        let graph: TraceDocument
        let status: TraceReadStatus
        let clock: SeqClock
        /// An `rxtrace/1` document, already in memory.
        let whole: TraceDocument?

        init(_ url: URL, progress: ((Int, Int) -> Void)?) throws(TraceFileError) {
            self.url = url
            let path = url.path
            guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
            // Real times, and virtual ones (used only when there is no real time at all).
            var clock = SeqClock()
            var virtualClock = SeqClock()
            if try TraceDocument.startsFormat2(url) {
                var builder = TraceDocumentBuilder(keep: .graph)
                status = try TraceRecordReader.read(from: url, progress: progress) { (record) throws(TraceFileError) in
                    if case .event(let event) = record {
                        if event.virtualTime {
                            virtualClock.add(event.seq, event.time)
                        } else {
                            clock.add(event.seq, event.time)
                        }
                    }
                    try builder.add(record, path: path)
                }
                graph = try builder.document(status, path: path)
                whole = nil
            } else {
                let (document, status) = try TraceDocument.readWithStatus(from: url)
                for event in document.events {
                    if event.virtualTime {
                        virtualClock.add(event.seq, event.time)
                    } else {
                        clock.add(event.seq, event.time)
                    }
                }
                self.status = status
                graph = document
                whole = document
            }
            if clock.real || !virtualClock.real {
                for node in graph.nodes {
                    let times = [node.createdAt, node.disposedAt, node.terminatedAt, node.deinitializedAt]
                    clock.end = max(clock.end, times.compactMap { $0 }.max() ?? 0)
                }
            }
            if !clock.real && virtualClock.real {
                clock = virtualClock
                clock.virtual = true
            }
            clock.finish()
            self.clock = clock
        }

        func forEachEvent(progress: ((Int, Int) -> Void)?, _ visit: (TraceEvent) throws -> Void) throws {
            if let whole {
                for event in whole.events { try visit(event) }
                return
            }
            var failure: Error?
            _ = try TraceRecordReader.read(from: url, progress: progress) { (record) throws(TraceFileError) in
                guard failure == nil, case .event(let event) = record else { return }
                do { try visit(event) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    /// The newest events, given back oldest `seq` first once more than `capacity` wait: a binary
    /// heap.
    struct SeqWindow {
        static let capacity = 1 << 18
        var heap: [TraceEvent] = []

        /// Adds `event`; returns the oldest waiting one when the window is full.
        mutating func push(_ event: TraceEvent) -> TraceEvent? {
            heap.append(event)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].seq < heap[parent].seq else { break }
                heap.swapAt(child, parent)
                child = parent
            }
            return heap.count > Self.capacity ? pop() : nil
        }

        mutating func pop() -> TraceEvent? {
            guard !heap.isEmpty else { return nil }
            heap.swapAt(0, heap.count - 1)
            let oldest = heap.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].seq < heap[smallest].seq { smallest = left }
                if right < heap.count, heap[right].seq < heap[smallest].seq { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
            return oldest
        }
    }

    /// `seq` to time, from the events' times: per bucket of `seq`s the earliest and latest event
    /// time, buckets merged pairwise whenever there would be more than `limit` of them.
    struct SeqClock {
        static let limit = 1 << 16
        var shift: UInt64 = 0
        var earliest: [Double] = []
        var latest: [Double] = []
        /// Per bucket: the latest time at or before it, the earliest at or after it.
        var before: [Double] = []
        var after: [Double] = []
        var end: Double = 0
        /// Whether it holds any time.
        var real = false
        /// Whether its times are virtual: every event's was (the nodes' recorded times are then
        /// on another clock).
        var virtual = false
        var onlyVirtual: Bool { virtual }

        mutating func add(_ seq: UInt64, _ time: Double) {
            while seq >> shift >= UInt64(Self.limit) { coarsen() }
            let bucket = Int(seq >> shift)
            if bucket >= earliest.count {
                earliest += repeatElement(.infinity, count: bucket + 1 - earliest.count)
                latest += repeatElement(-.infinity, count: bucket + 1 - latest.count)
            }
            real = true
            earliest[bucket] = min(earliest[bucket], time)
            latest[bucket] = max(latest[bucket], time)
            end = max(end, time)
        }

        private mutating func coarsen() {
            shift += 1
            let count = (earliest.count + 1) / 2
            earliest = (0..<count).map {
                min(earliest[2 * $0], 2 * $0 + 1 < earliest.count ? earliest[2 * $0 + 1] : .infinity)
            }
            latest = (0..<count).map {
                max(latest[2 * $0], 2 * $0 + 1 < latest.count ? latest[2 * $0 + 1] : -.infinity)
            }
        }

        mutating func finish() {
            before = latest
            for index in before.indices.dropFirst() { before[index] = max(before[index], before[index - 1]) }
            after = earliest
            for index in after.indices.reversed().dropFirst() { after[index] = min(after[index], after[index + 1]) }
        }

        /// The latest event time strictly before `seq`'s bucket (0, the recording's start, if none).
        func timeBefore(_ seq: UInt64) -> Double {
            let bucket = Int(min(seq >> shift, UInt64(Int.max)))
            guard bucket > 0, !before.isEmpty else { return 0 }
            let value = before[min(bucket - 1, before.count - 1)]
            return value.isFinite ? value : 0
        }

        /// The earliest event time strictly after `seq`'s bucket (the trace's end if none).
        func timeAfter(_ seq: UInt64) -> Double {
            let bucket = Int(min(seq >> shift, UInt64(Int.max - 1))) + 1
            guard bucket < after.count else { return end }
            return after[bucket].isFinite ? after[bucket] : end
        }
    }

    // MARK: - Writing

    struct Writer {
        let source: Source
        let output: ([UInt8]) throws -> Void
        var buffer: [UInt8] = []
        var first = true
        var stats = Stats()
        /// Thread names to track numbers (1…), in the order first seen.
        var threads: [String: Int] = [:]
        /// Node id to its position in the graph.
        let positions: [UInt64: Int]
        /// Node id to the nodes it forwards to / that forward to it.
        let downstream: [UInt64: [UInt64]]
        let upstream: [UInt64: [UInt64]]
        /// A sink's operator call site: that of the producer whose `run` made it.
        let operatorSites: [UInt64: String]
        var hops: [Edge: Hop] = [:]
        var nextFlow = 1
        /// Hops whose two sides did not pair up (more than `Hop.limit` waiting).
        var unpaired = 0
        /// Events that came later than the window could wait (written out of `seq` order).
        var late = 0
        var lastSeq: UInt64 = 0
        /// Per track, the time of its latest event.
        var lastTime: [Int: Double] = [:]
        /// Per node, the times of its first and last deliveries (an estimated span holds them).
        var delivered: [UInt64: (first: Double, last: Double)] = [:]

        struct Edge: Hashable {
            let from: UInt64
            let to: UInt64
        }

        /// The elements of one `forward` edge that wait for their other side: the k-th event
        /// of the sender pairs with the k-th event of the receiver.
        struct Hop {
            static let limit = 4_096
            var senderAhead = true
            var waiting: [Point] = []
            var head = 0
            var broken = false
        }

        struct Point {
            let ts: Double
            let thread: Int
        }

        init(_ source: Source, _ output: @escaping ([UInt8]) throws -> Void) {
            self.source = source
            self.output = output
            buffer.reserveCapacity(1 << 20)
            var positions: [UInt64: Int] = [:]
            for (position, node) in source.graph.nodes.enumerated() { positions[node.id] = position }
            self.positions = positions
            var downstream: [UInt64: [UInt64]] = [:]
            var upstream: [UInt64: [UInt64]] = [:]
            var operatorSites: [UInt64: String] = [:]
            for edge in source.graph.edges {
                switch edge.relation {
                case .forward where edge.from != edge.to:
                    downstream[edge.from, default: []].append(edge.to)
                    upstream[edge.to, default: []].append(edge.from)
                case .run:
                    let producer = positions[edge.from].map { source.graph.nodes[$0] }
                    if let site = producer?.callSite { operatorSites[edge.to] = site }
                default: break
                }
            }
            self.downstream = downstream
            self.upstream = upstream
            self.operatorSites = operatorSites
        }

        mutating func begin() throws {
            append("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n")
            let program = source.graph.meta["program"] ?? source.url.lastPathComponent
            event { text in
                text += "\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":"
                Self.string("rxtrace: \(program)", into: &text)
                text += "}"
            }
            try flushIfFull()
        }

        // MARK: Deliveries and hops

        mutating func deliver(_ delivery: TraceEvent) throws {
            if delivery.seq < lastSeq { late += 1 }
            lastSeq = max(lastSeq, delivery.seq)
            let thread = track(delivery.thread)
            // A virtual time is another clock: among real ones the event sits where its `seq` puts
            // it, not before the previous event of its thread (its virtual time is in `args`).
            let ts =
                delivery.virtualTime && !source.clock.virtual
                ? max(source.clock.timeBefore(delivery.seq), lastTime[thread] ?? 0) : delivery.time
            lastTime[thread] = max(lastTime[thread] ?? ts, ts)
            let seen = delivered[delivery.node]
            delivered[delivery.node] = (min(seen?.first ?? ts, ts), max(seen?.last ?? ts, ts))
            let label = name(positions[delivery.node].map { source.graph.nodes[$0] }, delivery.node)
            event { text in
                text += "\"ph\":\"X\",\"cat\":\"delivery\",\"pid\":1,\"tid\":"
                text += String(thread)
                text += ",\"ts\":"
                Self.micro(ts, into: &text)
                text += ",\"dur\":0.001,\"name\":"
                Self.string(label, into: &text)
                text += ",\"args\":{\"kind\":\""
                text += delivery.kind.rawValue
                text += "\""
                if let value = delivery.value {
                    text += ",\"value\":"
                    Self.string(value, into: &text)
                }
                text += ",\"node\":"
                text += String(delivery.node)
                text += ",\"seq\":"
                text += String(delivery.seq)
                if delivery.virtualTime {
                    text += ",\"virtualTime\":"
                    text += delivery.time.description
                }
                text += "}"
            }
            stats.deliveries += 1
            let point = Point(ts: ts, thread: thread)
            for receiver in downstream[delivery.node] ?? [] {
                pair(Edge(from: delivery.node, to: receiver), point, sender: true)
            }
            for sender in upstream[delivery.node] ?? [] {
                pair(Edge(from: sender, to: delivery.node), point, sender: false)
            }
            try flushIfFull()
        }

        /// Pairs `point` with the oldest waiting element of the other side of `edge`, or makes
        /// it wait; a pair on two threads is a flow arrow.
        mutating func pair(_ edge: Edge, _ point: Point, sender: Bool) {
            var hop = hops[edge] ?? Hop(senderAhead: sender)
            guard !hop.broken else { return }
            if hop.head < hop.waiting.count, hop.senderAhead != sender {
                let other = hop.waiting[hop.head]
                hop.head += 1
                if hop.head == hop.waiting.count {
                    hop.waiting.removeAll(keepingCapacity: true)
                    hop.head = 0
                }
                let (from, to) = sender ? (point, other) : (other, point)
                if from.thread != to.thread { flow(from, to, edge) }
            } else {
                if hop.head == hop.waiting.count { hop.senderAhead = sender }
                hop.waiting.append(point)
                if hop.waiting.count - hop.head > Hop.limit {
                    hop.broken = true
                    hop.waiting = []
                    unpaired += 1
                }
            }
            hops[edge] = hop
        }

        /// An arrow from the sender's event to the receiver's (`s`, and `f` bound to the slice
        /// that encloses it: both sit at their delivery's time, inside its 1 ns slice).
        mutating func flow(_ from: Point, _ to: Point, _ edge: Edge) {
            let id = nextFlow
            nextFlow += 1
            stats.hops += 1
            let sender = positions[edge.from].map { source.graph.nodes[$0].type } ?? "#\(edge.from)"
            let receiver = positions[edge.to].map { source.graph.nodes[$0].type } ?? "#\(edge.to)"
            var name = ""
            Self.string("\(sender) → \(receiver)", into: &name)
            for (phase, point) in [("\"s\"", from), ("\"f\",\"bp\":\"e\"", to)] {
                event { text in
                    text += "\"ph\":\(phase),\"cat\":\"hop\",\"name\":\(name),\"id\":\(id),\"pid\":1,"
                    text += "\"tid\":\(point.thread),\"ts\":"
                    Self.micro(point.ts, into: &text)
                }
            }
        }

        /// The track of `thread`, announced (`thread_name`) the first time.
        mutating func track(_ thread: String?) -> Int {
            let name = thread ?? "unknown thread"
            if let known = threads[name] { return known }
            let number = threads.count + 1
            threads[name] = number
            stats.threads += 1
            event { text in
                text += "\"ph\":\"M\",\"pid\":1,\"tid\":\(number),\"name\":\"thread_name\",\"args\":{\"name\":"
                Self.string(name, into: &text)
                text += "}"
            }
            event { text in
                text +=
                    "\"ph\":\"M\",\"pid\":1,\"tid\":\(number),\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":"
                text += "\(number)}"
            }
            return number
        }

        // MARK: Spans and the end

        mutating func finish() throws {
            let cut = source.status.cutShort
            for node in source.graph.nodes where node.kind == .sink || node.kind == .observer {
                let (start, end, open, estimated) = life(of: node)
                let name = name(node, node.id)
                event { text in
                    text += "\"ph\":\"b\",\"cat\":\"subscription\",\"id\":\(node.id),\"pid\":1,\"tid\":0,\"ts\":"
                    Self.micro(start, into: &text)
                    text += ",\"name\":"
                    Self.string(name, into: &text)
                    text += ",\"args\":{\"node\":\(node.id),\"kind\":\"\(node.kind.rawValue)\",\"born\":\(node.created)"
                    if estimated { text += ",\"estimated\":true" }
                    if let thread = node.thread {
                        text += ",\"thread\":"
                        Self.string(thread, into: &text)
                    }
                    text += "}"
                }
                event { text in
                    text += "\"ph\":\"e\",\"cat\":\"subscription\",\"id\":\(node.id),\"pid\":1,\"tid\":0,\"ts\":"
                    Self.micro(end, into: &text)
                    text += ",\"name\":"
                    Self.string(name, into: &text)
                    text += ",\"args\":{"
                    if open {
                        text += "\"open\":true,\"why\":\"" + (cut ? "open at the cut" : "open at the end of the trace")
                        text += "\""
                    } else {
                        var parts: [String] = []
                        if let seq = node.disposed { parts.append("\"disposed\":\(seq)") }
                        if let seq = node.terminated { parts.append("\"terminated\":\(seq)") }
                        if let seq = node.deinitialized { parts.append("\"deinitialized\":\(seq)") }
                        text += parts.joined(separator: ",")
                    }
                    text += "}"
                }
                stats.spans += 1
                if open { stats.openSpans += 1 }
                if estimated { stats.estimatedSpans += 1 }
                try flushIfFull()
            }
            append("\n],\"metadata\":{\"rxtrace\":{")
            var meta: [(String, String)] = [
                ("source", source.url.lastPathComponent), ("format", source.status.format),
                ("spanTimes", spanTimes),
                ("deliveries", String(stats.deliveries)), ("spans", String(stats.spans)),
                ("openSpans", String(stats.openSpans)), ("estimatedSpans", String(stats.estimatedSpans)),
                ("hops", String(stats.hops)),
                ("threads", String(stats.threads)),
            ]
            if let cutAt = source.graph.meta["cut"] { meta.append(("cut", cutAt)) }
            if unpaired > 0 { meta.append(("unpairedEdges", String(unpaired))) }
            if late > 0 { meta.append(("lateEvents", String(late))) }
            var text = ""
            for (index, (key, value)) in meta.enumerated() {
                if index > 0 { text += "," }
                Self.string(key, into: &text)
                text += ":"
                Self.string(value, into: &text)
            }
            append(text)
            append("}}}\n")
            try output(buffer)
            buffer.removeAll()
        }

        /// A subscription's life: from its birth to its first disposal, termination or deinit, at
        /// the times the trace recorded; where it recorded none (traces of before those times,
        /// or only virtual time, whose events are on another clock), the widest bounds the events'
        /// times give: from the last event before its birth to the first after its end. A life
        /// with no end ends at the trace's last time, `open`.
        func life(of node: TraceNode) -> (start: Double, end: Double, open: Bool, estimated: Bool) {
            let clock = source.clock
            let recorded = !clock.onlyVirtual
            let born = recorded ? node.createdAt : nil
            let start = born ?? clock.timeBefore(node.created)
            let ends: [(seq: UInt64, time: Double?)] = [
                node.disposed.map { ($0, node.disposedAt) }, node.terminated.map { ($0, node.terminatedAt) },
                node.deinitialized.map { ($0, node.deinitializedAt) },
            ].compactMap { $0 }
            // Threads read the clock and take `seq`s apart: bounds also hold the node's own deliveries.
            let own = delivered[node.id]
            let from = born ?? min(start, own?.first ?? start)
            guard let first = ends.min(by: { $0.seq < $1.seq }) else {
                return (from, max(from, clock.end), true, born == nil)
            }
            let ended = recorded ? first.time : nil
            let end = ended ?? max(clock.timeAfter(first.seq), own?.last ?? 0)
            return (from, max(from, end), false, born == nil || ended == nil)
        }

        var spanTimes: String {
            let recorded =
                "recorded: a span runs from the node's birth to its first disposal, termination or deinit "
                + "(an open span ends at the trace's last time)"
            let bounds =
                "bounds: where the trace records no time for a birth or an end (traces of before those times, "
                + "or events only in virtual time), a span runs from the last event time recorded before the birth "
                + "to the first "
                + "one after the end, which holds the real life (spans marked \"estimated\")"
            if stats.estimatedSpans == 0 { return recorded }
            if stats.estimatedSpans == stats.spans { return bounds }
            return recorded + "; " + bounds
        }

        // MARK: Text

        /// One event object, separated from the previous one.
        mutating func event(_ body: (inout String) -> Void) {
            var text = first ? "{" : ",\n{"
            first = false
            body(&text)
            text += "}"
            append(text)
        }

        mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

        mutating func flushIfFull() throws {
            guard buffer.count >= 1 << 20 else { return }
            try output(buffer)
            buffer.removeAll(keepingCapacity: true)
        }

        /// `MapSink main.swift:7`: the type, and the call site of the operator (for a sink) or of
        /// the node.
        func name(_ node: TraceNode?, _ id: UInt64) -> String {
            guard let node else { return "node #\(id)" }
            return (operatorSites[id] ?? node.callSite).map { "\(node.type) \($0)" } ?? node.type
        }

        /// Seconds as microseconds with three decimals (nanoseconds, the recorder's unit).
        static func micro(_ seconds: Double, into text: inout String) {
            let nanoseconds = (seconds * 1e9).rounded()
            guard nanoseconds.isFinite, abs(nanoseconds) < 9e18 else {
                text += "0"
                return
            }
            let value = Int64(nanoseconds)
            let sign = value < 0 ? "-" : ""
            let magnitude = value.magnitude
            let fraction = String(magnitude % 1000)
            text += sign + String(magnitude / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }

        /// `value` as a JSON string.
        static func string(_ value: String, into text: inout String) {
            text += "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                case "\t": text += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
    }
}
