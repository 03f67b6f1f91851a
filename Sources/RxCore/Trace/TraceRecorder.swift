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
/// merges by `seq`. Everything else takes the lock.
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

    /// A value (or detail) on its way into a record: the record's part, and the text for
    /// the text table when it does not fit.
    struct Captured {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var type: Any.Type? = nil
        var text: String? = nil
    }

    private typealias Shape = TraceRecord.Shape

    /// A thread's records not yet in the ring. Only its thread appends (no lock: it writes the
    /// record, then publishes the count); the recorder's lock is held to flush it into the ring
    /// (by its thread when full, before that thread records into the ring itself, and when the
    /// thread exits) and to read it (`snapshot`).
    final class Buffer: @unchecked Sendable {
        /// Records per buffer (64 bytes each).
        static let capacity = 256
        let entries = UnsafeMutablePointer<TraceRecord>.allocate(capacity: Buffer.capacity)
        let count = Atomic<Int>(0)

        deinit { entries.deallocate() }

        /// Appends the record `write` initialises in its slot.
        @inline(__always)
        func append(_ recorder: TraceRecorder, _ write: (UnsafeMutablePointer<TraceRecord>) -> Void) {
            let index = count.load(ordering: .relaxed)
            write(entries + index)
            count.store(index + 1, ordering: .releasing)
            if index + 1 == Buffer.capacity { recorder.flush(self) }
        }

        /// The entries published so far (read under the recorder's lock).
        var published: UnsafeBufferPointer<TraceRecord> {
            UnsafeBufferPointer(start: entries, count: count.load(ordering: .acquiring))
        }
    }

    private struct ResourceRecord {
        var seq: UInt64
        /// Live counts in `ResourceCounter.all()` order (the registry only grows).
        var counts: [Int]
    }

    private struct State {
        var nodes: [NodeRecord] = []
        var edges: [TraceEdge] = []
        var edgeSet: Set<TraceEdge> = []
        /// The steps and events: one record per traced call (`TraceRecord`).
        var records: RecordRing
        var resources: Ring<ResourceRecord>
        var lastSample: UInt64 = 0
        var anomaliesDropped = 0
        /// The per-thread buffers of this recorder.
        var buffers: [Buffer] = []
    }

    /// Bytes of one record in the ring: a traced call's step(s) and event together (the
    /// `step` and `event` figures are the same record).
    public static var recordSizes: (step: Int, event: Int) {
        (MemoryLayout<TraceRecord>.stride, MemoryLayout<TraceRecord>.stride)
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
        self.state = Mutex(
            State(
                records: RecordRing(
                    steps: options.keep == .all ? options.ringCapacity : 0,
                    events: options.keep != .graph ? options.ringCapacity : 0
                ),
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
            // Records name nodes in 32 bits: past that many, nodes go untraced.
            guard state.nodes.count < Int(UInt32.max) else { return 0 }
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
        let captured = capture(text: detail)
        var record = TraceRecord(
            seq: 0, time: 0, words: captured.words, type: captured.type,
            from: UInt32(truncatingIfNeeded: local(from)), to: UInt32(truncatingIfNeeded: local(to)),
            thread: TraceThreads.current(traceLocal), call: call, kind: .next, shape: .step,
            parts: captured.text == nil ? [.steps, .keptSteps] : [.steps, .keptSteps, .text]
        )
        let buffer = ownBuffer(traceLocal)
        state.withLock { state in
            if let buffer { Self.flush(buffer, into: &state) }
            record.seq = tick()
            state.records.append(record, text: captured.text)
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
        let buffer = ownBuffer(traceLocal)
        state.withLock { state in
            if let buffer { Self.flush(buffer, into: &state) }
            let seq = tick()
            if keepEvents {
                record.seq = seq
                state.records.append(record, text: captured.text)
            }
            if kind != .next { Self.terminate(&state, node, seq) }
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

    // The per-element hooks as the core calls them when the installed tracer is this recorder
    // (`TraceHook`): given this thread's state, and specialised for the element type where the
    // caller is.

    @inline(__always)
    func forwardedNext<Element>(
        _ traceLocal: TraceLocal, from sink: UInt64, to observer: UInt64, element: Element, recordEvent: Bool
    ) {
        if !keepSteps && !keepEvents { return }
        if Self.isPlain(Element.self) {
            recordNext(
                traceLocal, .forwarded, .forwardOn, from: sink, to: observer, element: element, recordEvent: recordEvent
            )
        } else {
            record(
                traceLocal, .forwarded, .forwardOn, from: sink, to: observer, kind: .next,
                value: capture(text: traceDescription(element)), recordEvent: recordEvent)
        }
    }

    @inline(__always)
    func receivedNext<Element>(
        _ traceLocal: TraceLocal, _ call: TraceCall, node: UInt64, element: Element, recordEvent: Bool
    ) {
        if !keepSteps && !keepEvents { return }
        let from = RunContext.caller(of: node, traceLocal)
        if Self.isPlain(Element.self) {
            recordNext(traceLocal, .received, call, from: from, to: node, element: element, recordEvent: recordEvent)
        } else {
            record(
                traceLocal, .received, call, from: from, to: node, kind: .next,
                value: capture(text: traceDescription(element)), recordEvent: recordEvent)
        }
    }

    @inline(__always)
    func observedNext<Element>(_ traceLocal: TraceLocal, node: UInt64, element: Element) {
        if !keepSteps && !keepEvents { return }
        let from = RunContext.caller(of: node, traceLocal)
        if Self.isPlain(Element.self) {
            recordNext(traceLocal, .observed, .on, from: from, to: node, element: element, recordEvent: true)
        } else {
            record(
                traceLocal, .observed, .on, from: from, to: node, kind: .next,
                value: capture(text: traceDescription(element)), recordEvent: true)
        }
    }

    /// `receivedNext(.on, node:…)` and then `forwardedNext(from: node, …)`, as one record: a
    /// sink's own `on` and the `forwardOn` it does next (`create`'s sink), with nothing between
    /// them on this thread.
    @inline(__always)
    func receivedAndForwardedNext<Element>(
        _ traceLocal: TraceLocal, node: UInt64, to observer: UInt64, element: Element, recordEvent: Bool
    ) {
        if !keepSteps && !keepEvents { return }
        let from = local(node), to = local(observer)
        guard Self.isPlain(Element.self), from != 0 else {
            receivedNext(traceLocal, .on, node: node, element: element, recordEvent: true)
            forwardedNext(traceLocal, from: node, to: observer, element: element, recordEvent: recordEvent)
            return
        }
        let secondEvent = keepEvents && recordEvent && to != 0
        let count: UInt64 = (keepSteps ? 2 : 0) + (keepEvents ? 1 : 0) + (secondEvent ? 1 : 0)
        let time = keepEvents ? eventTime(traceLocal, .receivedForwarded, node: from) : (0 as UInt64, false)
        var parts: TraceRecord.Parts = keepSteps ? [.steps, .keptSteps] : []
        if keepEvents { parts.formUnion([.event, .keptEvent]) }
        if secondEvent { parts.insert(.secondEvent) }
        if time.1 { parts.insert(.virtual) }
        let thread = TraceThreads.current(traceLocal)
        let seq = tick(count)
        buffer(traceLocal)._withUnsafeGuaranteedRef { buffer in
            buffer.append(self) { slot in
                slot.initialize(
                    to: TraceRecord(
                        seq: seq, time: time.0, words: (0, 0, 0), type: Element.self,
                        from: UInt32(truncatingIfNeeded: from), to: UInt32(truncatingIfNeeded: to),
                        thread: thread, call: .on, kind: .next, shape: .receivedForwarded, parts: parts
                    ))
                (UnsafeMutableRawPointer(slot) + TraceRecord.wordsOffset).storeBytes(of: element, as: Element.self)
            }
        }
    }

    /// The record of a `next` whose element is kept as its bytes (`isPlain`): written in place
    /// into this thread's buffer.
    @inline(__always)
    private func recordNext<Element>(
        _ traceLocal: TraceLocal, _ shape: Shape, _ call: TraceCall, from: UInt64, to: UInt64, element: Element,
        recordEvent: Bool
    ) {
        let from = local(from), to = local(to)
        if shape != .forwarded, to == 0 { return }
        let withEvent = keepEvents && recordEvent && to != 0
        let steps: UInt64 = keepSteps ? (shape == .observed ? 2 : 1) : 0
        let count = steps + (withEvent ? 1 : 0)
        let time =
            keepEvents ? eventTime(traceLocal, shape, node: shape == .forwarded ? from : to) : (0 as UInt64, false)
        if count == 0 { return }
        var parts: TraceRecord.Parts = keepSteps ? [.steps, .keptSteps] : []
        if withEvent { parts.formUnion([.event, .keptEvent]) }
        if time.1 { parts.insert(.virtual) }
        let thread = TraceThreads.current(traceLocal)
        let seq = tick(count)
        buffer(traceLocal)._withUnsafeGuaranteedRef { buffer in
            buffer.append(self) { slot in
                slot.initialize(
                    to: TraceRecord(
                        seq: seq, time: time.0, words: (0, 0, 0), type: Element.self,
                        from: UInt32(truncatingIfNeeded: from), to: UInt32(truncatingIfNeeded: to),
                        thread: thread, call: call, kind: .next, shape: shape, parts: parts
                    ))
                // The element's bytes straight into the record (no copy through a local).
                (UnsafeMutableRawPointer(slot) + TraceRecord.wordsOffset).storeBytes(of: element, as: Element.self)
            }
        }
    }

    /// One traced call's record: its step(s) and, when kept, the event. Elements go into this
    /// thread's buffer with no lock; a stop event (which also marks the node terminated) and a
    /// value whose text does not fit in a record go straight into the ring, under the lock,
    /// after this thread's buffer.
    @inline(__always)
    private func record(
        _ traceLocal: TraceLocal, _ shape: Shape, _ call: TraceCall, from: UInt64, to: UInt64, kind: TraceEventKind,
        value captured: Captured, recordEvent: Bool
    ) {
        let from = local(from), to = local(to)
        if shape != .forwarded, to == 0 { return }
        let withEvent = keepEvents && recordEvent && to != 0
        let steps: UInt64 = keepSteps ? (shape == .observed ? 2 : 1) : 0
        let count = steps + (withEvent ? 1 : 0)
        let terminates = recordEvent && to != 0 && kind != .next
        let time =
            keepEvents ? eventTime(traceLocal, shape, node: shape == .forwarded ? from : to) : (0 as UInt64, false)
        if count == 0 && !terminates { return }
        var parts: TraceRecord.Parts = keepSteps ? [.steps, .keptSteps] : []
        if withEvent { parts.formUnion([.event, .keptEvent]) }
        if time.1 { parts.insert(.virtual) }
        if captured.text != nil { parts.insert(.text) }
        var entry = TraceRecord(
            seq: 0, time: time.0, words: captured.words, type: captured.type,
            from: UInt32(truncatingIfNeeded: from), to: UInt32(truncatingIfNeeded: to),
            thread: TraceThreads.current(traceLocal), call: call, kind: kind, shape: shape, parts: parts
        )
        if captured.text == nil, !terminates {
            entry.seq = tick(count)
            buffer(traceLocal)._withUnsafeGuaranteedRef { $0.append(self) { $0.initialize(to: entry) } }
            return
        }
        let buffer = ownBuffer(traceLocal)
        state.withLock { state in
            if let buffer { Self.flush(buffer, into: &state) }
            let last: UInt64
            if count > 0 {
                entry.seq = tick(count)
                state.records.append(entry, text: captured.text)
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
    public func snapshot(since: UInt64 = 0, meta extraMeta: [String: String] = [:]) -> TraceDocument {
        // The ring's records and what the threads' buffers hold (read in place, under the lock).
        var records: [TraceRecord] = []
        var pendingSteps = 0, pendingEvents = 0
        let (state, totalSteps, totalEvents, texts) = self.state.withLock { state in
            Self.sample(&state, seq: clock.load(ordering: .relaxed), force: true, interval: 1)
            state.records.appendRecords(to: &records)
            for buffer in state.buffers {
                for entry in buffer.published {
                    pendingSteps += entry.keptSteps
                    pendingEvents += entry.keptEvents
                    records.append(entry)
                }
            }
            return (state, state.records.totalSteps, state.records.totalEvents, state.records.texts)
        }
        // Each record's steps and event, in `seq` order (threads flush their buffers at
        // different times), the newest `ringCapacity` of each kept.
        var stepRefs: [RecordRef] = [], eventRefs: [RecordRef] = []
        stepRefs.reserveCapacity(records.count)
        eventRefs.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            record.forEachStep { seq, call, from, to in
                stepRefs.append(RecordRef(seq: seq, index: index, call: call, from: from, to: to))
            }
            record.forEachEvent { seq, node in
                eventRefs.append(RecordRef(seq: seq, index: index, call: .on, from: 0, to: node))
            }
        }
        let keptSteps = Self.newest(&stepRefs, options.keep == .all ? options.ringCapacity : 0)
        let keptEvents = Self.newest(&eventRefs, options.keep != .graph ? options.ringCapacity : 0)
        let droppedSteps = totalSteps + pendingSteps - keptSteps.count
        let droppedEvents = totalEvents + pendingEvents - keptEvents.count
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
            nodes.append(
                TraceNode(
                    id: id, kind: record.kind, type: record.type,
                    callSite: record.callSite?.description, fileID: record.callSite?.fileID,
                    created: record.created, disposed: record.disposed, deinitialized: record.deinitialized,
                    terminated: record.terminated, thread: threadName(record.thread), anomalies: record.anomalies
                ))
        }
        let edges = state.edges.filter { kept.contains($0.from) && kept.contains($0.to) }
        let steps = keptSteps.lazy.filter { $0.seq > since }.map { ref -> TraceStep in
            let record = records[ref.index]
            let value = self.describe(record, texts: texts)
            let detail = record.shape == .step ? value : TraceEventKind.describe(record.kind, value)
            return TraceStep(
                seq: ref.seq, from: UInt64(ref.from), to: UInt64(ref.to), call: ref.call, detail: detail,
                thread: threadName(record.thread))
        }
        let events = keptEvents.lazy.filter { $0.seq > since && kept.contains(UInt64($0.to)) }.map {
            ref -> TraceEvent in
            let record = records[ref.index]
            return TraceEvent(
                seq: ref.seq, node: UInt64(ref.to), kind: record.kind, value: self.describe(record, texts: texts),
                time: Self.seconds(record), virtualTime: record.parts.contains(.virtual),
                thread: threadName(record.thread)
            )
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

    /// A step or event of a record, for sorting them by `seq`.
    private struct RecordRef {
        var seq: UInt64
        /// The record in the snapshot's array.
        var index: Int
        /// A step's call, caller and callee; an event's node in `to`.
        var call: TraceCall
        var from: UInt32
        var to: UInt32
    }

    /// Sorts `refs` by `seq` and keeps the newest `capacity`.
    private static func newest(_ refs: inout [RecordRef], _ capacity: Int) -> ArraySlice<RecordRef> {
        var sorted = true
        var index = 1
        while index < refs.count {
            if refs[index - 1].seq > refs[index].seq { sorted = false; break }
            index += 1
        }
        if !sorted { refs.sort { $0.seq < $1.seq } }
        return refs.suffix(capacity)
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
            buffer.count.load(ordering: .relaxed) > 0
        else { return nil }
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
        state.records.append(contentsOf: buffer.published)
        buffer.count.store(0, ordering: .relaxed)
    }

    /// An event's time: the virtual clock under a virtual time scheduler, else seconds since the
    /// recorder was made, from one clock reading per delivery: a delivery that enters the
    /// pipeline from outside any traced delivery on this thread reads the clock (the `on` of a
    /// node and its own `forwardOn` that follows share one reading), and every event delivered
    /// synchronously inside it, on this thread, carries that reading.
    @inline(__always)
    private func eventTime(_ traceLocal: TraceLocal, _ shape: Shape, node: UInt64) -> (UInt64, Bool) {
        if traceLocal.virtualDepth > 0 { return (traceLocal.virtualNow.bitPattern, true) }
        let now: UInt64
        if traceLocal.deliveries > 0 {
            now = traceLocal.time
        } else if shape == .receivedForwarded {
            // The `on` reads the clock and its `forwardOn` reuses the reading.
            now = Self.monotonicNanoseconds()
            traceLocal.time = now
            traceLocal.timeOwner = 0
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
        return (now > startedAt ? now &- startedAt : 0, false)
    }

    // MARK: Helpers

    /// This recorder's number for a node id, 0 when another tracer (or none) issued it.
    @inline(__always)
    private func local(_ id: UInt64) -> UInt64 {
        let number = id &- idBase
        return id > idBase && number < (1 << Tracing.generationShift) ? number : 0
    }

    /// Whether an element is recorded as a copy of its bytes: plain data of at most three words
    /// (describing it later gives what describing it now would). Any other element is described
    /// when recorded: a reference could change, or be kept alive by the recording.
    @inline(__always)
    private static func isPlain<Element>(_ type: Element.Type) -> Bool {
        _isPOD(Element.self) && MemoryLayout<Element>.size <= 3 * MemoryLayout<UInt64>.size
            && MemoryLayout<Element>.alignment <= MemoryLayout<UInt64>.alignment
    }

    /// A description made now: inline when it fits in a record, else kept aside.
    private func capture(text: String?) -> Captured {
        guard var text else { return Captured() }
        text = truncate(text)
        let count = text.utf8.count
        guard count < 3 * MemoryLayout<UInt64>.size else { return Captured(text: text) }
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { buffer in
            text.withUTF8 { utf8 in buffer.copyMemory(from: UnsafeRawBufferPointer(utf8)) }
            buffer[buffer.count - 1] = UInt8(count)
        }
        return Captured(words: words, type: InlineText.self)
    }

    /// A record's time as the document gives it: seconds since the recorder was made, or the
    /// virtual time.
    private static func seconds(_ record: TraceRecord) -> Double {
        record.parts.contains(.virtual) ? Double(bitPattern: record.time) : Double(record.time) / 1e9
    }

    /// The value (or a step's detail) a record holds, as text.
    private func describe(_ record: TraceRecord, texts: [UInt64: String]) -> String? {
        if record.parts.contains(.text) { return texts[record.seq] ?? "" }
        guard let type = record.type else { return nil }
        if type == InlineText.self {
            return withUnsafeBytes(of: record.words) { buffer in
                String(decoding: buffer[..<Int(buffer[buffer.count - 1])], as: UTF8.self)
            }
        }
        func open<Element>(_ type: Element.Type) -> String { Self.describe(type, record.words) }
        return truncate(_openExistential(type, do: open))
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
