import Foundation
import Synchronization

/// Records what the core reports through the tracer hook: the subscription graph (nodes and
/// edges, all kept), the steps of the subscribe flow and the events (each in a ring of
/// `Options.ringCapacity`, oldest dropped first and counted), and live resource counts.
///
/// It lives in RxCore so that `RXTRACE=trace.json swift run MyApp` records any program linking
/// the core with no code change (see `TraceAutostart`); RxTrace's `Trace.record { … }` installs
/// one for a scope. Thread-safe: every report takes one lock, and one clock (`seq`) orders node
/// births, disposals, deinits, steps and events.
///
/// Elements of plain types (no references, at most three words) are kept as copies of their
/// bytes and described by `snapshot()`; others are described when recorded (docs/trace-format.md).
///
/// ```swift
/// let recorder = TraceRecorder()
/// Tracing.tracer = recorder
/// // … Rx code …
/// Tracing.tracer = nil
/// let trace = recorder.snapshot()
/// ```
public final class TraceRecorder: RxTracer {
    /// What a recording keeps.
    public enum Keep: String, Sendable, CaseIterable {
        /// Nodes, edges, steps, events and resource samples.
        case all
        /// Nodes, edges, events and resource samples; no steps.
        case events
        /// Nodes, edges and resource samples only (termination is still noted on nodes).
        case graph
    }

    /// How much a recording keeps.
    public struct Options: Sendable, Equatable {
        /// Default capacity of the step ring and of the event ring (each).
        public static let defaultRingCapacity = 1_000_000
        /// Default capacity of the resource-sample ring.
        public static let defaultResourceCapacity = 100_000
        /// Default length, in characters, past which a value's description is truncated.
        public static let defaultValueLimit = 200

        public var keep: Keep
        /// Most steps kept, and most events kept (two rings of this size).
        public var ringCapacity: Int
        /// Most resource samples kept.
        public var resourceCapacity: Int
        /// Value descriptions longer than this are cut to this many characters, the last one `…`.
        public var valueLimit: Int
        /// Fewest clock ticks between two resource samples (1: sample at every birth, disposal
        /// and deinit).
        public var resourceInterval: UInt64

        public init(
            keep: Keep = .all,
            ringCapacity: Int = Options.defaultRingCapacity,
            resourceCapacity: Int = Options.defaultResourceCapacity,
            valueLimit: Int = Options.defaultValueLimit,
            resourceInterval: UInt64 = 1
        ) {
            self.keep = keep
            self.ringCapacity = max(0, ringCapacity)
            self.resourceCapacity = max(0, resourceCapacity)
            self.valueLimit = max(1, valueLimit)
            self.resourceInterval = max(1, resourceInterval)
        }
    }

    private struct NodeRecord {
        var kind: TraceNodeKind
        var type: String
        var callSite: CallSite?
        var created: UInt64
        var disposed: UInt64?
        var deinitialized: UInt64?
        var terminated: UInt64?
        var thread: UInt32
        var anomalies: [TraceAnomalyRecord] = []
    }

    // Step and event records are plain data (no references), so the rings store and overwrite
    // them like integers. A text too long to sit in a record lives in `State.texts`, under the
    // record's `seq`, until the ring lets the record go.

    private enum Detail {
        case none
        /// The step's detail, in `State.texts`.
        case text
        case event(TraceEventKind, Value?)
    }

    /// An event's value as recorded: a copy of a plain value (no references, at most three
    /// words: `Int`, `Double`, small structs of those) described only when the trace is read —
    /// describing costs more than the rest of a record — or a description made when recorded
    /// (short ones inline, as `InlineText` bits).
    private enum Value {
        /// The description, in `State.texts`.
        case text
        /// Described when read.
        case element(Bits)
    }

    /// The bytes of a plain value and its type: copied like an integer, no box, no retain.
    private struct Bits {
        var words: (UInt64, UInt64, UInt64)
        var type: Any.Type
    }

    /// Marks `Bits` holding up to 23 bytes of UTF-8, the count in the last byte.
    private enum InlineText {}

    /// A value (or detail) on its way into a record: the record's part, and the text for
    /// `State.texts` when it does not fit.
    private struct Captured {
        var value: Value?
        var text: String?
    }

    private struct StepRecord {
        var seq: UInt64
        var from: UInt64
        var to: UInt64
        var call: TraceCall
        var detail: Detail
        var thread: UInt32

        var hasText: Bool {
            switch detail {
            case .text, .event(_, .text?): return true
            case .none, .event: return false
            }
        }
    }

    private struct EventRecord {
        var seq: UInt64
        var node: UInt64
        var kind: TraceEventKind
        var value: Value?
        var time: Double
        var virtual: Bool
        var thread: UInt32

        var hasText: Bool {
            if case .text? = value { return true }
            return false
        }
    }

    private struct ResourceRecord {
        var seq: UInt64
        /// Live counts in `ResourceCounter.all()` order (the registry only grows).
        var counts: [Int]
    }

    private struct State {
        var seq: UInt64 = 0
        var nodes: [NodeRecord] = []
        var edges: [TraceEdge] = []
        var edgeSet: Set<TraceEdge> = []
        var steps: Ring<StepRecord>
        var events: Ring<EventRecord>
        var resources: Ring<ResourceRecord>
        var lastSample: UInt64 = 0
        var anomaliesDropped = 0
        /// Texts of the kept records whose value or detail did not fit in them, by `seq`.
        var texts: [UInt64: String] = [:]

        mutating func addStep(_ record: StepRecord, _ text: String?) {
            if let text { texts[record.seq] = text }
            if let gone = steps.append(record), gone.hasText { texts[gone.seq] = nil }
        }

        mutating func addEvent(_ record: EventRecord, _ text: String?) {
            if let text { texts[record.seq] = text }
            if let gone = events.append(record), gone.hasText { texts[gone.seq] = nil }
        }
    }

    /// Most anomalies kept per node; more are counted in the document's meta.
    public static let anomaliesPerNode = 100

    public let options: Options
    /// Ids this recorder hands out are `idBase + 1`, `idBase + 2`, … (see `Tracing.displayID`).
    public let idBase: UInt64
    private let state: Mutex<State>
    private let startedAt: UInt64
    private let startDate: Date
    private let keepSteps: Bool
    private let keepEvents: Bool

    public init(options: Options = Options()) {
        self.options = options
        self.idBase = Tracing.newIDBase()
        self.keepSteps = options.keep == .all
        self.keepEvents = options.keep != .graph
        self.state = Mutex(State(
            steps: Ring(capacity: options.keep == .all ? options.ringCapacity : 0),
            events: Ring(capacity: options.keep != .graph ? options.ringCapacity : 0),
            resources: Ring(capacity: options.resourceCapacity)
        ))
        self.startedAt = Self.monotonicNanoseconds()
        self.startDate = Date()
        state.withLock { state in Self.sample(&state, force: true, interval: 1) }
    }

    // MARK: The hook

    public func node(kind: TraceNodeKind, type: String, callSite: CallSite?) -> UInt64 {
        let thread = TraceThreads.current
        let interval = options.resourceInterval
        return state.withLock { state in
            state.seq += 1
            state.nodes.append(NodeRecord(kind: kind, type: type, callSite: callSite, created: state.seq, thread: thread))
            Self.sample(&state, force: false, interval: interval)
            return idBase + UInt64(state.nodes.count)
        }
    }

    public func edge(from: UInt64, to: UInt64, relation: TraceRelation) {
        let from = local(from), to = local(to)
        guard from != 0, to != 0 else { return }
        let edge = TraceEdge(from: from, to: to, relation: relation)
        state.withLock { state in
            if state.edgeSet.insert(edge).inserted { state.edges.append(edge) }
        }
    }

    public func step(_ call: TraceCall, from: UInt64, to: UInt64, detail: String?) {
        guard keepSteps else { return }
        let thread = TraceThreads.current
        let text = detail.map(truncate)
        let from = local(from), to = local(to)
        state.withLock { state in
            state.seq += 1
            state.addStep(StepRecord(seq: state.seq, from: from, to: to, call: call, detail: text == nil ? .none : .text, thread: thread), text)
        }
    }

    public func event(node: UInt64, kind: TraceEventKind, value: String?) {
        if !keepEvents && kind == .next { return }
        let node = local(node)
        guard node != 0 else { return }
        let captured = capture(text: value)
        let record = keepEvents ? makeEvent(node: node, kind: kind, value: captured.value) : nil
        state.withLock { state in
            state.seq += 1
            if var record {
                record.seq = state.seq
                state.addEvent(record, captured.text)
            }
            if kind != .next { Self.terminate(&state, node) }
        }
    }

    public var recordsValues: Bool { keepEvents || keepSteps }

    public func forwarded(from sink: UInt64, to observer: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool) {
        if !keepSteps && !keepEvents && kind == .next { return }
        record(forwardedFrom: sink, to: observer, kind: kind, value: capture(text: value), recordEvent: recordEvent)
    }

    public func forwardedNext<Element>(from sink: UInt64, to observer: UInt64, element: Element, recordEvent: Bool) {
        if !keepSteps && !keepEvents { return }
        record(forwardedFrom: sink, to: observer, kind: .next, value: capture(element: element), recordEvent: recordEvent)
    }

    private func record(forwardedFrom sink: UInt64, to observer: UInt64, kind: TraceEventKind, value captured: Captured, recordEvent: Bool) {
        let sink = local(sink), observer = local(observer)
        let thread = TraceThreads.current
        let record = (keepEvents && recordEvent && observer != 0) ? makeEvent(node: observer, kind: kind, value: captured.value, thread: thread) : nil
        let terminates = recordEvent && observer != 0 && kind != .next
        state.withLock { state in
            if keepSteps {
                state.seq += 1
                state.addStep(StepRecord(seq: state.seq, from: sink, to: observer, call: .forwardOn, detail: .event(kind, captured.value), thread: thread), captured.text)
            }
            if var record {
                state.seq += 1
                record.seq = state.seq
                state.addEvent(record, captured.text)
            }
            if terminates { Self.terminate(&state, observer) }
        }
    }

    public func received(_ call: TraceCall, node: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool) {
        if !keepSteps && !keepEvents && kind == .next { return }
        record(received: call, node: node, kind: kind, value: capture(text: value), recordEvent: recordEvent)
    }

    public func receivedNext<Element>(_ call: TraceCall, node: UInt64, element: Element, recordEvent: Bool) {
        if !keepSteps && !keepEvents { return }
        record(received: call, node: node, kind: .next, value: capture(element: element), recordEvent: recordEvent)
    }

    private func record(received call: TraceCall, node: UInt64, kind: TraceEventKind, value captured: Captured, recordEvent: Bool) {
        let node = local(node)
        guard node != 0 else { return }
        let thread = TraceThreads.current
        let record = (keepEvents && recordEvent) ? makeEvent(node: node, kind: kind, value: captured.value, thread: thread) : nil
        state.withLock { state in
            if keepSteps {
                state.seq += 1
                state.addStep(StepRecord(seq: state.seq, from: 0, to: node, call: call, detail: .event(kind, captured.value), thread: thread), captured.text)
            }
            if var record {
                state.seq += 1
                record.seq = state.seq
                state.addEvent(record, captured.text)
            }
            if recordEvent, kind != .next { Self.terminate(&state, node) }
        }
    }

    public func observed(node: UInt64, kind: TraceEventKind, value: String?) {
        if !keepSteps && !keepEvents && kind == .next { return }
        record(observed: node, kind: kind, value: capture(text: value))
    }

    public func observedNext<Element>(node: UInt64, element: Element) {
        if !keepSteps && !keepEvents { return }
        record(observed: node, kind: .next, value: capture(element: element))
    }

    private func record(observed node: UInt64, kind: TraceEventKind, value captured: Captured) {
        let node = local(node)
        guard node != 0 else { return }
        let thread = TraceThreads.current
        let record = keepEvents ? makeEvent(node: node, kind: kind, value: captured.value, thread: thread) : nil
        state.withLock { state in
            if keepSteps {
                state.seq += 1
                state.addStep(StepRecord(seq: state.seq, from: 0, to: node, call: .on, detail: .event(kind, captured.value), thread: thread), captured.text)
            }
            if var record {
                state.seq += 1
                record.seq = state.seq
                state.addEvent(record, captured.text)
            }
            if keepSteps {
                state.seq += 1
                state.addStep(StepRecord(seq: state.seq, from: 0, to: node, call: .onCore, detail: .event(kind, captured.value), thread: thread), captured.text)
            }
            if kind != .next { Self.terminate(&state, node) }
        }
    }

    public func disposed(_ node: UInt64) {
        let node = local(node)
        guard node != 0 else { return }
        let interval = options.resourceInterval
        state.withLock { state in
            state.seq += 1
            let index = Int(node - 1)
            if state.nodes[index].disposed == nil { state.nodes[index].disposed = state.seq }
            Self.sample(&state, force: false, interval: interval)
        }
    }

    public func deinitialized(_ node: UInt64) {
        let node = local(node)
        guard node != 0 else { return }
        let interval = options.resourceInterval
        state.withLock { state in
            state.seq += 1
            state.nodes[Int(node - 1)].deinitialized = state.seq
            Self.sample(&state, force: false, interval: interval)
        }
    }

    public func anomaly(node: UInt64, _ kind: TraceAnomaly, detail: String) {
        let node = local(node)
        guard node != 0 else { return }
        let detail = truncate(detail)
        state.withLock { state in
            state.seq += 1
            let index = Int(node - 1)
            if state.nodes[index].anomalies.count < Self.anomaliesPerNode {
                state.nodes[index].anomalies.append(TraceAnomalyRecord(kind: kind, seq: state.seq, detail: detail))
            } else {
                state.anomaliesDropped += 1
            }
        }
    }

    public func callSite(of node: UInt64) -> CallSite? {
        let node = local(node)
        guard node != 0 else { return nil }
        return state.withLock { state in Int(node) <= state.nodes.count ? state.nodes[Int(node - 1)].callSite : nil }
    }

    // MARK: Reading

    /// The clock now: the `seq` the next record will be given, minus one.
    public var currentSeq: UInt64 { state.withLock { $0.seq } }

    /// The number of nodes recorded so far.
    public var nodeCount: Int { state.withLock { $0.nodes.count } }

    /// Takes a resource sample now (also done at every birth, disposal and deinit).
    public func sampleResources() {
        state.withLock { state in Self.sample(&state, force: true, interval: 1) }
    }

    /// The recording so far as a trace document. With `since`, only what happened after clock
    /// value `since`: nodes born after it, edges between those, later steps, events and samples
    /// (this is how a nested `Trace.record` scope reads its part of an enclosing recording).
    public func snapshot(since: UInt64 = 0, meta extraMeta: [String: String] = [:]) -> TraceDocument {
        let state = self.state.withLock { state -> State in
            Self.sample(&state, force: true, interval: 1)
            return state
        }
        var nodes: [TraceNode] = []
        nodes.reserveCapacity(state.nodes.count)
        var kept = Set<UInt64>()
        var threadNames: [UInt32: String] = [:]
        func threadName(_ index: UInt32) -> String {
            if let name = threadNames[index] { return name }
            let name = TraceThreads.name(of: index)
            threadNames[index] = name
            return name
        }
        for (offset, record) in state.nodes.enumerated() where record.created > since {
            let id = UInt64(offset + 1)
            kept.insert(id)
            nodes.append(TraceNode(
                id: id, kind: record.kind, type: record.type,
                callSite: record.callSite?.description, fileID: record.callSite?.fileID,
                created: record.created, disposed: record.disposed, deinitialized: record.deinitialized,
                terminated: record.terminated, thread: threadName(record.thread), anomalies: record.anomalies
            ))
        }
        let edges = state.edges.filter { kept.contains($0.from) && kept.contains($0.to) }
        let steps = state.steps.elements.lazy.filter { $0.seq > since }.map { record -> TraceStep in
            let detail: String?
            switch record.detail {
            case .none: detail = nil
            case .text: detail = state.texts[record.seq]
            case .event(let kind, let value): detail = TraceEventKind.describe(kind, self.describe(value, seq: record.seq, texts: state.texts))
            }
            return TraceStep(seq: record.seq, from: record.from, to: record.to, call: record.call, detail: detail, thread: threadName(record.thread))
        }
        let events = state.events.elements.lazy.filter { $0.seq > since && kept.contains($0.node) }.map { record in
            TraceEvent(seq: record.seq, node: record.node, kind: record.kind, value: self.describe(record.value, seq: record.seq, texts: state.texts), time: record.time, virtualTime: record.virtual, thread: threadName(record.thread))
        }
        let counters = ResourceCounter.all().map(\.name)
        let resources = state.resources.elements.lazy.filter { $0.seq >= since }.map { record -> ResourceSample in
            var byType: [String: Int] = [:]
            var total = 0
            for (index, count) in record.counts.enumerated() where count != 0 {
                byType[counters[index], default: 0] += count
                total += count
            }
            return ResourceSample(seq: record.seq, total: total, byType: byType)
        }
        var meta: [String: String] = [
            "program": ProcessInfo.processInfo.processName,
            "started": ISO8601DateFormatter().string(from: startDate),
            "keep": options.keep.rawValue,
            "ringCapacity": String(options.ringCapacity),
            "valueLimit": String(options.valueLimit),
        ]
        if since > 0 { meta["since"] = String(since) }
        if state.anomaliesDropped > 0 { meta["anomaliesDropped"] = String(state.anomaliesDropped) }
        meta.merge(extraMeta) { _, new in new }
        return TraceDocument(
            meta: meta, nodes: nodes, edges: edges, steps: Array(steps), events: Array(events),
            resources: Array(resources),
            dropped: DroppedCounts(steps: state.steps.dropped, events: state.events.dropped, resources: state.resources.dropped)
        )
    }

    // MARK: Helpers

    /// This recorder's number for a node id, 0 when another tracer (or none) issued it.
    @inline(__always)
    private func local(_ id: UInt64) -> UInt64 {
        id > idBase && id - idBase < (1 << Tracing.generationShift) ? id - idBase : 0
    }

    /// An element as recorded: a copy when it is plain data small enough to sit in an `Any`
    /// without a box (describing it later gives what describing it now would), else its
    /// description now — a reference could change or be kept alive by the recording.
    @inline(__always)
    private func capture<Element>(element: Element) -> Captured {
        if _isPOD(Element.self), MemoryLayout<Element>.size <= 3 * MemoryLayout<Int>.size,
           MemoryLayout<Element>.alignment <= MemoryLayout<Int>.alignment {
            var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
            withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: element, as: Element.self) }
            return Captured(value: .element(Bits(words: words, type: Element.self)))
        }
        return capture(text: traceDescription(element))
    }

    /// A description made now: inline when it fits in a record, else kept aside.
    private func capture(text: String?) -> Captured {
        guard var text else { return Captured() }
        text = truncate(text)
        let count = text.utf8.count
        guard count < 3 * MemoryLayout<UInt64>.size else { return Captured(value: .text, text: text) }
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { buffer in
            text.withUTF8 { utf8 in buffer.copyMemory(from: UnsafeRawBufferPointer(utf8)) }
            buffer[buffer.count - 1] = UInt8(count)
        }
        return Captured(value: .element(Bits(words: words, type: InlineText.self)))
    }

    private func describe(_ value: Value?, seq: UInt64, texts: [UInt64: String]) -> String? {
        switch value {
        case nil: return nil
        case .text?: return texts[seq] ?? ""
        case .element(let bits)?:
            if bits.type == InlineText.self {
                return withUnsafeBytes(of: bits.words) { buffer in
                    String(decoding: buffer[..<Int(buffer[buffer.count - 1])], as: UTF8.self)
                }
            }
            func open<Element>(_ type: Element.Type) -> String { Self.describe(type, bits.words) }
            return truncate(_openExistential(bits.type, do: open))
        }
    }

    private static func describe<Element>(_ type: Element.Type, _ words: (UInt64, UInt64, UInt64)) -> String {
        let element = withUnsafeBytes(of: words) { $0.load(as: Element.self) }
        return traceDescription(element)
    }

    @inline(__always)
    private func truncate(_ text: String) -> String {
        let limit = options.valueLimit
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    private func makeEvent(node: UInt64, kind: TraceEventKind, value: Value?, thread: UInt32? = nil) -> EventRecord {
        let time: Double, virtual: Bool
        if let now = TraceClock.virtualNow {
            time = now
            virtual = true
        } else {
            time = Double(Self.monotonicNanoseconds() &- startedAt) / 1e9
            virtual = false
        }
        return EventRecord(seq: 0, node: node, kind: kind, value: value, time: time, virtual: virtual, thread: thread ?? TraceThreads.current)
    }

    @inline(__always)
    private static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    private static func terminate(_ state: inout State, _ node: UInt64) {
        let index = Int(node - 1)
        if state.nodes[index].terminated == nil { state.nodes[index].terminated = state.seq }
    }

    private static func sample(_ state: inout State, force: Bool, interval: UInt64) {
        if !force, state.seq < state.lastSample + interval, state.lastSample != 0 { return }
        state.lastSample = state.seq
        let counts = ResourceCounter.all().map(\.live)
        state.resources.append(ResourceRecord(seq: state.seq, counts: counts))
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
