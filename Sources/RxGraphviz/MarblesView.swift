import RxTrace

/// The `marbles` view: one lane per node that received events, the events on a shared time
/// axis, `|` for completion and `X` for an error, as RxMarbles draws them.
///
/// Under a virtual-time scheduler the axis is virtual time. Otherwise it is the order of the
/// run: each event takes the next slot, except that an event forwarded straight from the lane
/// above shares that lane's slot, so one element's trip down a chain reads as one column.
struct MarblesView {
    let document: TraceDocument
    let options: RenderOptions
    let structure: TraceStructure

    init(_ document: TraceDocument, _ options: RenderOptions) {
        self.document = document
        self.options = options
        structure = TraceStructure(document)
    }

    func build() throws(RenderError) -> DotGraph {
        var scope: Set<UInt64>? = nil
        if let id = options.subscription {
            guard let chosen = structure.subscription(containing: id) else {
                throw .viewDoesNotFit("marbles view: no subscription contains node \(id)")
            }
            scope = chosen.allNodes
        }
        let events = document.events.filter { event in
            guard let node = structure.byID[event.node], options.matches(node) else { return false }
            return scope?.contains(event.node) ?? true
        }.sorted { $0.seq < $1.seq }
        guard !events.isEmpty else {
            throw .viewDoesNotFit(
                "marbles view: no events\(document.events.isEmpty ? " in the trace" : " match the filters")")
        }

        // Lanes in order of their first event: upstream above downstream.
        var lanes: [UInt64] = []
        var seen = Set<UInt64>()
        for event in events where seen.insert(event.node).inserted { lanes.append(event.node) }
        guard lanes.count <= options.maxMarbleLanes else {
            throw .viewDoesNotFit(
                "marbles view: \(lanes.count) lanes, more than the limit of \(options.maxMarbleLanes); choose lanes "
                    + "with --filter-type, --filter-site or --subscription"
            )
        }

        // Column of each event.
        let virtual = events.allSatisfy(\.virtualTime)
        var column: [Int] = []
        var axis: [String] = []
        if virtual {
            let times = Array(Set(events.map(\.time))).sorted()
            var index: [Double: Int] = [:]
            for (offset, time) in times.enumerated() { index[time] = offset }
            column = events.map { index[$0.time]! }
            axis = times.map(Self.format)
        } else {
            var forwards = Set<String>()
            for edge in document.edges where edge.relation == .forward { forwards.insert("\(edge.from)>\(edge.to)") }
            var current = -1
            var used = Set<UInt64>()
            var previous: UInt64? = nil
            for event in events {
                if let previous, forwards.contains("\(previous)>\(event.node)"), !used.contains(event.node) {
                    // Same slot as the lane that forwarded it.
                } else {
                    current += 1
                    used = []
                    axis.append("\(event.seq)")
                }
                used.insert(event.node)
                column.append(current)
                previous = event.node
            }
        }
        let columns = axis.count
        guard columns <= options.maxMarbleColumns else {
            throw .viewDoesNotFit(
                "marbles view: \(columns) time slots, more than the limit of \(options.maxMarbleColumns); choose "
                    + "lanes with --filter-type, --filter-site or --subscription"
            )
        }

        // The first step of each slot: a lane is blank before its node was born.
        var slotSeq = Array(repeating: UInt64.max, count: columns)
        for (offset, event) in events.enumerated() { slotSeq[column[offset]] = min(slotSeq[column[offset]], event.seq) }

        var cells: [UInt64: [Int: [TraceEvent]]] = [:]
        var ended: [UInt64: Int] = [:]
        for (offset, event) in events.enumerated() {
            cells[event.node, default: [:]][column[offset], default: []].append(event)
            if event.kind != .next, ended[event.node] == nil { ended[event.node] = column[offset] }
        }

        let h = DotID.html
        var html = "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"2\" CELLPADDING=\"3\">"
        for lane in lanes {
            let node = structure.byID[lane]!
            html +=
                "<TR><TD ALIGN=\"RIGHT\"><B>\(h(node.type))</B> "
                + "<FONT COLOR=\"#777777\">\(h(node.siteAndID))</FONT></TD>"
            for slot in 0..<columns {
                if let here = cells[lane]?[slot] {
                    html += "<TD>" + here.map(marble).joined(separator: " ") + "</TD>"
                } else if let end = ended[lane], slot > end {
                    html += "<TD></TD>"
                } else if node.created > slotSeq[slot] {
                    html += "<TD></TD>"
                } else {
                    html += "<TD><FONT COLOR=\"#999999\">──</FONT></TD>"
                }
            }
            html += ended[lane] == nil ? "<TD><FONT COLOR=\"#999999\">→</FONT></TD></TR>" : "<TD></TD></TR>"
        }
        html += queueLane(slotSeq: slotSeq)
        html += "<TR><TD ALIGN=\"RIGHT\"><FONT COLOR=\"#777777\">\(virtual ? "virtual time" : "step")</FONT></TD>"
        for label in axis { html += "<TD><FONT POINT-SIZE=\"8\" COLOR=\"#777777\">\(h(label))</FONT></TD>" }
        html += "<TD></TD></TR></TABLE>"

        var graph = DotGraph(
            name: "marbles",
            attributes: [
                "fontname": "Helvetica", "fontsize": "11", "labelloc": "t",
                "label": .text("\(lanes.count) lanes, \(events.count) events"),
            ],
            nodeDefaults: ["fontname": "Helvetica", "fontsize": "10", "shape": "plain"])
        graph.root.nodes.append(DotNode("marbles", ["label": .html(html)]))
        return graph
    }

    /// A last lane for the `CurrentThreadScheduler`'s queue, when the trace recorded it (its
    /// `enqueue` and `dequeue` steps): how much work waited when each slot's first event happened.
    private func queueLane(slotSeq: [UInt64]) -> String {
        let changes = document.steps.sorted { $0.seq < $1.seq }.compactMap { step -> (UInt64, Int)? in
            switch step.call {
            case .enqueue: return (step.seq, 1)
            case .dequeue: return (step.seq, -1)
            default: return nil
            }
        }
        guard !changes.isEmpty else { return "" }
        var html = "<TR><TD ALIGN=\"RIGHT\"><B>CurrentThreadScheduler</B> <FONT COLOR=\"#777777\">queued</FONT></TD>"
        // Steps and slots both in `seq` order: one sweep. Counted from the recording's start, so
        // a queue that was not empty then reads low.
        var next = 0, waiting = 0
        for seq in slotSeq {
            while next < changes.count, changes[next].0 < seq {
                waiting += changes[next].1
                next += 1
            }
            html += "<TD><FONT COLOR=\"#777777\">\(waiting <= 0 ? "·" : String(waiting))</FONT></TD>"
        }
        return html + "<TD></TD></TR>"
    }

    private func marble(_ event: TraceEvent) -> String {
        let h = DotID.html
        switch event.kind {
        case .next:
            let value = DotID.truncate(event.value ?? "•", 16)
            return "<FONT COLOR=\"#1f4e79\"><B>(\(h(value)))</B></FONT>"
        case .completed:
            return "<B>|</B>"
        case .error:
            return "<FONT COLOR=\"#d62728\"><B>X</B> \(h(DotID.truncate(event.value ?? "error", 24)))</FONT>"
        }
    }

    static func format(_ time: Double) -> String {
        time == time.rounded() && abs(time) < 1e15 ? String(Int64(time)) : String(time)
    }
}
