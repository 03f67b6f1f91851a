import Foundation

// How a traced call becomes one `TraceRecord`: the per-element hooks the core calls when the
// installed tracer is this recorder (`TraceHook`: given this thread's state, and specialised for
// the element type where the caller is), and the one builder behind every record of a call.

extension TraceRecorder {
    typealias Shape = TraceRecord.Shape

    @inline(__always)
    func forwardedNext<Element>(
        _ traceLocal: TraceLocal, from sink: UInt64, to observer: UInt64, element: Element, recordEvent: Bool,
        form: TraceElementForm = .unknown
    ) {
        recordNext(
            traceLocal, .forwarded, .forwardOn, from: sink, to: observer, element: element, recordEvent: recordEvent,
            form: form)
    }

    @inline(__always)
    func receivedNext<Element>(
        _ traceLocal: TraceLocal, _ call: TraceCall, node: UInt64, element: Element, recordEvent: Bool
    ) {
        recordNext(
            traceLocal, .received, call, from: RunContext.caller(of: node, traceLocal), to: node, element: element,
            recordEvent: recordEvent)
    }

    @inline(__always)
    func observedNext<Element>(_ traceLocal: TraceLocal, node: UInt64, element: Element) {
        recordNext(
            traceLocal, .observed, .on, from: RunContext.caller(of: node, traceLocal), to: node, element: element,
            recordEvent: true)
    }

    /// A sink's `forwardedNext(…, recordEvent: false)` into `node` and then `node`'s own
    /// `observedNext`, as one record, which the observer writes (`TraceHop.mergesObserved`): its
    /// steps, event, `seq`s and time are the two records'. The sink is the observer's caller.
    @inline(__always)
    func forwardedObservedNext<Element>(_ traceLocal: TraceLocal, node: UInt64, element: Element) {
        guard Self.isPlain(Element.self), local(node) != 0 else {
            return forwardedThenObservedNext(traceLocal, node: node, element: element)
        }
        recordNext(
            traceLocal, .forwardedObserved, .forwardOn, from: RunContext.caller(of: node, traceLocal), to: node,
            element: element, recordEvent: true)
    }

    /// `forwardedObservedNext` as the two records: an element described now, or an observer
    /// of another recorder. Out of line, as `receivedThenForwardedNext`.
    @inline(never)
    private func forwardedThenObservedNext<Element>(_ traceLocal: TraceLocal, node: UInt64, element: Element) {
        forwardedBeforeDelivery(traceLocal, node: node, element: element)
        observedNext(traceLocal, node: node, element: element)
    }

    /// The sink's record of a `forwardOn` it left to the observer (`forwardedObservedNext`), alone:
    /// the observer had stopped, or is not a node of this recorder. Its time is read as the sink
    /// would have read it, before its delivery to `node` (which is under way).
    @inline(never)
    func forwardedBeforeDelivery<Element>(_ traceLocal: TraceLocal, node: UInt64, element: Element) {
        let sink = RunContext.caller(of: node, traceLocal)
        traceLocal.deliveries &-= 1
        forwardedNext(traceLocal, from: sink, to: node, element: element, recordEvent: false)
        traceLocal.deliveries &+= 1
    }

    /// `receivedNext(.on, node:…)` and then `forwardedNext(from: node, …)`, as one record: a
    /// sink's own `on` and the `forwardOn` it does next (`create`'s sink), with nothing between
    /// them on this thread.
    @inline(__always)
    func receivedAndForwardedNext<Element>(
        _ traceLocal: TraceLocal, node: UInt64, to observer: UInt64, element: Element, recordEvent: Bool,
        form: TraceElementForm = .unknown
    ) {
        guard form.isWord || Self.isPlain(Element.self), local(node) != 0 else {
            return receivedThenForwardedNext(
                traceLocal, node: node, to: observer, element: element, recordEvent: recordEvent)
        }
        recordNext(
            traceLocal, .receivedForwarded, .on, from: node, to: observer, element: element, recordEvent: recordEvent,
            form: form)
    }

    /// `receivedAndForwardedNext` as two records: an element described now, or a sink of another
    /// recorder. Out of line, so that the hook above inlines one `recordNext`, not three.
    @inline(never)
    private func receivedThenForwardedNext<Element>(
        _ traceLocal: TraceLocal, node: UInt64, to observer: UInt64, element: Element, recordEvent: Bool
    ) {
        receivedNext(traceLocal, .on, node: node, element: element, recordEvent: true)
        forwardedNext(traceLocal, from: node, to: observer, element: element, recordEvent: recordEvent)
    }

    /// The record of a `next`. An element kept as its bytes (`isPlain`) is written in place into
    /// this thread's buffer; any other is described now. `form`, when the caller's hop knows it
    /// (a sink's), says so without asking `Element`'s metadata (see `TraceElementForm`).
    @inline(__always)
    private func recordNext<Element>(
        _ traceLocal: TraceLocal, _ shape: Shape, _ call: TraceCall, from: UInt64, to: UInt64, element: Element,
        recordEvent: Bool, form: TraceElementForm = .unknown
    ) {
        if !keepSteps && !keepEvents { return }
        guard form.isWord || Self.isPlain(Element.self) else {
            return recordDescribed(
                traceLocal, shape, call, from: from, to: to, element: element, recordEvent: recordEvent)
        }
        guard var entry = prepare(traceLocal, shape, call, from: from, to: to, kind: .next, recordEvent: recordEvent)
        else { return }
        entry.seq = tick(entry.clockValues)
        if form.isWord, RecordSlot.fitsOne(type: form.type, thread: entry.thread) {
            entry.words.0 = unsafeBitCast(element, to: UInt64.self)
            let slot = RecordSlot(entry, type: form.type)
            return buffer(traceLocal)._withUnsafeGuaranteedRef { $0.append(self, slots: 1) { $0.initialize(to: slot) } }
        }
        let type = traceLocal.recordTypeNumber(Element.self)
        buffer(traceLocal)._withUnsafeGuaranteedRef { buffer in
            // The element's bytes straight into the record (no copy through a local). A
            // one-word element as a word: `storeBytes(of:as:)` of the generic element,
            // unspecialised where the sinks call, is a runtime call and a `memcpy`.
            if MemoryLayout<Element>.size <= MemoryLayout<UInt64>.size,
                RecordSlot.fitsOne(type: type, thread: entry.thread)
            {
                buffer.append(self, slots: 1) { slot in
                    slot.initialize(to: RecordSlot(entry, type: type))
                    let word = UnsafeMutableRawPointer(slot) + RecordSlot.wordOffset
                    if MemoryLayout<Element>.size == MemoryLayout<UInt64>.size {
                        word.storeBytes(of: unsafeBitCast(element, to: UInt64.self), as: UInt64.self)
                    } else {
                        word.storeBytes(of: element, as: Element.self)
                    }
                }
            } else {
                // Two slots: the value's three words run on from the first slot's last field.
                entry.type = Element.self
                buffer.append(self, slots: 2) { slot in
                    RecordSlot.initializeWide(slot, to: entry)
                    (UnsafeMutableRawPointer(slot) + RecordSlot.wordOffset).storeBytes(of: element, as: Element.self)
                }
            }
        }
    }

    /// A step whose detail is in the record's words already (`type` says how they are read; nil:
    /// no detail): a `TraceDetail` and its numbers, or a detail known when the program is built
    /// (`TraceConstantDetail`). A streamed recording appends it to the thread's lane with no
    /// `String` made, copied or released.
    @inline(__always)
    func step(_ call: TraceCall, from: UInt64, to: UInt64, words: (UInt64, UInt64, UInt64), as type: Any.Type?) {
        guard keepSteps else { return }
        guard streamed else { return step(call, from: from, to: to, captured: Captured(words: words, type: type)) }
        TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef { traceLocal in
            var record = TraceRecord(
                seq: 0, time: 0, words: words, type: type, from: UInt32(truncatingIfNeeded: local(from)),
                to: UInt32(truncatingIfNeeded: local(to)), thread: TraceThreads.current(traceLocal), call: call,
                kind: .next, shape: .step, parts: [.steps, .keptSteps])
            record.seq = tick()
            inLane(traceLocal) { $0.records.append(record) }
        }
    }

    /// `record` of an element that is not kept as its bytes: described now. Out of line, so that
    /// `recordNext` stays small enough to be inlined into the hot hooks.
    @inline(never)
    private func recordDescribed<Element>(
        _ traceLocal: TraceLocal, _ shape: Shape, _ call: TraceCall, from: UInt64, to: UInt64, element: Element,
        recordEvent: Bool
    ) {
        record(
            traceLocal, shape, call, from: from, to: to, kind: .next, value: capture(text: traceDescription(element)),
            recordEvent: recordEvent)
    }

    /// The record of a call whose value is described already (`captured`). Elements go into this
    /// thread's buffer with no lock; a stop event (which also marks the node terminated) and a
    /// value whose text does not fit in a record go straight into the ring, under the lock,
    /// after this thread's buffer (or into the thread's lane, for a streamed recording).
    @inline(__always)
    func record(
        _ traceLocal: TraceLocal, _ shape: Shape, _ call: TraceCall, from: UInt64, to: UInt64, kind: TraceEventKind,
        value captured: Captured, recordEvent: Bool
    ) {
        guard var entry = prepare(traceLocal, shape, call, from: from, to: to, kind: kind, recordEvent: recordEvent)
        else { return }
        entry.words = captured.words
        entry.type = captured.type
        if captured.text != nil { entry.parts.insert(.text) }
        let count = entry.clockValues
        let terminates = recordEvent && entry.to != 0 && kind != .next
        if captured.text == nil, !terminates {
            entry.seq = tick(count)
            let type = captured.type.map { traceLocal.recordTypeNumber($0) } ?? 0
            buffer(traceLocal)._withUnsafeGuaranteedRef { $0.append(self, entry, type: type) }
            return
        }
        if streamed {
            let last: UInt64
            if count > 0 {
                entry.seq = tick(count)
                last = entry.seq &+ count &- 1
            } else {
                last = clock.load(ordering: .relaxed)
            }
            return inLane(traceLocal) { lane in
                if count > 0 {
                    lane.records.append(entry)
                    if let text = captured.text { lane.texts.append(text) }
                }
                if terminates { lane.ops.append(.terminated(Int(entry.to) - 1, last, at: stopTime(entry))) }
            }
        }
        let buffer = ownBuffer(traceLocal)
        state.withLock { state in
            if let buffer { Self.flush(buffer, into: &state) }
            let last: UInt64
            if count > 0 {
                entry.seq = tick(count)
                Self.keep(&state, entry, text: captured.text)
                last = entry.seq &+ count &- 1
            } else {
                last = clock.load(ordering: .relaxed)
            }
            if terminates { Self.terminate(&state, UInt64(entry.to), last, at: stopTime(entry)) }
        }
    }

    /// One traced call's record before its value and `seq`: which steps and events it keeps, its
    /// time and thread. Nil when it keeps nothing: no step or event kept, and no stop event to
    /// note on its node.
    @inline(__always)
    private func prepare(
        _ traceLocal: TraceLocal, _ shape: Shape, _ call: TraceCall, from: UInt64, to: UInt64, kind: TraceEventKind,
        recordEvent: Bool
    ) -> TraceRecord? {
        let from = local(from), to = local(to)
        // A hop is recorded from its sink even when the observer is not a node of this recorder;
        // anything else is about its `to` node.
        if shape != .forwarded && shape != .receivedForwarded, to == 0 { return nil }
        let toEvent = keepEvents && recordEvent && to != 0
        // `.receivedForwarded`: the sink's own event on `from`, then (`.secondEvent`) the one on `to`.
        let firstEvent = shape == .receivedForwarded ? keepEvents : toEvent
        let secondEvent = shape == .receivedForwarded && toEvent
        let about = shape == .forwarded || shape == .receivedForwarded || shape == .forwardedObserved ? from : to
        let time = keepEvents ? eventTime(traceLocal, shape, node: about) : (0 as UInt64, false)
        var parts: TraceRecord.Parts = keepSteps ? [.steps, .keptSteps] : []
        if firstEvent { parts.formUnion([.event, .keptEvent]) }
        if secondEvent { parts.insert(.secondEvent) }
        if time.1 { parts.insert(.virtual) }
        let terminates = recordEvent && to != 0 && kind != .next
        if !keepSteps && !firstEvent && !terminates { return nil }
        return TraceRecord(
            seq: 0, time: time.0, words: (0, 0, 0), type: nil,
            from: UInt32(truncatingIfNeeded: from), to: UInt32(truncatingIfNeeded: to),
            thread: TraceThreads.current(traceLocal), call: call, kind: kind, shape: shape, parts: parts)
    }

    /// An event's time: the virtual clock under a virtual time scheduler, else a reading of
    /// `eventClock` (made nanoseconds since the start when the recording is read), one reading
    /// per delivery: a delivery that enters the pipeline from outside any traced delivery on this
    /// thread reads the clock (the `on` of a node and its own `forwardOn` that follows share one
    /// reading), and every event delivered synchronously inside it, on this thread, carries that
    /// reading.
    @inline(__always)
    func eventTime(_ traceLocal: TraceLocal, _ shape: Shape, node: UInt64) -> (UInt64, Bool) {
        if traceLocal.virtualDepth > 0 { return (traceLocal.virtualNow.bitPattern, true) }
        let now: UInt64
        // `.forwardedObserved` is written inside the sink's delivery: its time is the sink's,
        // read outside it.
        if traceLocal.deliveries > (shape == .forwardedObserved ? 1 : 0) {
            now = traceLocal.time
        } else if shape == .receivedForwarded {
            // The `on` reads the clock and its `forwardOn` reuses the reading.
            now = eventClock.now()
            traceLocal.time = now
            traceLocal.timeReadBy = 0
        } else if shape == .forwarded || shape == .forwardedObserved {
            if traceLocal.timeReadBy != node || node == 0 {
                traceLocal.time = eventClock.now()
            }
            now = traceLocal.time
            traceLocal.timeReadBy = 0
        } else {
            now = eventClock.now()
            traceLocal.time = now
            traceLocal.timeReadBy = node
        }
        return (now, false)
    }

    /// Whether an element is recorded as a copy of its bytes: plain data of at most three words
    /// (describing it later gives what describing it now would). Any other element is described
    /// when recorded: a reference could change, or be kept alive by the recording.
    @inline(__always)
    static func isPlain<Element>(_ type: Element.Type) -> Bool {
        _isPOD(Element.self) && MemoryLayout<Element>.size <= 3 * MemoryLayout<UInt64>.size
            && MemoryLayout<Element>.alignment <= MemoryLayout<UInt64>.alignment
    }

    /// A description made now: inline when it fits in a record, else kept aside.
    func capture(text: String?) -> Captured {
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

    /// When a node that `record` (a stop event) terminates did, as a reading of `eventClock`:
    /// the event's time, so that a subscription's span ends at its last event; read now when
    /// the event has none (events not kept) or a virtual one.
    @inline(__always)
    func stopTime(_ record: TraceRecord) -> UInt64 {
        keepEvents && !record.parts.contains(.virtual) ? record.time : eventClock.now()
    }

    /// Nanoseconds since the recording started, on `CLOCK_MONOTONIC`: when nodes are born,
    /// disposed of and deinitialized (a timeline's subscription spans).
    @inline(__always)
    func elapsed() -> UInt64 {
        let now = EventClock.monotonicNanoseconds()
        return now > startedAt ? now &- startedAt : 0
    }
}

/// A step's detail known when the program is built (`"SinkDisposer"`), or none: kept as the
/// record's words once, so that the recorder makes no `String` for it at every step; any other
/// tracer gets the text.
struct TraceConstantDetail {
    let text: String?
    let words: (UInt64, UInt64, UInt64)
    let type: Any.Type?

    /// No detail.
    static let none = TraceConstantDetail(text: nil, words: (0, 0, 0), type: nil)
    static let sinkDisposer = TraceConstantDetail(inline: "SinkDisposer")
    static let currentThreadScheduler = TraceConstantDetail(inline: "CurrentThreadScheduler")

    private init(text: String?, words: (UInt64, UInt64, UInt64), type: Any.Type?) {
        self.text = text
        self.words = words
        self.type = type
    }

    /// A text of at most 23 bytes, as `InlineText` words: the bytes, their count in the last.
    init(inline text: String) {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var text = text
        let count = text.utf8.count
        precondition(count < 3 * MemoryLayout<UInt64>.size, "an inline detail holds at most 23 bytes")
        withUnsafeMutableBytes(of: &words) { buffer in
            text.withUTF8 { buffer.copyMemory(from: UnsafeRawBufferPointer($0)) }
            buffer[buffer.count - 1] = UInt8(count)
        }
        self.init(text: text, words: words, type: InlineText.self)
    }
}

extension RxTracer {
    /// `step(_:from:to:detail:)` with a constant detail: the recorder keeps its words (no text
    /// made per step), any other tracer gets its text.
    @inline(__always)
    func step(_ call: TraceCall, from caller: UInt64, to callee: UInt64, constant detail: TraceConstantDetail) {
        // The recorder is a final class: its type says it, with no dynamic cast.
        if type(of: self) == TraceRecorder.self {
            unsafeDowncast(self, to: TraceRecorder.self).step(
                call, from: caller, to: callee, words: detail.words, as: detail.type)
        } else {
            step(call, from: caller, to: callee, detail: detail.text)
        }
    }
}

/// How the recorder keeps the elements of one type, worked out once for a sink's hop when the
/// sink is born (`TraceHop.sinkBorn`) instead of at every element: the sinks' element paths are
/// unspecialised, and asking their `Element` type whether it is plain, how wide it is and what
/// number it has (`TraceTypes`) read its value witnesses and the thread's cache of numbers at
/// every record. A plain one-word element (`Int`, `Double`…) is then stored as a word with its
/// type's number; any other form is `.unknown` and asks the type, as before. The records are
/// the same either way.
struct TraceElementForm {
    /// The element type's number in `TraceTypes` when its values are one plain word; 0 otherwise.
    let type: UInt16

    /// Nothing known: ask the element's type.
    static let unknown = TraceElementForm(0)

    /// Whether the elements are one plain word, their type numbered `type`.
    @inline(__always)
    var isWord: Bool { type != 0 }

    private init(_ type: UInt16) { self.type = type }

    /// The form of `Element`'s values (its number from this thread's cache of sinks' types).
    @inline(never)
    static func of<Element>(_: Element.Type) -> TraceElementForm {
        guard TraceRecorder.isPlain(Element.self), MemoryLayout<Element>.size == MemoryLayout<UInt64>.size
        else { return .unknown }
        let number = TraceLocal.current.sinkElementTypes.number(of: Element.self)
        return number == RecordSlot.wide ? .unknown : TraceElementForm(number)
    }
}
