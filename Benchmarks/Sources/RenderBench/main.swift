// Rendering speed of the graph view on large traces (issue 5's targets):
// a collapsed graph of a trace with 10,000 inner subscriptions (< 5 s) and a 1,000-node
// expanded graph (< 10 s). Each figure is the best of three runs, SVG through Graphviz.
import Foundation
import RxGraphviz
import RxTrace

/// `Observable.from(0..<count).flatMap { .just($0) }.subscribe(…)`, completed and disposed:
/// four nodes per inner subscription (Just, FlatMapInnerObserver, SinkDisposer, JustSink).
func flatMapJust(count: Int) -> TraceDocument {
    var nodes: [TraceNode] = []
    var edges: [TraceEdge] = []
    var seq: UInt64 = 0
    func node(_ id: UInt64, _ kind: TraceNodeKind, _ type: String, _ site: String, disposed: Bool = true) {
        seq += 1
        nodes.append(
            TraceNode(
                id: id, kind: kind, type: type, callSite: site, created: seq,
                disposed: disposed && kind != .producer ? seq + 1 : nil,
                deinitialized: disposed && kind != .producer ? seq + 1 : nil))
    }
    node(1, .producer, "ObservableSequence", "main.swift:1")
    node(2, .producer, "FlatMap", "main.swift:2")
    node(3, .observer, "AnonymousObserver", "main.swift:3")
    node(4, .disposable, "SinkDisposer", "main.swift:2")
    node(5, .sink, "FlatMapSink", "main.swift:2")
    node(6, .disposable, "CompositeDisposable", "main.swift:2")
    node(7, .disposable, "SinkDisposer", "main.swift:1")
    node(8, .sink, "ObservableSequenceSink", "main.swift:1")
    edges += [
        TraceEdge(from: 2, to: 1, relation: .source), TraceEdge(from: 2, to: 5, relation: .run),
        TraceEdge(from: 5, to: 3, relation: .forward), TraceEdge(from: 4, to: 5, relation: .owns),
        TraceEdge(from: 4, to: 6, relation: .owns), TraceEdge(from: 1, to: 8, relation: .run),
        TraceEdge(from: 8, to: 5, relation: .forward), TraceEdge(from: 7, to: 8, relation: .owns),
        TraceEdge(from: 6, to: 7, relation: .owns),
    ]
    var next: UInt64 = 9
    var events: [TraceEvent] = []
    for element in 0..<count {
        let just = next, observer = next + 1, disposer = next + 2, sink = next + 3
        next += 4
        node(just, .producer, "Just", "main.swift:2")
        node(observer, .observer, "FlatMapInnerObserver", "main.swift:2")
        node(disposer, .disposable, "SinkDisposer", "main.swift:2")
        node(sink, .sink, "JustSink", "main.swift:2")
        edges += [
            TraceEdge(from: just, to: sink, relation: .run), TraceEdge(from: sink, to: observer, relation: .forward),
            TraceEdge(from: observer, to: 5, relation: .forward), TraceEdge(from: disposer, to: sink, relation: .owns),
            TraceEdge(from: 6, to: disposer, relation: .owns),
        ]
        seq += 1
        events.append(TraceEvent(seq: seq, node: observer, kind: .next, value: "\(element)", time: 0))
        seq += 1
        events.append(TraceEvent(seq: seq, node: observer, kind: .completed, value: nil, time: 0))
    }
    return TraceDocument(nodes: nodes, edges: edges, events: events)
}

/// `count` separate `subject.map { … }.subscribe(…)` chains, five nodes each.
func manyChains(count: Int) -> TraceDocument {
    var nodes: [TraceNode] = []
    var edges: [TraceEdge] = []
    var id: UInt64 = 0
    func make(_ kind: TraceNodeKind, _ type: String, _ line: Int) -> UInt64 {
        id += 1
        nodes.append(TraceNode(id: id, kind: kind, type: type, callSite: "main.swift:\(line)", created: id))
        return id
    }
    for chain in 0..<count {
        let subject = make(.subject, "PublishSubject", chain), map = make(.producer, "Map", chain)
        let observer = make(.observer, "AnonymousObserver", chain), disposer = make(.disposable, "SinkDisposer", chain)
        let sink = make(.sink, "MapSink", chain)
        edges += [
            TraceEdge(from: map, to: subject, relation: .source), TraceEdge(from: map, to: sink, relation: .run),
            TraceEdge(from: sink, to: observer, relation: .forward),
            TraceEdge(from: sink, to: subject, relation: .subscribes),
            TraceEdge(from: disposer, to: sink, relation: .owns),
        ]
    }
    return TraceDocument(nodes: nodes, edges: edges)
}

func measure(_ name: String, target: Double, _ work: () throws -> Int) rethrows {
    var best = Double.infinity
    var size = 0
    for _ in 0..<3 {
        let start = ContinuousClock.now
        size = try work()
        let elapsed = start.duration(to: .now)
        best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    let verdict = best < target ? "ok" : "SLOW"
    print(
        String(
            format: "%-58@ %7.3f s  (target < %.0f s, %@; %d bytes of SVG)", name as NSString, best, target,
            verdict as NSString, size))
}

let collapsed = flatMapJust(count: 10_000)
try measure("graph, 10,000 inner subscriptions collapsed (40,008 nodes)", target: 5) {
    try TraceRenderer.render(collapsed, view: .graph, format: .svg).count
}
let expandedFlatMap = flatMapJust(count: 248)
try measure("graph --expand, flatMap with 248 inner (1,000 nodes)", target: 10) {
    try TraceRenderer.render(expandedFlatMap, view: .graph, format: .svg, options: RenderOptions(expand: true)).count
}
let chains = manyChains(count: 200)
try measure("graph, 200 separate subscriptions (1,000 nodes)", target: 10) {
    try TraceRenderer.render(chains, view: .graph, format: .svg).count
}
try measure("resources, 10,000 inner subscriptions", target: 5) {
    try TraceRenderer.render(collapsed, view: .resources, format: .svg).count
}
