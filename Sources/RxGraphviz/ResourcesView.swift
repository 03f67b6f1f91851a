import RxTrace

/// The `resources` view: the live object count over the steps as a bar chart, and a table of
/// the types that peaked highest with their peak, their count at the end and a sparkline.
///
/// Uses the trace's resource samples; a trace without any is counted from node births and
/// deinitialisations.
struct ResourcesView {
    let document: TraceDocument
    let options: RenderOptions

    init(_ document: TraceDocument, _ options: RenderOptions) {
        self.document = document
        self.options = options
    }

    static let bars = 60
    static let topTypes = 8

    /// Samples in step order, filtered by type when asked.
    func samples() -> [ResourceSample] {
        var samples = document.resources.sorted { $0.seq < $1.seq }
        if samples.isEmpty {
            // Count from the nodes: +1 at creation, −1 at deinitialisation.
            var changes: [(seq: UInt64, type: String, delta: Int)] = []
            for node in document.nodes {
                changes.append((node.created, node.type, 1))
                if let gone = node.deinitialized { changes.append((gone, node.type, -1)) }
            }
            changes.sort { $0.seq != $1.seq ? $0.seq < $1.seq : $0.delta > $1.delta }
            var live: [String: Int] = [:]
            var total = 0
            var index = 0
            while index < changes.count {
                let seq = changes[index].seq
                while index < changes.count && changes[index].seq == seq {
                    live[changes[index].type, default: 0] += changes[index].delta
                    total += changes[index].delta
                    index += 1
                }
                samples.append(ResourceSample(seq: seq, total: total, byType: live.filter { $0.value != 0 }))
            }
        }
        if let filter = options.filterType, !filter.isEmpty {
            samples = samples.map { sample in
                let kept = sample.byType.filter { $0.key.localizedCaseInsensitiveContains(filter) }
                return ResourceSample(seq: sample.seq, total: kept.values.reduce(0, +), byType: kept)
            }
        }
        return samples
    }

    func build() throws(RenderError) -> DotGraph {
        let samples = samples()
        guard !samples.isEmpty else {
            throw .viewDoesNotFit("resources view: the trace has no resource samples and no nodes")
        }

        // Buckets: at most `bars` columns, each showing the highest count in it.
        let bucketCount = min(Self.bars, samples.count)
        var buckets: [[ResourceSample]] = Array(repeating: [], count: bucketCount)
        for (offset, sample) in samples.enumerated() { buckets[offset * bucketCount / samples.count].append(sample) }
        let totals = buckets.map { $0.map(\.total).max() ?? 0 }
        let peak = max(totals.max() ?? 0, 1)

        var peaks: [String: Int] = [:]
        for sample in samples { for (type, count) in sample.byType { peaks[type] = max(peaks[type] ?? 0, count) } }
        let last = samples.last!
        let top = peaks.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Self.topTypes)

        let h = DotID.html
        // The bar chart as a grid of small cells, filled up to each column's count.
        let levels = 12
        var chart = "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"1\" CELLPADDING=\"0\">"
        for level in stride(from: levels, through: 1, by: -1) {
            chart += "<TR>"
            if level == levels {
                chart +=
                    "<TD ROWSPAN=\"\(levels)\" VALIGN=\"TOP\" ALIGN=\"RIGHT\">"
                    + "<FONT POINT-SIZE=\"9\">\(peak) </FONT></TD>"
            }
            for total in totals {
                let filled = total > 0 && (total * levels + peak - 1) / peak >= level
                chart +=
                    filled
                    ? "<TD BGCOLOR=\"#4c78a8\" WIDTH=\"8\" HEIGHT=\"8\" FIXEDSIZE=\"TRUE\"></TD>"
                    : "<TD WIDTH=\"8\" HEIGHT=\"8\" FIXEDSIZE=\"TRUE\"></TD>"
            }
            chart += "</TR>"
        }
        chart += "<TR><TD ALIGN=\"RIGHT\"><FONT POINT-SIZE=\"9\">0 </FONT></TD>"
        chart +=
            "<TD COLSPAN=\"\(bucketCount)\"><FONT POINT-SIZE=\"9\" COLOR=\"#777777\">"
            + "step \(samples.first!.seq) … \(last.seq)</FONT></TD></TR></TABLE>"

        var table = "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"4\" COLOR=\"#cccccc\">"
        table += "<TR><TD><B>type</B></TD><TD><B>peak</B></TD><TD><B>at end</B></TD><TD><B>over the steps</B></TD></TR>"
        table +=
            "<TR><TD ALIGN=\"LEFT\"><B>total</B></TD><TD ALIGN=\"RIGHT\">\(totals.max() ?? 0)</TD>"
            + "<TD ALIGN=\"RIGHT\">\(last.total)</TD><TD ALIGN=\"LEFT\">\(Self.sparkline(totals))</TD></TR>"
        for (type, typePeak) in top {
            let series = buckets.map { $0.map { $0.byType[type] ?? 0 }.max() ?? 0 }
            let atEnd = last.byType[type] ?? 0
            let colour = atEnd > 0 ? " BGCOLOR=\"\(Palette.leakedFill)\"" : ""
            table +=
                "<TR><TD ALIGN=\"LEFT\">\(h(type))</TD><TD ALIGN=\"RIGHT\">\(typePeak)</TD>"
                + "<TD ALIGN=\"RIGHT\"\(colour)>\(atEnd)</TD><TD ALIGN=\"LEFT\">\(Self.sparkline(series))</TD></TR>"
        }
        table += "</TABLE>"

        var graph = DotGraph(
            name: "resources",
            attributes: [
                "rankdir": "TB", "fontname": "Helvetica", "fontsize": "11", "labelloc": "t",
                "label": .text(
                    "live objects over \(samples.count) samples: peak \(totals.max() ?? 0), \(last.total) at the end"),
            ],
            nodeDefaults: ["fontname": "Helvetica", "fontsize": "10", "shape": "plain"])
        graph.root.nodes.append(DotNode("chart", ["label": .html(chart)]))
        graph.root.nodes.append(DotNode("types", ["label": .html(table)]))
        graph.root.edges.append(DotEdge("chart", "types", ["style": "invis"]))
        return graph
    }

    /// `▁▃▇█` scaled to the series' own peak.
    static func sparkline(_ values: [Int]) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        let top = max(values.max() ?? 0, 1)
        // Counts below zero (a malformed trace: a node gone before it was made) draw as zero;
        // counts too large to scale in `Int` are scaled in `Double`.
        return String(
            values.map { value in
                let clamped = max(0, value)
                let (scaled, overflow) = clamped.multipliedReportingOverflow(by: blocks.count - 1)
                let index = overflow ? Int(Double(clamped) / Double(top) * Double(blocks.count - 1)) : scaled / top
                return blocks[min(blocks.count - 1, max(0, index))]
            })
    }
}
