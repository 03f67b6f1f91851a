import Foundation

// Reading a recording: the records of the ring and of the threads' buffers expanded into the
// document's steps and events, in `seq` order.

extension TraceRecorder {
    /// The recording so far as a trace document. With `since`, only what happened after clock
    /// value `since`: nodes born after it, edges between those, later steps, events and samples
    public func snapshot(since: UInt64 = 0, meta extraMeta: [String: String] = [:]) -> TraceDocument {
        // The ring's records and what the threads' buffers hold (read in place, under the lock).
        var records: [TraceRecord] = []
        var pendingSteps = 0, pendingEvents = 0
        let (state, totalSteps, totalEvents, texts, lines) = self.state.withLock { state in
            Self.sample(&state, seq: clock.load(ordering: .relaxed), force: true, interval: 1)
            // A streamed recording: the threads' lanes and buffers into `stream` first.
            if streamed { Self.absorb(into: &state, clock: eventClock) }
            state.records.appendRecords(to: &records)
            if let stream = state.stream {
                // A streamed recording keeps what an open scope needs (`record(meta:_:)`).
                for entry in stream.retained + Self.widened(stream.records, stream.pieces, lines: stream.timeLines) {
                    pendingSteps += entry.keptSteps
                    pendingEvents += entry.keptEvents
                    records.append(entry)
                }
            }
            var buffered: [TraceRecord] = []
            for buffer in state.buffers where !streamed { RecordSlot.expand(buffer.undrained, into: &buffered) }
            for entry in buffered {
                pendingSteps += entry.keptSteps
                pendingEvents += entry.keptEvents
                records.append(entry)
            }
            var texts = state.records.texts
            if let stream = state.stream {
                texts.merge(stream.retainedTexts) { old, _ in old }
                texts.merge(Self.textsBySeq(stream.records, stream.texts)) { old, _ in old }
            }
            // A line to a pair read after the records: every time they hold lies before it. (A
            // streamed recording's were made nanoseconds by `absorb`.)
            if !streamed { state.timeLines.extend(eventClock) }
            let lines = streamed ? nil : state.timeLines
            return (state, state.records.totalSteps, state.records.totalEvents, texts, lines)
        }
        if let lines { records.withUnsafeMutableBufferPointer { Self.convertTimes($0, along: lines) } }
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
        for (offset, record) in state.nodes.entries() where record.created > since {
            let id = UInt64(offset + 1)
            kept.insert(id)
            nodes.append(
                TraceNode(
                    id: id, kind: record.kind, type: record.type,
                    callSite: record.callSite?.description, fileID: record.callSite?.fileID,
                    created: record.created, disposed: record.disposed, deinitialized: record.deinitialized,
                    terminated: record.terminated, thread: threadName(record.thread), anomalies: record.anomalies,
                    createdAt: record.createdAt.map { Self.seconds($0) },
                    disposedAt: record.disposedAt.map { Self.seconds($0) },
                    deinitializedAt: record.deinitializedAt.map { Self.seconds($0) },
                    terminatedAt: record.terminatedAt.map { Self.seconds(lines?.nanoseconds($0) ?? $0) }
                ))
        }
        // A streamed recording keeps edges with their nodes.
        let allEdges = streamed ? state.nodes.entries().flatMap(\.element.edges) : state.edges
        let edges = allEdges.filter { kept.contains($0.from) && kept.contains($0.to) }
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
        let resourceRecords = state.stream.map { $0.retainedResources + $0.resources } ?? state.resources.elements
        let resources = resourceRecords.lazy.filter { $0.seq >= since }.map { record -> ResourceSample in
            var byType: [String: Int] = [:]
            var total = 0
            for (index, count) in record.counts.enumerated() where count != 0 {
                byType[counters[index], default: 0] += count
                total += count
            }
            return ResourceSample(seq: record.seq, total: total, byType: byType)
        }
        var extraMeta = extraMeta
        if since > 0 { extraMeta["since"] = extraMeta["since"] ?? String(since) }
        if state.anomaliesDropped > 0 {
            extraMeta["anomaliesDropped"] = extraMeta["anomaliesDropped"] ?? String(state.anomaliesDropped)
        }
        let meta = self.meta(extraMeta)
        let marks = state.marks.filter { $0.seq > since }.map {
            TraceMark(seq: $0.seq, kind: $0.kind, name: $0.name, thread: threadName($0.thread))
        }
        return TraceDocument(
            meta: meta, nodes: nodes, edges: edges, steps: Array(steps), events: Array(events),
            resources: Array(resources),
            dropped: DroppedCounts(steps: droppedSteps, events: droppedEvents, resources: state.resources.dropped),
            marks: marks
        )
    }

    /// The facts a trace's meta gives about this recording, with `extra` added (or replacing).
    func meta(_ extra: [String: String]) -> [String: String] {
        var meta: [String: String] = [
            "program": ProcessInfo.processInfo.processName,
            "started": Self.iso8601Seconds(startDate),
            "keep": options.keep.rawValue,
            "valueLimit": String(options.valueLimit),
        ]
        if streamed { meta["streamed"] = "true" } else { meta["ringCapacity"] = String(options.ringCapacity) }
        meta.merge(extra) { _, new in new }
        return meta
    }

    /// `date` in UTC to the second, as `Date.ISO8601Format()` writes it ("2026-11-27T08:35:31Z"),
    /// from the C library's `gmtime_r`. Not `ISO8601DateFormatter` (ICU: about 3.6 M instructions
    /// and its data mapped at the start of every traced process), nor Foundation's own style
    /// (about 1.5 M instructions the first time: its formatter's set-up).
    static func iso8601Seconds(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ number: Int32, _ width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-" + padded(parts.tm_mday, 2)
            + "T" + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2) + ":" + padded(parts.tm_sec, 2) + "Z"
    }

    /// A step or event of a record, for sorting them by `seq`.
    struct RecordRef {
        var seq: UInt64
        /// The record in the snapshot's array.
        var index: Int
        /// A step's call, caller and callee; an event's node in `to`.
        var call: TraceCall
        var from: UInt32
        var to: UInt32
    }

    /// Sorts `refs` by `seq` and keeps the newest `capacity`.
    static func newest(_ refs: inout [RecordRef], _ capacity: Int) -> ArraySlice<RecordRef> {
        var sorted = true
        var index = 1
        while index < refs.count {
            if refs[index - 1].seq > refs[index].seq { sorted = false; break }
            index += 1
        }
        if !sorted { refs.sort { $0.seq < $1.seq } }
        return refs.suffix(capacity)
    }

    /// A record's time as the document gives it: seconds since the recorder was made, or the
    /// virtual time.
    /// Nanoseconds since the recording started (`elapsed()`) as the documents' seconds.
    static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }

    static func seconds(_ record: TraceRecord) -> Double {
        record.parts.contains(.virtual) ? Double(bitPattern: record.time) : Double(record.time) / 1e9
    }

    /// The value (or a step's detail) a record holds, as text.
    func describe(_ record: TraceRecord, texts: [UInt64: String]) -> String? {
        describe(record, text: record.parts.contains(.text) ? texts[record.seq] ?? "" : nil)
    }

    /// The value a record holds, as text, given its text when it carries one (`.text`).
    func describe(_ record: TraceRecord, text: String?) -> String? {
        if record.parts.contains(.text) { return text ?? "" }
        guard let type = record.type else { return nil }
        if type == TraceDetailWords.self {
            let detail = TraceDetail(rawValue: UInt8(truncatingIfNeeded: record.words.0)) ?? .subscribe
            return detail.text(record.words.1, record.words.2)
        }
        if type == InlineText.self {
            return withUnsafeBytes(of: record.words) { buffer in
                String(decoding: buffer[..<Int(buffer[buffer.count - 1])], as: UTF8.self)
            }
        }
        func open<Element>(_ type: Element.Type) -> String { Self.describe(type, record.words) }
        return truncate(_openExistential(type, do: open))
    }

    static func describe<Element>(_ type: Element.Type, _ words: (UInt64, UInt64, UInt64)) -> String {
        let element = withUnsafeBytes(of: words) { $0.load(as: Element.self) }
        return traceDescription(element)
    }
}
