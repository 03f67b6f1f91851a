import RxTrace
import Testing

/// `map` and `filter` build their sinks through a runner they keep at their second subscription
/// (Core/SinkRunner.swift). The trace must not tell the difference: the same chain subscribed
/// three times records the same nodes, relations and calls three times.
@Suite(.serialized) struct ResubscriptionTraceTests {
    @Test func aSecondSubscriptionRecordsWhatTheFirstDid() {
        var printed: [Int] = []
        let trace = checkingNoLeaks {
            Trace.record {
                let chain = Observable.of(1, 2, 3).map { $0 * 10 }.filter { $0 > 10 }
                for _ in 0..<3 {
                    chain.subscribe(onNext: { printed.append($0) }).dispose()
                }
            }
        }
        #expect(printed == [20, 30, 20, 30, 20, 30])

        let types = Dictionary(uniqueKeysWithValues: trace.nodes.map { ($0.id, $0.type) })
        func name(_ id: UInt64) -> String { id == 0 ? "-" : types[id] ?? "?" }

        // Nodes: the three producers, then one subscription's nodes, then the same twice more.
        let producers = trace.nodes.prefix { $0.kind == .producer }
        #expect(producers.map(\.type) == ["ObservableSequence", "Map", "Filter"])
        let perSubscription = Array(trace.nodes.dropFirst(producers.count))
        #expect(perSubscription.count % 3 == 0)
        let size = perSubscription.count / 3
        let thirds = (0..<3).map { Array(perSubscription[($0 * size)..<(($0 + 1) * size)]) }
        #expect(
            thirds[0].map(\.type) == [
                "AnonymousObserver", "SinkDisposer", "FilterSink", "SinkDisposer", "MapSink", "SinkDisposer",
                "ObservableSequenceSink", "BinaryDisposable",
            ])
        #expect(thirds[1].map(\.type) == thirds[0].map(\.type))
        #expect(thirds[2].map(\.type) == thirds[0].map(\.type))

        // Calls, by the types they go between: each third repeats the first.
        let calls = trace.steps.map { "\($0.call.rawValue) \(name($0.from))→\(name($0.to))" }
        #expect(calls.count % 3 == 0)
        let callThirds = (0..<3).map { Array(calls[($0 * calls.count / 3)..<(($0 + 1) * calls.count / 3)]) }
        #expect(callThirds[1] == callThirds[0])
        #expect(callThirds[2] == callThirds[0])
        #expect(calls.contains("init Map→MapSink") && calls.contains("init Filter→FilterSink"))

        // Relations touching each subscription's nodes, by type.
        func relations(_ third: Int) -> [String] {
            let ids = Set(thirds[third].map(\.id))
            return trace.edges.filter { $0.relation != .source && (ids.contains($0.from) || ids.contains($0.to)) }
                .map { "\(name($0.from)) -\($0.relation.rawValue)-> \(name($0.to))" }
                .sorted()
        }
        #expect(relations(0).contains("Map -run-> MapSink"))
        #expect(relations(0).contains("MapSink -forward-> FilterSink"))
        #expect(relations(1) == relations(0))
        #expect(relations(2) == relations(0))
        #expect(Trace.leaks(in: trace).isEmpty)
    }
}
