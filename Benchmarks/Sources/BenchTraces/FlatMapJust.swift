// Traces the benchmarks share, built by hand in the shapes the views expect.
import RxTrace

/// `Observable.from(0..<count).flatMap { .just($0) }.subscribe(…)`, completed and disposed, in
/// the shape whose inner subscriptions the graph view collapses into one `×count` node: four
/// nodes per inner subscription (Just, FlatMapInnerObserver, SinkDisposer, JustSink), each making
/// the nine calls and four events of a real one.
public func flatMapJust(count: Int) -> TraceDocument {
    var nodes: [TraceNode] = []
    var edges: [TraceEdge] = []
    var steps: [TraceStep] = []
    var events: [TraceEvent] = []
    var seq: UInt64 = 0
    func tick() -> UInt64 {
        seq += 1
        return seq
    }
    func node(_ id: UInt64, _ kind: TraceNodeKind, _ type: String, _ line: Int) {
        nodes.append(TraceNode(id: id, kind: kind, type: type, callSite: "main.swift:\(line)", created: tick()))
    }
    func step(_ from: UInt64, _ to: UInt64, _ call: TraceCall, _ detail: String? = nil) {
        steps.append(TraceStep(seq: tick(), from: from, to: to, call: call, detail: detail))
    }
    func event(_ node: UInt64, _ kind: TraceEventKind, _ value: String?) {
        events.append(TraceEvent(seq: tick(), node: node, kind: kind, value: value, time: Double(seq) / 1e6))
    }
    node(1, .producer, "ObservableSequence", 1)
    node(2, .producer, "FlatMap", 2)
    node(3, .observer, "AnonymousObserver", 3)
    step(3, 2, .subscribe, "subscribe(3)")
    node(4, .disposable, "SinkDisposer", 2)
    node(5, .sink, "FlatMapSink", 2)
    node(6, .disposable, "CompositeDisposable", 2)
    node(7, .disposable, "SinkDisposer", 1)
    node(8, .sink, "ObservableSequenceSink", 1)
    edges += [
        TraceEdge(from: 2, to: 1, relation: .source), TraceEdge(from: 2, to: 5, relation: .run),
        TraceEdge(from: 5, to: 3, relation: .forward), TraceEdge(from: 4, to: 5, relation: .owns),
        TraceEdge(from: 4, to: 6, relation: .owns), TraceEdge(from: 1, to: 8, relation: .run),
        TraceEdge(from: 8, to: 5, relation: .forward), TraceEdge(from: 7, to: 8, relation: .owns),
        TraceEdge(from: 6, to: 7, relation: .owns),
    ]
    step(5, 1, .subscribe, "subscribe(5)")
    var next: UInt64 = 9
    for element in 0..<count {
        let just = next, observer = next + 1, disposer = next + 2, sink = next + 3
        next += 4
        event(8, .next, "\(element)")
        step(8, 5, .forwardOn, "next(\(element))")
        node(just, .producer, "Just", 2)
        node(observer, .observer, "FlatMapInnerObserver", 2)
        step(observer, just, .subscribe, "subscribe(\(observer))")
        node(disposer, .disposable, "SinkDisposer", 2)
        step(just, disposer, .`init`, "SinkDisposer")
        step(just, just, .run, "run(observer: \(observer), cancel: \(disposer))")
        node(sink, .sink, "JustSink", 2)
        step(just, sink, .`init`)
        edges += [
            TraceEdge(from: just, to: sink, relation: .run), TraceEdge(from: sink, to: observer, relation: .forward),
            TraceEdge(from: observer, to: 5, relation: .forward), TraceEdge(from: disposer, to: sink, relation: .owns),
            TraceEdge(from: 6, to: disposer, relation: .owns),
        ]
        step(sink, observer, .forwardOn, "next(\(element))")
        event(observer, .next, "\(element)")
        step(observer, 5, .forwardOn, "next(\(element))")
        event(5, .next, "\(element)")
        step(5, 3, .forwardOn, "next(\(element))")
        event(3, .next, "\(element)")
        step(sink, observer, .forwardOn, "completed")
        event(observer, .completed, nil)
        nodes[nodes.count - 3].terminated = seq
        step(6, disposer, .dispose)
        let gone = tick()
        for index in nodes.indices.suffix(3) {
            nodes[index].disposed = gone
            nodes[index].deinitialized = gone
        }
    }
    event(8, .completed, nil)
    event(5, .completed, nil)
    event(3, .completed, nil)
    for index in nodes.indices where [3, 5, 8].contains(nodes[index].id) { nodes[index].terminated = seq }
    step(0, 4, .dispose)
    let end = tick()
    for index in nodes.indices where nodes[index].kind != .producer && nodes[index].disposed == nil {
        nodes[index].disposed = end
        nodes[index].deinitialized = end
    }
    return TraceDocument(
        meta: ["program": "flatmap-just"], nodes: nodes, edges: edges, steps: steps, events: events)
}
