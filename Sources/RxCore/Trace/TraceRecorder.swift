import Foundation
import Synchronization

/// Records what the core reports through the tracer hook: the subscription graph (nodes and
/// edges, all kept), the steps of the subscribe flow and the events (each in a ring of
/// `Options.ringCapacity`, oldest dropped first and counted), and live resource counts.
///
/// It lives in RxCore so that `RXTRACE=trace.json swift run MyApp` records any program linking
/// the core with no code change (see `TraceAutostart`); RxTrace's `Trace.record { … }` installs
/// one for a scope. Thread-safe, and one clock (`seq`, an atomic counter) orders node births,
/// disposals, deinits, steps and events. The steps and events of elements go into a buffer of
/// the recording thread (`Buffer.capacity` entries, no lock), moved into the rings under the
/// lock when it is full, before that thread records anything into the rings directly (stop
/// events, long texts, subscribe-flow steps), and when the thread exits; `snapshot()` reads
/// the buffers too and merges by `seq`. Everything else takes the lock.
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
        case event(Value?, TraceEventKind)
    }

    /// An event's value as recorded: a copy of a plain value (no references, at most three
    /// words: `Int`, `Double`, small structs of those) described only when the trace is read —
    /// describing costs more than the rest of a record — or a description made when recorded
    /// (short ones inline, as `InlineText` bits).
    fileprivate enum Value {
        /// The description, in `State.texts`.
        case text
        /// Described when read.
        case element(Bits)
    }

    /// The bytes of a plain value and its type: copied like an integer, no box, no retain.
    fileprivate struct Bits {
        var words: (UInt64, UInt64, UInt64)
        var type: Any.Type
    }

    /// Marks `Bits` holding up to 23 bytes of UTF-8, the count in the last byte.
    fileprivate enum InlineText {}

    /// A value (or detail) on its way into a record: the record's part, and the text for
    /// `State.texts` when it does not fit.
    private struct Captured {
        var value: Value?
        var text: String?
    }

    private protocol Sequenced { var seq: UInt64 { get } }

    // Fields in an order that packs them (64 bytes each).
    private struct StepRecord: Sequenced {
        var seq: UInt64
        var from: UInt64
        var to: UInt64
        var detail: Detail
        var call: TraceCall
        var thread: UInt32

        init(seq: UInt64, from: UInt64, to: UInt64, call: TraceCall, detail: Detail, thread: UInt32) {
            self.seq = seq
            self.from = from
            self.to = to
            self.detail = detail
            self.call = call
            self.thread = thread
        }

        var hasText: Bool {
            switch detail {
            case .text, .event(.text?, _): return true
            case .none, .event: return false
            }
        }
    }

    private struct EventRecord: Sequenced {
        var seq: UInt64
        var node: UInt64
        var time: Double
        var value: Value?
        var kind: TraceEventKind
        var virtual: Bool
        var thread: UInt32

        init(seq: UInt64, node: UInt64, kind: TraceEventKind, value: Value?, time: Double, virtual: Bool, thread: UInt32) {
            self.seq = seq
            self.node = node
            self.time = time
            self.value = value
            self.kind = kind
            self.virtual = virtual
            self.thread = thread
        }

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

    /// What one traced call recorded: which records an entry of a thread's buffer stands for.
    enum Shape: UInt8 {
        /// `forwardOn` step (sink → observer), then the event on the observer.
        case forwarded
        /// Step `call` (0 → node), then the event on the node.
        case received
        /// Step `on` (0 → node), the event on the node, step `onCore`.
        case observed
    }

    /// An entry of a thread's buffer: the records of one traced call, numbered from `seq`, as
    /// plain data (expanded into step and event records when the buffer is flushed or read).
    struct Pending {
        var seq: UInt64
        var from: UInt64
        var to: UInt64
        var time: Double
        fileprivate var value: Value?
        var thread: UInt32
        var call: TraceCall
        var kind: TraceEventKind
        var shape: Shape
        var steps: Bool
        var event: Bool
        var virtual: Bool
    }

    /// A thread's records not yet in the rings. Only its thread appends (no lock: it writes the
    /// entry, then publishes the count); the recorder's lock is held to flush it into the rings
    /// (by its thread when full, before that thread records into the rings itself, and when the
    /// thread exits) and to read it (`snapshot`).
    final class Buffer: @unchecked Sendable {
        /// Entries per buffer (about 80 bytes each).
        static let capacity = 256
        let entries = UnsafeMutablePointer<Pending>.allocate(capacity: Buffer.capacity)
        let count = Atomic<Int>(0)

        deinit { entries.deallocate() }

        @inline(__always)
        func append(_ entry: Pending, _ recorder: TraceRecorder) {
            let index = count.load(ordering: .relaxed)
            (entries + index).initialize(to: entry)
            count.store(index + 1, ordering: .releasing)
            if index + 1 == Buffer.capacity { recorder.flush(self) }
        }

        /// The entries published so far (read under the recorder's lock).
        var published: UnsafeBufferPointer<Pending> {
            UnsafeBufferPointer(start: entries, count: count.load(ordering: .acquiring))
        }
    }

    private struct State {
        var nodes: [NodeRecord] = []
        var edges: [TraceEdge] = []
        var edgeSet: Set<TraceEdge> = []
        var steps: PlainRing<StepRecord>
        var events: PlainRing<EventRecord>
        var resources: Ring<ResourceRecord>
        var lastSample: UInt64 = 0
        var anomaliesDropped = 0
        /// Texts of the kept records whose value or detail did not fit in them, by `seq`.
        var texts: [UInt64: String] = [:]
        /// The per-thread buffers of this recorder.
        var buffers: [Buffer] = []

        mutating func addStep(_ record: StepRecord, _ text: String?) {
            if let text { texts[record.seq] = text }
            // The record let go is read only when some kept record has a text.
            if let gone = steps.append(record, reportingGone: !texts.isEmpty), gone.hasText { texts[gone.seq] = nil }
        }

        mutating func addEvent(_ record: EventRecord, _ text: String?) {
            if let text { texts[record.seq] = text }
            if let gone = events.append(record, reportingGone: !texts.isEmpty), gone.hasText { texts[gone.seq] = nil }
        }
    }

    /// Bytes of one step record and one event record in the rings.
    public static var recordSizes: (step: Int, event: Int) {
        (MemoryLayout<StepRecord>.stride, MemoryLayout<EventRecord>.stride)
    }

    /// Most anomalies kept per node; more are counted in the document's meta.
    public static let anomaliesPerNode = 100

    public let options: Options
    /// Ids this recorder hands out are `idBase + 1`, `idBase + 2`, … (see `Tracing.displayID`).
    public let idBase: UInt64
    private let state: Mutex<State>
    /// The clock: each record takes the next value (atomically, so that threads recording into
    /// their own buffers need no lock to number their records).
    private let clock = Atomic<UInt64>(0)
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
            steps: PlainRing(capacity: options.keep == .all ? options.ringCapacity : 0),
            events: PlainRing(capacity: options.keep != .graph ? options.ringCapacity : 0),
            resources: Ring(capacity: options.resourceCapacity)
        ))
        self.startedAt = Self.monotonicNanoseconds()
        self.startDate = Date()
        state.withLock { state in Self.sample(&state, seq: 0, force: true, interval: 1) }
    }

    /// Takes `count` clock values; returns the first.
    @inline(__always)
    private func tick(_ count: UInt64 = 1) -> UInt64 {
        clock.wrappingAdd(count, ordering: .relaxed).newValue &- count &+ 1
    }

    // MARK: The hook

    public func node(kind: TraceNodeKind, type: String, callSite: CallSite?) -> UInt64 {
        let thread = TraceThreads.current
        let interval = options.resourceInterval
        return state.withLock { state in
            let seq = tick()
            state.nodes.append(NodeRecord(kind: kind, type: type, callSite: callSite, created: seq, thread: thread))
            Self.sample(&state, seq: seq, force: false, interval: interval)
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
        let traceLocal = TraceLocal.current
        let thread = TraceThreads.current(traceLocal)
        let text = detail.map(truncate)
        let from = local(from), to = local(to)
        let buffer = ownBuffer(traceLocal)
        state.withLock { state in
            if let buffer { Self.flush(buffer, into: &state) }
            let seq = tick()
            state.addStep(StepRecord(seq: seq, from: from, to: to, call: call, detail: text == nil ? .none : .text, thread: thread), text)
        }
    }

    public func event(node: UInt64, kind: TraceEventKind, value: String?) {
        if !keepEvents && kind == .next { return }
        let node = local(node)
        guard node != 0 else { return }
        let captured = capture(text: value)
        let traceLocal = TraceLocal.current
        let thread = TraceThreads.current(traceLocal)
        let time = keepEvents ? eventTime(traceLocal, .received, node: node) : (0, false)
        let buffer = ownBuffer(traceLocal)
        state.withLock { state in
            if let buffer { Self.flush(buffer, into: &state) }
            let seq = tick()
            if keepEvents {
                state.addEvent(EventRecord(seq: seq, node: node, kind: kind, value: captured.value, time: time.0, virtual: time.1, thread: thread), captured.text)
            }
            if kind != .next { Self.terminate(&state, node, seq) }
        }
    }

    public var recordsValues: Bool { keepEvents || keepSteps }

    public func forwarded(from sink: UInt64, to observer: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool) {
        if !keepSteps && !keepEvents && kind == .next { return }
        record(.forwarded, .forwardOn, from: sink, to: observer, kind: kind, value: capture(text: value), recordEvent: recordEvent)
    }

    public func forwardedNext<Element>(from sink: UInt64, to observer: UInt64, element: Element, recordEvent: Bool) {
        if !keepSteps && !keepEvents { return }
        record(.forwarded, .forwardOn, from: sink, to: observer, kind: .next, value: capture(element: element), recordEvent: recordEvent)
    }

    public func received(_ call: TraceCall, node: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool) {
        if !keepSteps && !keepEvents && kind == .next { return }
        record(.received, call, from: 0, to: node, kind: kind, value: capture(text: value), recordEvent: recordEvent)
    }

    public func receivedNext<Element>(_ call: TraceCall, node: UInt64, element: Element, recordEvent: Bool) {
        if !keepSteps && !keepEvents { return }
        record(.received, call, from: 0, to: node, kind: .next, value: capture(element: element), recordEvent: recordEvent)
    }

    public func observed(node: UInt64, kind: TraceEventKind, value: String?) {
        if !keepSteps && !keepEvents && kind == .next { return }
        record(.observed, .on, from: 0, to: node, kind: kind, value: capture(text: value), recordEvent: true)
    }

    public func observedNext<Element>(node: UInt64, element: Element) {
        if !keepSteps && !keepEvents { return }
        record(.observed, .on, from: 0, to: node, kind: .next, value: capture(element: element), recordEvent: true)
    }

    /// One traced call's records: its step(s) and, when kept, the event. Elements go into this
    /// thread's buffer with no lock; a stop event (which also marks the node terminated) and a
    /// value whose text does not fit in a record go straight into the rings, under the lock,
    /// after this thread's buffer.
    @inline(__always)
    private func record(_ shape: Shape, _ call: TraceCall, from: UInt64, to: UInt64, kind: TraceEventKind, value captured: Captured, recordEvent: Bool) {
        let from = local(from), to = local(to)
        if shape != .forwarded, to == 0 { return }
        let withEvent = keepEvents && recordEvent && to != 0
        let steps: UInt64 = keepSteps ? (shape == .observed ? 2 : 1) : 0
        let count = steps + (withEvent ? 1 : 0)
        let terminates = recordEvent && to != 0 && kind != .next
        let traceLocal = TraceLocal.current
        let time = keepEvents ? eventTime(traceLocal, shape, node: shape == .forwarded ? from : to) : (0, false)
        if count == 0 && !terminates { return }
        var entry = Pending(
            seq: 0, from: from, to: to, time: time.0, value: captured.value,
            thread: TraceThreads.current(traceLocal), call: call, kind: kind, shape: shape,
            steps: keepSteps, event: withEvent, virtual: time.1
        )
        if captured.text == nil, !terminates {
            entry.seq = tick(count)
            buffer(traceLocal)._withUnsafeGuaranteedRef { $0.append(entry, self) }
            return
        }
        let buffer = ownBuffer(traceLocal)
        state.withLock { state in
            if let buffer { Self.flush(buffer, into: &state) }
            let last: UInt64
            if count > 0 {
                entry.seq = tick(count)
                Self.expand(entry, text: captured.text, into: &state)
                last = entry.seq &+ count &- 1
            } else {
                last = clock.load(ordering: .relaxed)
            }
            if terminates { Self.terminate(&state, to, last) }
        }
    }

    public func disposed(_ node: UInt64) {
        let node = local(node)
        guard node != 0 else { return }
        let interval = options.resourceInterval
        state.withLock { state in
            let seq = tick()
            let index = Int(node - 1)
            if state.nodes[index].disposed == nil { state.nodes[index].disposed = seq }
            Self.sample(&state, seq: seq, force: false, interval: interval)
        }
    }

    public func deinitialized(_ node: UInt64) {
        let node = local(node)
        guard node != 0 else { return }
        let interval = options.resourceInterval
        state.withLock { state in
            let seq = tick()
            state.nodes[Int(node - 1)].deinitialized = seq
            Self.sample(&state, seq: seq, force: false, interval: interval)
        }
    }

    public func anomaly(node: UInt64, _ kind: TraceAnomaly, detail: String) {
        let node = local(node)
        guard node != 0 else { return }
        let detail = truncate(detail)
        state.withLock { state in
            let seq = tick()
            let index = Int(node - 1)
            if state.nodes[index].anomalies.count < Self.anomaliesPerNode {
                state.nodes[index].anomalies.append(TraceAnomalyRecord(kind: kind, seq: seq, detail: detail))
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
    public var currentSeq: UInt64 { clock.load(ordering: .relaxed) }

    /// The number of nodes recorded so far.
    public var nodeCount: Int { state.withLock { $0.nodes.count } }

    /// Takes a resource sample now (also done at every birth, disposal and deinit).
    public func sampleResources() {
        state.withLock { state in Self.sample(&state, seq: clock.load(ordering: .relaxed), force: true, interval: 1) }
    }

    /// The recording so far as a trace document. With `since`, only what happened after clock
    /// value `since`: nodes born after it, edges between those, later steps, events and samples
    /// (this is how a nested `Trace.record` scope reads its part of an enclosing recording).
    public func snapshot(since: UInt64 = 0, meta extraMeta: [String: String] = [:]) -> TraceDocument {
        // The rings, and what the threads' buffers hold (read in place, under the lock).
        var pendingSteps: [StepRecord] = [], pendingEvents: [EventRecord] = []
        var mergedSteps: ([StepRecord], Int) = ([], 0), mergedEvents: ([EventRecord], Int) = ([], 0)
        let state = self.state.withLock { state -> State in
            Self.sample(&state, seq: clock.load(ordering: .relaxed), force: true, interval: 1)
            for buffer in state.buffers {
                for entry in buffer.published { Self.expand(entry, steps: &pendingSteps, events: &pendingEvents) }
            }
            // The rings are shared storage: copied out here.
            mergedSteps = Self.merge(state.steps, pendingSteps)
            mergedEvents = Self.merge(state.events, pendingEvents)
            return state
        }
        let (keptSteps, droppedSteps) = mergedSteps
        let (keptEvents, droppedEvents) = mergedEvents
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
        let steps = keptSteps.lazy.filter { $0.seq > since }.map { record -> TraceStep in
            let detail: String?
            switch record.detail {
            case .none: detail = nil
            case .text: detail = state.texts[record.seq]
            case .event(let value, let kind): detail = TraceEventKind.describe(kind, self.describe(value, seq: record.seq, texts: state.texts))
            }
            return TraceStep(seq: record.seq, from: record.from, to: record.to, call: record.call, detail: detail, thread: threadName(record.thread))
        }
        let events = keptEvents.lazy.filter { $0.seq > since && kept.contains($0.node) }.map { record in
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
            dropped: DroppedCounts(steps: droppedSteps, events: droppedEvents, resources: state.resources.dropped)
        )
    }

    // MARK: Buffers and time

    /// This thread's buffer in this recorder (made and registered at its first record).
    @inline(__always)
    private func buffer(_ traceLocal: TraceLocal) -> Unmanaged<Buffer> {
        if traceLocal.bufferKey == idBase, let buffer = traceLocal.unmanagedBuffer { return buffer }
        return makeBuffer(traceLocal)
    }

    @inline(never)
    private func makeBuffer(_ traceLocal: TraceLocal) -> Unmanaged<Buffer> {
        let buffer = Buffer()
        state.withLock { $0.buffers.append(buffer) }
        traceLocal.unmanagedBuffer = Unmanaged.passUnretained(buffer)
        traceLocal.bufferKey = idBase
        return Unmanaged.passUnretained(buffer)
    }

    /// This thread's buffer in this recorder when it holds entries.
    @inline(__always)
    private func ownBuffer(_ traceLocal: TraceLocal) -> Buffer? {
        guard traceLocal.bufferKey == idBase, let buffer = traceLocal.unmanagedBuffer?.takeUnretainedValue(),
              buffer.count.load(ordering: .relaxed) > 0 else { return nil }
        return buffer
    }

    /// Called by the buffer's thread when it is full.
    @inline(never)
    fileprivate func flush(_ buffer: Buffer) {
        state.withLock { state in Self.flush(buffer, into: &state) }
    }

    /// Called when the buffer's thread exits.
    func retire(_ buffer: Buffer) {
        state.withLock { state in
            Self.flush(buffer, into: &state)
            state.buffers.removeAll { $0 === buffer }
        }
    }

    private static func flush(_ buffer: Buffer, into state: inout State) {
        for entry in buffer.published { expand(entry, text: nil, into: &state) }
        buffer.count.store(0, ordering: .relaxed)
    }

    /// The step and event records `entry` stands for, added to the rings.
    private static func expand(_ entry: Pending, text: String?, into state: inout State) {
        var seq = entry.seq
        let detail = Detail.event(entry.value, entry.kind)
        switch entry.shape {
        case .forwarded:
            if entry.steps {
                state.addStep(StepRecord(seq: seq, from: entry.from, to: entry.to, call: .forwardOn, detail: detail, thread: entry.thread), text)
                seq &+= 1
            }
            if entry.event {
                state.addEvent(EventRecord(seq: seq, node: entry.to, kind: entry.kind, value: entry.value, time: entry.time, virtual: entry.virtual, thread: entry.thread), text)
            }
        case .received, .observed:
            if entry.steps {
                state.addStep(StepRecord(seq: seq, from: 0, to: entry.to, call: entry.call, detail: detail, thread: entry.thread), text)
                seq &+= 1
            }
            if entry.event {
                state.addEvent(EventRecord(seq: seq, node: entry.to, kind: entry.kind, value: entry.value, time: entry.time, virtual: entry.virtual, thread: entry.thread), text)
                seq &+= 1
            }
            if entry.shape == .observed, entry.steps {
                state.addStep(StepRecord(seq: seq, from: 0, to: entry.to, call: .onCore, detail: detail, thread: entry.thread), text)
            }
        }
    }

    /// The step and event records `entry` stands for, appended to arrays (`snapshot`).
    private static func expand(_ entry: Pending, steps: inout [StepRecord], events: inout [EventRecord]) {
        var seq = entry.seq
        let detail = Detail.event(entry.value, entry.kind)
        if entry.steps {
            steps.append(StepRecord(seq: seq, from: entry.shape == .forwarded ? entry.from : 0, to: entry.to, call: entry.shape == .forwarded ? .forwardOn : entry.call, detail: detail, thread: entry.thread))
            seq &+= 1
        }
        if entry.event {
            events.append(EventRecord(seq: seq, node: entry.to, kind: entry.kind, value: entry.value, time: entry.time, virtual: entry.virtual, thread: entry.thread))
            seq &+= 1
        }
        if entry.shape == .observed, entry.steps {
            steps.append(StepRecord(seq: seq, from: 0, to: entry.to, call: .onCore, detail: detail, thread: entry.thread))
        }
    }

    /// An event's time: the virtual clock under a virtual time scheduler, else seconds since the
    /// recorder was made, from one clock reading per delivery: a delivery that enters the
    /// pipeline from outside any traced delivery on this thread reads the clock (the `on` of a
    /// node and its own `forwardOn` that follows share one reading), and every event delivered
    /// synchronously inside it, on this thread, carries that reading.
    @inline(__always)
    private func eventTime(_ traceLocal: TraceLocal, _ shape: Shape, node: UInt64) -> (Double, Bool) {
        if traceLocal.virtualDepth > 0 { return (traceLocal.virtualNow, true) }
        let now: UInt64
        if traceLocal.deliveries > 0 {
            now = traceLocal.time
        } else if shape == .forwarded {
            if traceLocal.timeOwner != node || node == 0 {
                traceLocal.time = Self.monotonicNanoseconds()
            }
            now = traceLocal.time
            traceLocal.timeOwner = 0
        } else {
            now = Self.monotonicNanoseconds()
            traceLocal.time = now
            traceLocal.timeOwner = node
        }
        return (now > startedAt ? Double(now &- startedAt) / 1e9 : 0, false)
    }

    /// A ring's records and the buffers' not yet in it, in `seq` order (threads flush their
    /// buffers at different times), the newest `capacity` kept; and how many were let go.
    private static func merge<Record: Sequenced>(_ ring: PlainRing<Record>, _ pending: [Record]) -> ([Record], Int) {
        var records = ring.elements
        if !pending.isEmpty { records.append(contentsOf: pending) }
        var sorted = true
        var index = 1
        while index < records.count {
            if records[index - 1].seq > records[index].seq { sorted = false; break }
            index += 1
        }
        if !sorted { records.sort { $0.seq < $1.seq } }
        let excess = records.count - ring.capacity
        if excess > 0 { records.removeFirst(excess) }
        return (records, ring.dropped + max(0, excess))
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

    @inline(__always)
    private static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    private static func terminate(_ state: inout State, _ node: UInt64, _ seq: UInt64) {
        let index = Int(node - 1)
        if state.nodes[index].terminated == nil { state.nodes[index].terminated = seq }
    }

    private static func sample(_ state: inout State, seq: UInt64, force: Bool, interval: UInt64) {
        if !force, seq < state.lastSample + interval, state.lastSample != 0 { return }
        state.lastSample = seq
        let counts = ResourceCounter.all().map(\.live)
        state.resources.append(ResourceRecord(seq: seq, counts: counts))
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
