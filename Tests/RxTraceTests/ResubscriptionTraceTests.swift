import Testing
import RxTrace

/// `map` and `filter` build their sinks through a kept runner from their second subscription on
/// (Core/SinkRunner.swift). The trace must not tell the difference: the same chain subscribed
/// twice records the same nodes, relations and calls twice.
@Suite(.serialized) struct ResubscriptionTraceTests {
    @Test func aSecondSubscriptionRecordsWhatTheFirstDid() {
        var printed: [Int] = []
        let trace = checkingNoLeaks {
            Trace.record {
                let chain = Observable.of(1, 2, 3).map { $0 * 10 }.filter { $0 > 10 }
                chain.subscribe(onNext: { printed.append($0) }).dispose()
                chain.subscribe(onNext: { printed.append($0) }).dispose()
            }
        }
        #expect(printed == [20, 30, 20, 30])

        let types = Dictionary(uniqueKeysWithValues: trace.nodes.map { ($0.id, $0.type) })
        func name(_ id: UInt64) -> String { id == 0 ? "-" : types[id] ?? "?" }

        // Nodes: the three producers, then one subscription's nodes, then the same again.
        let producers = trace.nodes.prefix { $0.kind == .producer }
        #expect(producers.map(\.type) == ["ObservableSequence", "Map", "Filter"])
        let perSubscription = trace.nodes.dropFirst(producers.count).map(\.type)
        #expect(perSubscription.count % 2 == 0)
        let first = Array(perSubscription.prefix(perSubscription.count / 2))
        let second = Array(perSubscription.suffix(perSubscription.count / 2))
        #expect(first == ["AnonymousObserver", "SinkDisposer", "FilterSink", "SinkDisposer", "MapSink", "SinkDisposer", "ObservableSequenceSink", "BinaryDisposable"])
        #expect(second == first)

        // Calls, by the types they go between: the second half repeats the first.
        let calls = trace.steps.map { "\($0.call.rawValue) \(name($0.from))→\(name($0.to))" }
        #expect(calls.count % 2 == 0)
        #expect(Array(calls.suffix(calls.count / 2)) == Array(calls.prefix(calls.count / 2)))
        #expect(calls.contains("init Map→MapSink") && calls.contains("init Filter→FilterSink"))

        // Relations: those touching the first subscription's nodes, then the second's, by type.
        let firstIDs = Set(trace.nodes.dropFirst(producers.count).prefix(first.count).map(\.id))
        func relations(_ inFirst: Bool) -> [String] {
            trace.edges.filter { $0.relation != .source && (firstIDs.contains($0.from) || firstIDs.contains($0.to)) == inFirst }
                .map { "\(name($0.from)) -\($0.relation.rawValue)-> \(name($0.to))" }
                .sorted()
        }
        #expect(relations(true).contains("Map -run-> MapSink"))
        #expect(relations(true).contains("MapSink -forward-> FilterSink"))
        #expect(relations(false) == relations(true))
        #expect(Trace.leaks(in: trace).isEmpty)
    }
}
