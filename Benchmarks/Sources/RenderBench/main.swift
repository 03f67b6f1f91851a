// Rendering speed of the graph view on large traces (issue 5's targets):
// a collapsed graph of a trace with 10,000 inner subscriptions (< 5 s) and a 1,000-node
// expanded graph (< 10 s). Each figure is the best of three runs, SVG through Graphviz.
import BenchTraces
import Foundation
import RxGraphviz
import RxTrace

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
