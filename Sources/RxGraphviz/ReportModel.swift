import Foundation
import RxTrace

/// What the page of `rxtrace report` shows: the `graph` view laid out as SVG, and the trace
/// (nodes, relations, calls, events, live counts, subscriptions, leaks, anomalies) as the
/// JSON its script reads.
///
/// The page never reads a trace file: it gets this, made from the `TraceDocument` the reader
/// returned, so a new file format changes only the reader. The JSON is columns of numbers
/// with one shared table of strings (`strings`), which keeps a 40,000-node trace to a few
/// megabytes and quick to parse; `Sources/rxtrace/Report/report.js` reads it.
///
/// Every `seq` is the trace's own clock. A node is drawn as `graph.svg[nodes.drawn[i]]`
/// (the SVG id of its node, or of the `×N` node its inner subscription collapsed into), or
/// not at all (-1: filtered out, or the graph did not fit).
package struct ReportModel: Encodable {
    package struct Nodes: Encodable {
        var id: [UInt64] = []
        var kind: [Int] = []
        var type: [Int] = []
        /// `main.swift:7`; -1 when unknown (so are `file` and `thread`).
        var site: [Int] = []
        var file: [Int] = []
        var thread: [Int] = []
        /// `seq` of birth, disposal, deinit and termination; 0 when it did not happen.
        var created: [UInt64] = []
        var disposed: [UInt64] = []
        var deinitialized: [UInt64] = []
        var terminated: [UInt64] = []
        /// Index into `graph.svg`, or -1.
        var drawn: [Int] = []
        /// The top-level subscription (1-based) the node works for; 0 for observables.
        var subscription: [Int] = []
        var leaked: [Bool] = []
    }

    package struct Edges: Encodable {
        var from: [UInt64] = []
        var to: [UInt64] = []
        var relation: [Int] = []
    }

    package struct Steps: Encodable {
        var seq: [UInt64] = []
        /// Caller and callee node ids; 0 is user code (or, as callee, not a node).
        var from: [UInt64] = []
        var to: [UInt64] = []
        var call: [Int] = []
        /// `next(mojito)`; -1 when there is none.
        var detail: [Int] = []
    }

    package struct Events: Encodable {
        var seq: [UInt64] = []
        var node: [UInt64] = []
        var kind: [Int] = []
        /// -1 for `completed`.
        var value: [Int] = []
        var time: [Double] = []
        /// Every `time` is virtual (a `TestScheduler`'s clock) rather than seconds.
        var virtualTime = false
    }

    /// Live object counts over the run, at most `ReportModel.maxSamples` of them (each the
    /// highest of its stretch), with the series of the types that peaked highest.
    package struct Resources: Encodable {
        var seq: [UInt64] = []
        var total: [Int] = []
        var types: [Int] = []
        /// One series per entry of `types`, aligned with `seq`.
        var byType: [[Int]] = []
        /// Counted from node births and deinits: the trace kept no samples.
        var counted = false
    }

    package struct Subscription: Encodable {
        var number: Int
        /// The observer at the end of its chain.
        var root: UInt64
        var nodes: Int
        var inner: Int
    }

    package struct LeakGroup: Encodable {
        var site: String
        var file: String?
        var nodes: [UInt64]
    }

    /// What holds leaked nodes (`TraceLeakReport.Root`): the banner lists these.
    package struct LeakRoot: Encodable {
        var node: UInt64
        var site: String?
        /// Why it is still there, in a few words, and which `TraceLeakReport.Root.Cause` that is
        /// (the page words it in its own language).
        var cause: String
        var causeKind: String
        /// The nodes it is one with (a sink and its `SinkDisposer`).
        var cycle: [UInt64]
        /// The leaked nodes it holds, itself included when it is one.
        var held: [UInt64]
        var types: [Count]
        var sites: [Count]
    }

    package struct Count: Encodable {
        var name: String
        var count: Int
    }

    package struct Anomaly: Encodable {
        var node: UInt64
        var kind: String
        var seq: UInt64
        var detail: String
    }

    package struct Graph: Encodable {
        /// The SVG id of each drawn node (`n5`, or `c1_12` for a collapsed group).
        var svg: [String] = []
        /// 1, or the N of a collapsed `×N` node.
        var count: [Int] = []
        /// Drawn edges: their SVG ids and ends (indices into `svg`), in the trace's direction.
        var edgeID: [String] = []
        var edgeFrom: [Int] = []
        var edgeTo: [Int] = []
        /// Why there is no picture, when there is none.
        var note: String?
    }

    /// The program's name (the page's title).
    package var title: String
    var meta: [String: String]
    var dropped: DroppedCounts
    var strings: [String] = []
    var nodes = Nodes()
    var edges = Edges()
    var steps = Steps()
    var events = Events()
    var resources = Resources()
    var subscriptions: [Subscription] = []
    var leaks: [LeakGroup] = []
    var leakRoots: [LeakRoot] = []
    var anomalies: [Anomaly] = []
    var graph = Graph()

    /// Why the page has no graph, when it has none.
    package var graphNote: String? { graph.note }

    /// The laid-out graph (Graphviz SVG without its XML prolog), or nil when it did not fit
    /// or Graphviz failed (`graph.note` says why). Not part of the JSON: the page holds it
    /// inline.
    package private(set) var svg: String?

    private var stringIndex: [String: Int] = [:]

    /// The page's words (and the graph's labels), in the language asked for. Not part of the
    /// JSON: the page gets them as their own table.
    package let words: ReportStrings

    /// The most resource samples the page gets.
    static let maxSamples = 1_000
    /// How many types get their own series in `resources`.
    static let topTypes = 8

    private enum CodingKeys: String, CodingKey {
        case title, meta, dropped, strings, nodes, edges, steps, events, resources, subscriptions, leaks, anomalies
        case graph, leakRoots
    }

    /// Lays out the graph of `document` (`options.expand` draws every inner subscription
    /// instead of one `×N` node; the filters narrow the picture) and gathers what the page shows.
    package init(_ document: TraceDocument, options: RenderOptions = RenderOptions(), words: ReportStrings = .english) {
        self.words = words
        let structure = TraceStructure(document)
        title = document.meta["program"] ?? "trace"
        meta = document.meta
        dropped = document.dropped

        let view = GraphView(document, options, structure: structure, words: words)
        var placement: [UInt64: Int] = [:]
        do {
            let drawing = try view.drawing()
            let data = try TraceRenderer.render(drawing.graph, format: .svg)
            svg = Self.inlineSVG(String(decoding: data, as: UTF8.self))
            var drawnIndex: [String: Int] = [:]
            for node in document.nodes {
                guard let name = drawing.placement[node.id] else { continue }
                if drawnIndex[name] == nil {
                    drawnIndex[name] = graph.svg.count
                    graph.svg.append(name)
                    graph.count.append(drawing.collapsed[name] ?? 1)
                }
                placement[node.id] = drawnIndex[name]
            }
            for edge in drawing.edges {
                graph.edgeID.append(edge.id)
                graph.edgeFrom.append(drawnIndex[edge.from]!)
                graph.edgeTo.append(drawnIndex[edge.to]!)
            }
        } catch {
            svg = nil
            graph.note = error.description
        }

        var subscriptionOf: [UInt64: Int] = [:]
        for subscription in structure.subscriptions {
            for id in subscription.allNodes { subscriptionOf[id] = subscription.number }
            subscriptions.append(
                Subscription(
                    number: subscription.number, root: subscription.root, nodes: subscription.allNodes.count,
                    inner: subscription.inner.count))
        }

        for node in document.nodes {
            nodes.id.append(node.id)
            nodes.kind.append(intern(node.kind.rawValue))
            nodes.type.append(intern(node.type))
            nodes.site.append(intern(node.callSite))
            nodes.file.append(intern(node.fileID))
            nodes.thread.append(intern(node.thread))
            nodes.created.append(node.created)
            nodes.disposed.append(node.disposed ?? 0)
            nodes.deinitialized.append(node.deinitialized ?? 0)
            nodes.terminated.append(node.terminated ?? 0)
            nodes.drawn.append(placement[node.id] ?? -1)
            nodes.subscription.append(subscriptionOf[node.id] ?? 0)
            nodes.leaked.append(structure.leaked.contains(node.id))
            for anomaly in node.anomalies {
                anomalies.append(
                    Anomaly(node: node.id, kind: anomaly.kind.rawValue, seq: anomaly.seq, detail: anomaly.detail))
            }
        }
        for edge in document.edges {
            edges.from.append(edge.from)
            edges.to.append(edge.to)
            edges.relation.append(intern(edge.relation.rawValue))
        }
        for step in document.steps.sorted(by: { $0.seq < $1.seq }) {
            steps.seq.append(step.seq)
            steps.from.append(step.from)
            steps.to.append(step.to)
            steps.call.append(intern(step.call.rawValue))
            steps.detail.append(intern(step.detail))
        }
        let events = document.events.sorted { $0.seq < $1.seq }
        for event in events {
            self.events.seq.append(event.seq)
            self.events.node.append(event.node)
            self.events.kind.append(intern(event.kind.rawValue))
            self.events.value.append(intern(event.value))
            self.events.time.append(event.time.isFinite ? event.time : 0)
        }
        self.events.virtualTime = !events.isEmpty && events.allSatisfy(\.virtualTime)
        resources = resourceSeries(ResourcesView(document, RenderOptions()))
        leaks = structure.leaks.groups.map { LeakGroup(site: $0.callSite, file: $0.fileID, nodes: $0.nodes.map(\.id)) }
        leakRoots = structure.leaks.roots.map { root in
            LeakRoot(
                node: root.node.id, site: root.node.callSite, cause: root.cause.explanation,
                causeKind: root.cause.rawValue,
                cycle: root.cycle.map(\.id), held: root.held.map(\.id),
                types: root.types.map { Count(name: $0.type, count: $0.count) },
                sites: root.callSites.map { Count(name: $0.callSite, count: $0.count) })
        }
        anomalies.sort { ($0.seq, $0.node) < ($1.seq, $1.node) }
    }

    /// The JSON the page reads, safe to put inside `<script>`: every `<` is written `\u003c`.
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(self)
        var escaped = Data(capacity: data.count)
        for byte in data {
            if byte == UInt8(ascii: "<") {
                escaped.append(contentsOf: Array("\\u003c".utf8))
            } else {
                escaped.append(byte)
            }
        }
        return escaped
    }

    private mutating func intern(_ text: String?) -> Int {
        guard let text else { return -1 }
        if let index = stringIndex[text] { return index }
        stringIndex[text] = strings.count
        strings.append(text)
        return strings.count - 1
    }

    private mutating func resourceSeries(_ view: ResourcesView) -> Resources {
        var series = Resources()
        series.counted = view.document.resources.isEmpty
        let samples = view.samples()
        guard !samples.isEmpty else { return series }
        // Each kept sample is the highest of its stretch, so no peak is lost.
        let buckets = min(Self.maxSamples, samples.count)
        var kept: [ResourceSample] = []
        var bucket = -1
        for (offset, sample) in samples.enumerated() {
            let index = offset * buckets / samples.count
            if index != bucket {
                kept.append(sample)
                bucket = index
            } else if sample.total > kept[kept.count - 1].total {
                kept[kept.count - 1] = sample
            }
        }
        var peaks: [String: Int] = [:]
        for sample in samples { for (type, count) in sample.byType { peaks[type] = max(peaks[type] ?? 0, count) } }
        let top = peaks.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Self.topTypes)
        series.seq = kept.map(\.seq)
        series.total = kept.map(\.total)
        for (type, _) in top {
            series.types.append(intern(type))
            series.byType.append(kept.map { $0.byType[type] ?? 0 })
        }
        return series
    }

    /// Graphviz's SVG as an element to put inside HTML: no XML declaration, no DOCTYPE.
    static func inlineSVG(_ text: String) -> String {
        guard let start = text.range(of: "<svg") else { return text }
        return String(text[start.lowerBound...])
    }
}
