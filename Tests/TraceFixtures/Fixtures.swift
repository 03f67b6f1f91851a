import RxTrace

// Shared by RxGraphvizTests and rxtraceTests (a test-support target: test targets cannot
// import one another).

/// Hand-built traces in the shape the recorder writes.
public enum Fixtures {
    /// The documents' first example (docs/architecture.md, "The subscribe flow, file by file"):
    /// `create` + `subscribe(onNext:)`, nodes 1–6, step1…step9. With `disposed: false` the
    /// `d.dispose()` line is gone and nodes 2–6 stay alive.
    public static func reference(disposed: Bool = true) -> TraceDocument {
        var nodes = [
            TraceNode(
                id: 1, kind: .producer, type: "AnonymousObservable", callSite: "main.swift:1",
                fileID: "Demo/main.swift", created: 1),
            TraceNode(
                id: 2, kind: .observer, type: "AnonymousObserver", callSite: "main.swift:5", fileID: "Demo/main.swift",
                created: 2),
            TraceNode(
                id: 3, kind: .disposable, type: "SinkDisposer", callSite: "main.swift:5", fileID: "Demo/main.swift",
                created: 5),
            TraceNode(
                id: 4, kind: .sink, type: "AnonymousObservableSink", callSite: "main.swift:5",
                fileID: "Demo/main.swift", created: 7),
            TraceNode(
                id: 5, kind: .disposable, type: "AnonymousDisposable", callSite: "main.swift:3",
                fileID: "Demo/main.swift", created: 14),
            TraceNode(
                id: 6, kind: .disposable, type: "BinaryDisposable", callSite: "main.swift:5", fileID: "Demo/main.swift",
                created: 16),
        ]
        let edges = [
            TraceEdge(from: 1, to: 4, relation: .run),
            TraceEdge(from: 4, to: 2, relation: .forward),
            TraceEdge(from: 3, to: 4, relation: .owns),
            TraceEdge(from: 3, to: 5, relation: .owns),
            TraceEdge(from: 6, to: 3, relation: .owns),
        ]
        var steps = [
            TraceStep(seq: 3, from: 2, to: 1, call: .subscribe),
            TraceStep(seq: 4, from: 1, to: 0, call: .schedule, detail: "CurrentThreadScheduler"),
            TraceStep(seq: 5, from: 1, to: 3, call: .`init`, detail: "SinkDisposer"),
            TraceStep(seq: 6, from: 1, to: 1, call: .run, detail: "cancel: SinkDisposer"),
            TraceStep(seq: 7, from: 1, to: 4, call: .`init`, detail: "AnonymousObservableSink"),
            TraceStep(seq: 8, from: 4, to: 4, call: .run, detail: "parent: AnonymousObservable"),
            TraceStep(seq: 9, from: 4, to: 1, call: .handler, detail: "AnyObserver(#4)"),
            TraceStep(seq: 10, from: 0, to: 4, call: .on, detail: "next(mojito)"),
            TraceStep(seq: 11, from: 4, to: 2, call: .forwardOn, detail: "next(mojito)"),
            TraceStep(seq: 12, from: 4, to: 2, call: .on, detail: "next(mojito)"),
            TraceStep(seq: 13, from: 2, to: 2, call: .onCore, detail: "next(mojito)"),
            TraceStep(seq: 15, from: 1, to: 3, call: .setSinkAndSubscription, detail: "sink: #4, subscription: #5"),
        ]
        let events = [
            TraceEvent(seq: 10, node: 4, kind: .next, value: "mojito", time: 0.0001),
            TraceEvent(seq: 12, node: 2, kind: .next, value: "mojito", time: 0.0002),
        ]
        if disposed {
            steps += [
                TraceStep(seq: 17, from: 0, to: 6, call: .dispose),
                TraceStep(seq: 18, from: 6, to: 3, call: .dispose),
                TraceStep(seq: 19, from: 3, to: 4, call: .dispose),
                TraceStep(seq: 20, from: 3, to: 5, call: .dispose),
            ]
            nodes[5].disposed = 17
            nodes[2].disposed = 18
            nodes[3].disposed = 19
            nodes[4].disposed = 20
            for index in 1...5 { nodes[index].deinitialized = 21 }
        }
        return TraceDocument(meta: ["program": "reference"], nodes: nodes, edges: edges, steps: steps, events: events)
    }

    /// `PublishSubject<Int>` → `map { $0 * 10 }` → `subscribe`, on virtual time:
    /// next(210, 1), next(220, 2), completed(300); with resource samples.
    public static func mapSubject() -> TraceDocument {
        let nodes = [
            TraceNode(id: 1, kind: .subject, type: "PublishSubject", callSite: "main.swift:3", created: 1),
            TraceNode(id: 2, kind: .producer, type: "Map", callSite: "main.swift:4", created: 2),
            TraceNode(
                id: 3, kind: .observer, type: "AnonymousObserver", callSite: "main.swift:5", created: 3, disposed: 30,
                deinitialized: 31, terminated: 29),
            TraceNode(
                id: 4, kind: .disposable, type: "SinkDisposer", callSite: "main.swift:4", created: 5, disposed: 30,
                deinitialized: 31),
            TraceNode(
                id: 5, kind: .sink, type: "MapSink", callSite: "main.swift:4", created: 6, disposed: 30,
                deinitialized: 31, terminated: 28),
            TraceNode(
                id: 6, kind: .disposable, type: "SubscriptionDisposable", callSite: "main.swift:4", created: 8,
                disposed: 30, deinitialized: 31),
            TraceNode(
                id: 7, kind: .disposable, type: "BinaryDisposable", callSite: "main.swift:5", created: 9, disposed: 30,
                deinitialized: 31),
        ]
        let edges = [
            TraceEdge(from: 2, to: 1, relation: .source),
            TraceEdge(from: 2, to: 5, relation: .run),
            TraceEdge(from: 5, to: 3, relation: .forward),
            TraceEdge(from: 5, to: 1, relation: .subscribes),
            TraceEdge(from: 4, to: 5, relation: .owns),
            TraceEdge(from: 4, to: 6, relation: .owns),
            TraceEdge(from: 7, to: 4, relation: .owns),
        ]
        let steps = [
            TraceStep(seq: 4, from: 3, to: 2, call: .subscribe),
            TraceStep(seq: 5, from: 2, to: 4, call: .`init`, detail: "SinkDisposer"),
            TraceStep(seq: 6, from: 2, to: 2, call: .run, detail: "cancel: SinkDisposer"),
            TraceStep(seq: 7, from: 5, to: 1, call: .subscribe),
            TraceStep(seq: 8, from: 2, to: 4, call: .setSinkAndSubscription, detail: "sink: #5, subscription: #6"),
            TraceStep(seq: 10, from: 0, to: 1, call: .on, detail: "next(1)"),
            TraceStep(seq: 11, from: 1, to: 5, call: .on, detail: "next(1)"),
            TraceStep(seq: 12, from: 5, to: 3, call: .forwardOn, detail: "next(10)"),
            TraceStep(seq: 13, from: 3, to: 3, call: .onCore, detail: "next(10)"),
            TraceStep(seq: 20, from: 0, to: 1, call: .on, detail: "next(2)"),
            TraceStep(seq: 21, from: 1, to: 5, call: .on, detail: "next(2)"),
            TraceStep(seq: 22, from: 5, to: 3, call: .forwardOn, detail: "next(20)"),
            TraceStep(seq: 23, from: 3, to: 3, call: .onCore, detail: "next(20)"),
            TraceStep(seq: 27, from: 0, to: 1, call: .on, detail: "completed"),
            TraceStep(seq: 28, from: 1, to: 5, call: .on, detail: "completed"),
            TraceStep(seq: 29, from: 5, to: 3, call: .forwardOn, detail: "completed"),
            TraceStep(seq: 30, from: 5, to: 4, call: .dispose),
        ]
        let events = [
            TraceEvent(seq: 11, node: 5, kind: .next, value: "1", time: 210, virtualTime: true),
            TraceEvent(seq: 12, node: 3, kind: .next, value: "10", time: 210, virtualTime: true),
            TraceEvent(seq: 21, node: 5, kind: .next, value: "2", time: 220, virtualTime: true),
            TraceEvent(seq: 22, node: 3, kind: .next, value: "20", time: 220, virtualTime: true),
            TraceEvent(seq: 28, node: 5, kind: .completed, value: nil, time: 300, virtualTime: true),
            TraceEvent(seq: 29, node: 3, kind: .completed, value: nil, time: 300, virtualTime: true),
        ]
        let resources = [
            ResourceSample(seq: 1, total: 1, byType: ["PublishSubject": 1]),
            ResourceSample(seq: 2, total: 2, byType: ["PublishSubject": 1, "Map": 1]),
            ResourceSample(
                seq: 9, total: 7,
                byType: [
                    "PublishSubject": 1, "Map": 1, "AnonymousObserver": 1, "SinkDisposer": 1, "MapSink": 1,
                    "SubscriptionDisposable": 1, "BinaryDisposable": 1,
                ]),
            ResourceSample(seq: 31, total: 2, byType: ["PublishSubject": 1, "Map": 1]),
        ]
        return TraceDocument(
            meta: ["program": "map-subject"], nodes: nodes, edges: edges, steps: steps, events: events,
            resources: resources)
    }

    /// `Observable.from(0..<count).flatMap { Observable.just($0) }.subscribe(onNext:)`:
    /// `count` inner subscriptions, each a `Just` producer, a `JustSink`, a `SinkDisposer` and
    /// a `FlatMapInnerObserver` forwarding to the `FlatMapSink`; all completed and disposed.
    public static func flatMapJust(count: Int) -> TraceDocument {
        var nodes: [TraceNode] = []
        var edges: [TraceEdge] = []
        var steps: [TraceStep] = []
        var events: [TraceEvent] = []
        var seq: UInt64 = 0
        func tick() -> UInt64 { seq += 1; return seq }
        func node(_ id: UInt64, _ kind: TraceNodeKind, _ type: String, _ site: String) {
            nodes.append(TraceNode(id: id, kind: kind, type: type, callSite: site, created: tick()))
        }
        node(1, .producer, "ObservableSequence", "main.swift:1")
        node(2, .producer, "FlatMap", "main.swift:2")
        edges.append(TraceEdge(from: 2, to: 1, relation: .source))
        node(3, .observer, "AnonymousObserver", "main.swift:3")
        steps.append(TraceStep(seq: tick(), from: 3, to: 2, call: .subscribe))
        node(4, .disposable, "SinkDisposer", "main.swift:2")
        node(5, .sink, "FlatMapSink", "main.swift:2")
        node(6, .disposable, "CompositeDisposable", "main.swift:2")
        edges += [
            TraceEdge(from: 2, to: 5, relation: .run), TraceEdge(from: 5, to: 3, relation: .forward),
            TraceEdge(from: 4, to: 5, relation: .owns), TraceEdge(from: 4, to: 6, relation: .owns),
        ]
        node(7, .disposable, "SinkDisposer", "main.swift:1")
        node(8, .sink, "ObservableSequenceSink", "main.swift:1")
        edges += [
            TraceEdge(from: 1, to: 8, relation: .run), TraceEdge(from: 8, to: 5, relation: .forward),
            TraceEdge(from: 7, to: 8, relation: .owns), TraceEdge(from: 6, to: 7, relation: .owns),
        ]
        steps.append(TraceStep(seq: tick(), from: 5, to: 1, call: .subscribe))
        var next: UInt64 = 9
        for element in 0..<count {
            let just = next, observer = next + 1, disposer = next + 2, sink = next + 3
            next += 4
            events.append(TraceEvent(seq: tick(), node: 8, kind: .next, value: "\(element)", time: 0))
            node(just, .producer, "Just", "main.swift:2")
            node(observer, .observer, "FlatMapInnerObserver", "main.swift:2")
            steps.append(TraceStep(seq: tick(), from: observer, to: just, call: .subscribe))
            node(disposer, .disposable, "SinkDisposer", "main.swift:2")
            node(sink, .sink, "JustSink", "main.swift:2")
            edges += [
                TraceEdge(from: just, to: sink, relation: .run),
                TraceEdge(from: sink, to: observer, relation: .forward),
                TraceEdge(from: observer, to: 5, relation: .forward),
                TraceEdge(from: disposer, to: sink, relation: .owns),
                TraceEdge(from: 6, to: disposer, relation: .owns),
            ]
            events.append(TraceEvent(seq: tick(), node: observer, kind: .next, value: "\(element)", time: 0))
            events.append(TraceEvent(seq: tick(), node: 5, kind: .next, value: "\(element)", time: 0))
            events.append(TraceEvent(seq: tick(), node: 3, kind: .next, value: "\(element)", time: 0))
            events.append(TraceEvent(seq: tick(), node: observer, kind: .completed, value: nil, time: 0))
            nodes[nodes.count - 3].terminated = seq
            let gone = tick()
            for index in nodes.indices.suffix(3) { nodes[index].disposed = gone; nodes[index].deinitialized = gone }
        }
        events.append(TraceEvent(seq: tick(), node: 8, kind: .completed, value: nil, time: 0))
        events.append(TraceEvent(seq: tick(), node: 5, kind: .completed, value: nil, time: 0))
        events.append(TraceEvent(seq: tick(), node: 3, kind: .completed, value: nil, time: 0))
        for index in nodes.indices where [3, 5, 8].contains(nodes[index].id) { nodes[index].terminated = seq }
        let end = tick()
        for index in nodes.indices where nodes[index].kind != .producer && nodes[index].disposed == nil {
            nodes[index].disposed = end
            nodes[index].deinitialized = end
        }
        return TraceDocument(
            meta: ["program": "flatmap-just"], nodes: nodes, edges: edges, steps: steps, events: events)
    }

    /// `count` independent `just(i).map { … }` chains left subscribed (never disposed): a large
    /// expanded graph of about `5 × count` nodes.
    public static func manyChains(count: Int) -> TraceDocument {
        var nodes: [TraceNode] = []
        var edges: [TraceEdge] = []
        var id: UInt64 = 0
        var seq: UInt64 = 0
        func make(_ kind: TraceNodeKind, _ type: String, _ line: Int) -> UInt64 {
            id += 1; seq += 1
            nodes.append(TraceNode(id: id, kind: kind, type: type, callSite: "main.swift:\(line)", created: seq))
            return id
        }
        for chain in 0..<count {
            let line = 10 + chain
            let subject = make(.subject, "PublishSubject", line)
            let map = make(.producer, "Map", line)
            let observer = make(.observer, "AnonymousObserver", line)
            let disposer = make(.disposable, "SinkDisposer", line)
            let sink = make(.sink, "MapSink", line)
            edges += [
                TraceEdge(from: map, to: subject, relation: .source), TraceEdge(from: map, to: sink, relation: .run),
                TraceEdge(from: sink, to: observer, relation: .forward),
                TraceEdge(from: sink, to: subject, relation: .subscribes),
                TraceEdge(from: disposer, to: sink, relation: .owns),
            ]
        }
        return TraceDocument(meta: ["program": "many-chains"], nodes: nodes, edges: edges)
    }
}
