import Foundation
import Synchronization

/// Records what the core reports through the tracer hook: the subscription graph (nodes and
/// edges, all kept), the steps of the subscribe flow and the events (the newest
/// `Options.ringCapacity` of each kept, older ones dropped and counted), and live resource
/// counts.
///
/// It lives in RxCore so that `RXTRACE=trace.json swift run MyApp` records any program linking
/// the core with no code change (see `TraceAutostart`); RxTrace's `Trace.record { … }` installs
/// one for a scope. Thread-safe, and one clock (`seq`, an atomic counter) orders node births,
/// disposals, deinits, steps and events.
///
/// A traced call is one `TraceRecord` (a hop's `forwardOn` step and the event it carries share
/// it), kept in a `RecordRing` and expanded into the document's steps and events by
/// `snapshot()`. The records of elements go into a buffer of the recording thread
/// (`Buffer.capacity` records, no lock), moved into the ring under the lock when it is full,
/// before that thread records anything into the ring directly (stop events, long texts,
/// subscribe-flow steps), and when the thread exits; `snapshot()` reads the buffers too and
/// merges by `seq`. Everything else takes the lock. A streamed recording (`RXTRACE`) takes no
/// lock its threads share: each thread records node births and changes, edges and the records
/// that carry a text into a lane of its own (`Lane`), nodes are numbered by an atomic counter,
/// and the writer takes the lanes (`takeBatch`); a recording thread takes the recorder's lock
/// only to look up the call site of a node its own lane does not hold (rare) and when it exits.
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

    struct NodeRecord {
        var kind: TraceNodeKind
        var type: String
        var callSite: CallSite?
        var created: UInt64
        var disposed: UInt64?
        var deinitialized: UInt64?
        var terminated: UInt64?
        var thread: UInt32
        /// When it was born, first disposed of and deinitialized: nanoseconds since the
        /// recording started (`elapsed()`); in a streamed recording, readings of `eventClock`
        /// (`nodeTime()`) until its `absorb` makes them nanoseconds.
        var createdAt: UInt64? = nil
        var disposedAt: UInt64? = nil
        var deinitializedAt: UInt64? = nil
        /// When it was terminated: its stop event's time (`stopTime`), a reading of
        /// `eventClock` in a recording in code (made nanoseconds with the events' times, by
        /// `snapshot`), nanoseconds since the start once a streamed recording's `absorb` took it.
        var terminatedAt: UInt64? = nil
        var anomalies: [TraceAnomalyRecord] = []
        /// A streamed recording's edges from this node: each written once, and carried into a
        /// new segment while the node lives.
        var edges: [TraceEdge] = []
    }

    /// A streamed recording's node born into a thread's lane: its index (its id minus one) and
    /// its record, boxed (`NodeBox`).
    struct Birth {
        var index: Int
        var node: NodeBox
    }

    /// A value (or detail) on its way into a record: the record's part, and the text for
    /// the text table when it does not fit.
    struct Captured {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var type: Any.Type? = nil
        var text: String? = nil
    }

    /// A point the program marked (`Tracing.mark`), with its thread's number.
    struct MarkRecord {
        var seq: UInt64
        var kind: TraceMarkKind
        var name: String
        var thread: UInt32
    }

    struct ResourceRecord {
        var seq: UInt64
        /// Live counts in `ResourceCounter.all()` order (the registry only grows).
        var counts: [Int]
    }

    struct State {
        var nodes: NodeTable
        var edges: [TraceEdge] = []
        var edgeSet: Set<TraceEdge> = []
        /// The steps and events: one record per traced call (`TraceRecord`).
        var records: RecordRing
        var resources: Ring<ResourceRecord>
        var lastSample: UInt64 = 0
        var anomaliesDropped = 0
        /// How `snapshot` makes a recording in code's clock readings nanoseconds (a line added at
        /// each).
        var timeLines = EventClock.Lines()
        /// Every mark, in `seq` order (a few per test: all kept).
        var marks: [MarkRecord] = []
        /// The per-thread buffers of this recorder.
        var buffers: [Buffer] = []
        /// A streamed recording's records not yet written (nil: records go to the rings).
        var stream: StreamPending?
    }

    /// Bytes of one record in the ring: a traced call's step(s) and event together (the
    /// `step` and `event` figures are the same record), in one slot (a value of at most one word;
    /// a longer one, or an inline text, takes two).
    public static var recordSizes: (step: Int, event: Int) {
        (MemoryLayout<RecordSlot>.stride, MemoryLayout<RecordSlot>.stride)
    }

    /// Fewest clock ticks between two resource samples of a streamed recording.
    public static let streamedResourceInterval: UInt64 = 1024

    /// Most anomalies kept per node; more are counted in the document's meta.
    public static let anomaliesPerNode = 100

    public let options: Options
    /// Ids this recorder hands out are `idBase + 1`, `idBase + 2`, … (see `Tracing.displayID`).
    public let idBase: UInt64
    let state: Mutex<State>
    /// The clock: each record takes the next value (atomically, so that threads recording into
    /// their own buffers need no lock to number their records).
    let clock = Atomic<UInt64>(0)
    /// A streamed recording's nodes born so far (numbered with no lock; see `Lane`).
    let nodesBorn = Atomic<Int>(0)
    /// The `seq` of a streamed recording's last resource sample.
    let lastSampled = Atomic<UInt64>(0)
    /// A streamed recording's node boxes the writer is done with, for births to reuse (`nodeBox`).
    let spareBoxes = Mutex<[NodeBox]>([])
    /// A streamed recording's chunks the writer is done with, for threads' buffers (`spareChunk`).
    let spareChunks = Mutex<[SlotChunk]>([])
    /// The clock of events' times (`EventClock`): records keep its readings.
    let eventClock: EventClock
    /// `CLOCK_MONOTONIC` nanoseconds when the recording started (`eventClock`'s start).
    let startedAt: UInt64
    let startDate: Date
    let keepSteps: Bool
    let keepEvents: Bool

    /// Whether a sink's `forwardOn` of an element into a traced `ObserverBase` and the observer's
    /// `on` are kept as one record (`TraceRecord.Shape.forwardedObserved`): when steps are kept
    /// (else the sink's step is no record at all) and recorders are made so (`mergingObserved`;
    /// tests turn it off to compare with two records).
    let mergesObserved: Bool
    nonisolated(unsafe) static var mergingObserved = true

    /// Wakes a streamed recording's writer when much is pending.
    let streamWake = DispatchSemaphore(value: 0)
    /// Whether records are handed to a writer (`TraceStreamWriter`) rather than kept in rings.
    let streamed: Bool

    public convenience init(options: Options = Options()) {
        self.init(options: options, streamed: false)
    }

    /// A recorder whose records are taken by a writer as they come (`takeBatch`), with nodes
    /// leaving memory once deinitialized and written.
    init(options: Options, streamed: Bool) {
        var options = options
        // A streamed recording samples live counts every `streamedResourceInterval` ticks at
        // most: a sample at every birth and disposal would be most of the file.
        if streamed { options.resourceInterval = max(options.resourceInterval, Self.streamedResourceInterval) }
        self.options = options
        self.streamed = streamed
        self.mergesObserved = Self.mergingObserved && options.keep == .all
        self.idBase = Tracing.newIDBase()
        self.keepSteps = options.keep == .all
        self.keepEvents = options.keep != .graph
        self.state = Mutex(
            State(
                nodes: NodeTable(evicting: streamed),
                records: RecordRing(
                    steps: options.keep == .all ? options.ringCapacity : 0,
                    events: options.keep != .graph ? options.ringCapacity : 0
                ),
                resources: Ring(capacity: streamed ? 0 : options.resourceCapacity),
                stream: streamed ? StreamPending() : nil
            ))
        self.eventClock = EventClock()
        self.startedAt = eventClock.start.nanoseconds
        self.startDate = Date()
        state.withLock { state in Self.sample(&state, seq: 0, force: true, interval: 1) }
    }

    /// Takes `count` clock values; returns the first.
    @inline(__always)
    func tick(_ count: UInt64 = 1) -> UInt64 {
        clock.wrappingAdd(count, ordering: .relaxed).newValue &- count &+ 1
    }

    // MARK: The hook

    // The hooks below reach the thread's state unretained (`unmanagedCurrent`): a retain and a
    // release are two atomic instructions a call, and a traced subscribe + dispose makes about
    // 70 of these calls.

    public func node(kind: TraceNodeKind, type: String, callSite: CallSite?) -> UInt64 {
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { traceLocal in
            node(traceLocal, kind: kind, type: type, callSite: callSite)
        }
    }

    private func node(_ traceLocal: TraceLocal, kind: TraceNodeKind, type: String, callSite: CallSite?) -> UInt64 {
        let thread = TraceThreads.current(traceLocal)
        if streamed {
            // Numbered without a lock; born into this thread's lane.
            let index = nodesBorn.wrappingAdd(1, ordering: .relaxed).oldValue
            // Records name nodes in 32 bits: past that many, nodes go untraced.
            guard index < Int(UInt32.max) else { return 0 }
            let seq = tick()
            let node = nodeBox(
                NodeRecord(
                    kind: kind, type: type, callSite: callSite, created: seq, thread: thread, createdAt: nodeTime()))
            let sample = dueSample(seq)
            inLane(traceLocal) { lane in
                lane.births.append(Birth(index: index, node: node))
                if let sample { lane.resources.append(sample) }
            }
            return idBase + UInt64(index + 1)
        }
        let interval = options.resourceInterval
        return state.withLock { state -> UInt64 in
            guard state.nodes.count < Int(UInt32.max) else { return 0 }
            let seq = tick()
            state.nodes.append(
                NodeRecord(
                    kind: kind, type: type, callSite: callSite, created: seq, thread: thread, createdAt: elapsed()))
            Self.sample(&state, seq: seq, force: false, interval: interval)
            return idBase + UInt64(state.nodes.count)
        }
    }

    public func edge(from: UInt64, to: UInt64, relation: TraceRelation) {
        let from = local(from), to = local(to)
        guard from != 0, to != 0 else { return }
        let edge = TraceEdge(from: from, to: to, relation: relation)
        if streamed {
            return TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { traceLocal in
                inLane(traceLocal) { $0.edges.append(edge) }
            }
        }
        state.withLock { state in
            if state.edgeSet.insert(edge).inserted { state.edges.append(edge) }
        }
    }

    public func step(_ call: TraceCall, from: UInt64, to: UInt64, detail: String?) {
        step(call, from: from, to: to, captured: capture(text: detail))
    }

    /// A step whose detail is a `TraceDetail` and its numbers (`words`), made text when read.
    func step(_ call: TraceCall, from: UInt64, to: UInt64, words: (UInt64, UInt64, UInt64)) {
        step(call, from: from, to: to, words: words, as: TraceDetailWords.self)
    }

    func step(_ call: TraceCall, from: UInt64, to: UInt64, captured: Captured) {
        guard keepSteps else { return }
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { traceLocal in
            step(traceLocal, call, from: from, to: to, captured: captured)
        }
    }

    private func step(_ traceLocal: TraceLocal, _ call: TraceCall, from: UInt64, to: UInt64, captured: Captured) {
        var record = TraceRecord(
            seq: 0, time: 0, words: captured.words, type: captured.type,
            from: UInt32(truncatingIfNeeded: local(from)), to: UInt32(truncatingIfNeeded: local(to)),
            thread: TraceThreads.current(traceLocal), call: call, kind: .next, shape: .step,
            parts: captured.text == nil ? [.steps, .keptSteps] : [.steps, .keptSteps, .text]
        )
        if streamed {
            record.seq = tick()
            return inLane(traceLocal) { lane in
                lane.records.append(record)
                if let text = captured.text { lane.texts.append(text) }
            }
        }
        let buffer = ownBuffer(traceLocal)
        state.withLock { state in
            if let buffer { Self.flush(buffer, into: &state) }
            record.seq = tick()
            Self.keep(&state, record, text: captured.text)
        }
    }

    public func event(node: UInt64, kind: TraceEventKind, value: String?) {
        if !keepEvents && kind == .next { return }
        let node = local(node)
        guard node != 0 else { return }
        let captured = capture(text: value)
        let traceLocal = TraceLocal.current
        let time = keepEvents ? eventTime(traceLocal, .received, node: node) : (0 as UInt64, false)
        var parts: TraceRecord.Parts = [.event, .keptEvent]
        if time.1 { parts.insert(.virtual) }
        if captured.text != nil { parts.insert(.text) }
        var record = TraceRecord(
            seq: 0, time: time.0, words: captured.words, type: captured.type,
            from: 0, to: UInt32(truncatingIfNeeded: node), thread: TraceThreads.current(traceLocal),
            call: .on, kind: kind, shape: .received, parts: parts
        )
        if streamed {
            record.seq = tick()
            return inLane(traceLocal) { lane in
                if keepEvents {
                    lane.records.append(record)
                    if let text = captured.text { lane.texts.append(text) }
                }
                if kind != .next { lane.ops.append(.terminated(Int(node - 1), record.seq, at: stopTime(record))) }
            }
        }
        let buffer = ownBuffer(traceLocal)
        state.withLock { state in
            if let buffer { Self.flush(buffer, into: &state) }
            let seq = tick()
            if keepEvents {
                record.seq = seq
                Self.keep(&state, record, text: captured.text)
            }
            if kind != .next { Self.terminate(&state, node, seq, at: stopTime(record)) }
        }
    }

    public var recordsValues: Bool { keepEvents || keepSteps }

    public func forwarded(
        from sink: UInt64, to observer: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool
    ) {
        if !keepSteps && !keepEvents && kind == .next { return }
        record(
            TraceLocal.current, .forwarded, .forwardOn, from: sink, to: observer, kind: kind,
            value: capture(text: value), recordEvent: recordEvent)
    }

    public func forwardedNext<Element>(from sink: UInt64, to observer: UInt64, element: Element, recordEvent: Bool) {
        forwardedNext(TraceLocal.current, from: sink, to: observer, element: element, recordEvent: recordEvent)
    }

    public func received(_ call: TraceCall, node: UInt64, kind: TraceEventKind, value: String?, recordEvent: Bool) {
        if !keepSteps && !keepEvents && kind == .next { return }
        let traceLocal = TraceLocal.current
        record(
            traceLocal, .received, call, from: RunContext.caller(of: node, traceLocal), to: node, kind: kind,
            value: capture(text: value), recordEvent: recordEvent)
    }

    public func receivedNext<Element>(_ call: TraceCall, node: UInt64, element: Element, recordEvent: Bool) {
        receivedNext(TraceLocal.current, call, node: node, element: element, recordEvent: recordEvent)
    }

    public func observed(node: UInt64, kind: TraceEventKind, value: String?) {
        if !keepSteps && !keepEvents && kind == .next { return }
        let traceLocal = TraceLocal.current
        record(
            traceLocal, .observed, .on, from: RunContext.caller(of: node, traceLocal), to: node, kind: kind,
            value: capture(text: value), recordEvent: true)
    }

    public func observedNext<Element>(node: UInt64, element: Element) {
        observedNext(TraceLocal.current, node: node, element: element)
    }

    public func disposed(_ node: UInt64) {
        change(node, timed: true) { .disposed($0, $1, at: $2) }
    }

    public func deinitialized(_ node: UInt64) {
        change(node, timed: true) { .deinitialized($0, $1, at: $2) }
    }

    /// Rare: straight onto the node under the lock (a streamed recording's lanes taken first, for
    /// the node's birth), and written with the next batch (also when the node left already).
    public func anomaly(node: UInt64, _ kind: TraceAnomaly, detail: String) {
        let node = local(node)
        guard node != 0 else { return }
        let detail = truncate(detail)
        state.withLock { state in
            if streamed { Self.absorb(into: &state, clock: eventClock) }
            let anomaly = TraceAnomalyRecord(kind: kind, seq: tick(), detail: detail)
            if state.nodes.addAnomaly(Int(node - 1), anomaly) == false {
                state.anomaliesDropped += 1
            } else {
                state.stream?.anomalies.append((node, anomaly))
            }
        }
    }

    public func mark(_ kind: TraceMarkKind, name: String) {
        let thread = TraceThreads.current(TraceLocal.current)
        state.withLock { state in
            let mark = MarkRecord(seq: tick(), kind: kind, name: name, thread: thread)
            state.marks.append(mark)
            state.stream?.marks.append(mark)
        }
    }

    /// A change to a node (`op`, given the node's index, the change's `seq` and, when `timed`,
    /// its time): into this thread's lane (a streamed recording), or applied to the node under
    /// the lock.
    @inline(__always)
    private func change(
        _ node: UInt64, timed: Bool = false, sample: Bool = true, _ op: (Int, UInt64, UInt64?) -> NodeOp
    ) {
        let node = local(node)
        guard node != 0 else { return }
        if streamed {
            let time = timed ? nodeTime() : nil
            let seq = tick()
            let due = sample ? dueSample(seq) : nil
            TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { traceLocal in
                inLane(traceLocal) { lane in
                    lane.ops.append(op(Int(node - 1), seq, time))
                    if let due { lane.resources.append(due) }
                }
            }
            return
        }
        let interval = options.resourceInterval
        let time = timed ? elapsed() : nil
        state.withLock { state in
            let seq = tick()
            let change = op(Int(node - 1), seq, time)
            _ = state.nodes.apply(change)
            if sample { Self.sample(&state, seq: seq, force: false, interval: interval) }
        }
    }

    public func callSite(of node: UInt64) -> CallSite? {
        let node = local(node)
        guard node != 0 else { return nil }
        let index = Int(node - 1)
        if streamed {
            // Most often a node this thread made a moment ago, still in its lane.
            let found = TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { traceLocal in
                buffer(traceLocal)._withUnsafeGuaranteedRef { buffer in
                    buffer.lane.withLock { lane -> CallSite?? in
                        guard let birth = lane.births.suffix(64).last(where: { $0.index == index }) else { return nil }
                        return .some(birth.node.record.callSite)
                    }
                }
            }
            if let found { return found }
        }
        return state.withLock { state in
            if streamed && state.nodes[index] == nil { Self.absorb(into: &state, clock: eventClock) }
            return state.nodes[index]?.callSite
        }
    }

    // MARK: Reading

    /// The clock now: the `seq` the next record will be given, minus one.
    public var currentSeq: UInt64 { clock.load(ordering: .relaxed) }

    /// The number of nodes recorded so far.
    public var nodeCount: Int {
        streamed ? min(nodesBorn.load(ordering: .relaxed), Int(UInt32.max)) : state.withLock { $0.nodes.count }
    }

    /// Takes a resource sample now (also done at every birth, disposal and deinit).
    public func sampleResources() {
        state.withLock { state in Self.sample(&state, seq: clock.load(ordering: .relaxed), force: true, interval: 1) }
    }

    /// This recorder's number for a node id, 0 when another tracer (or none) issued it.
    ///
    /// One unsigned compare for both bounds (`id > idBase` and a number below 2⁴⁰): `number - 1`
    /// wraps past them when `id` is `idBase` or below it (a base is at most 2⁶⁴ − 2⁴⁰). A traced
    /// element asks this four or five times.
    @inline(__always)
    func local(_ id: UInt64) -> UInt64 {
        let number = id &- idBase
        return number &- 1 < (1 << Tracing.generationShift) &- 1 ? number : 0
    }

    @inline(__always)
    func truncate(_ text: String) -> String {
        let limit = options.valueLimit
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    static func terminate(_ state: inout State, _ node: UInt64, _ seq: UInt64, at time: UInt64) {
        _ = state.nodes.apply(.terminated(Int(node - 1), seq, at: time))
    }

    /// A streamed recording's resource sample at `seq`, when `streamedResourceInterval` ticks
    /// have passed since the last one (for the thread's lane: no lock).
    @inline(__always)
    func dueSample(_ seq: UInt64) -> ResourceRecord? {
        let last = lastSampled.load(ordering: .relaxed)
        guard seq >= last &+ options.resourceInterval,
            lastSampled.compareExchange(expected: last, desired: seq, ordering: .relaxed).exchanged
        else { return nil }
        return ResourceRecord(seq: seq, counts: ResourceCounter.all().map(\.live))
    }

    static func sample(_ state: inout State, seq: UInt64, force: Bool, interval: UInt64) {
        if !force, seq < state.lastSample + interval, state.lastSample != 0 { return }
        state.lastSample = seq
        let counts = ResourceCounter.all().map(\.live)
        if state.stream != nil {
            state.stream!.resources.append(ResourceRecord(seq: seq, counts: counts))
        } else {
            state.resources.append(ResourceRecord(seq: seq, counts: counts))
        }
    }
}
