import Foundation
import RxTrace
import Testing
import TraceFixtures

@testable import RxGraphviz

/// The data `rxtrace report`'s page reads (`ReportModel`); the page itself is tested in a real
/// browser by rxtraceTests' `ReportBrowserTests`.
@Suite struct ReportModelTests {
    /// The JSON as the page's script sees it.
    private func json(_ model: ReportModel) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: try model.json()) as? [String: Any])
    }

    @Test func referenceNodesKeepTheirDrawnIDsInTheSVG() throws {
        let document = Fixtures.reference()
        let model = ReportModel(document)
        let svg = try #require(model.svg)
        #expect(svg.hasPrefix("<svg"))
        #expect(model.graph.svg == ["n1", "n2", "n3", "n4", "n5", "n6"])
        #expect(model.nodes.drawn == [0, 1, 2, 3, 4, 5])
        for name in model.graph.svg { #expect(svg.contains("<g id=\"\(name)\" class=\"node\"")) }
        // Edges in the trace's direction, even those drawn the other way round (owns).
        #expect(model.graph.edgeID.contains("n4-forward-n2"))
        #expect(model.graph.edgeID.contains("n3-owns-n4"))
        for id in model.graph.edgeID {
            #expect(svg.contains("<g id=\"\(id.replacingOccurrences(of: "-", with: "&#45;"))\" class=\"edge\""))
        }
        let forward = try #require(model.graph.edgeID.firstIndex(of: "n4-forward-n2"))
        #expect((model.graph.edgeFrom[forward], model.graph.edgeTo[forward]) == (3, 1))
        #expect(model.graph.note == nil)
    }

    @Test func referenceCallsEventsAndSubscriptions() throws {
        let document = Fixtures.reference()
        let model = ReportModel(document)
        let text = { (index: Int) in index < 0 ? nil : model.strings[index] }
        #expect(model.steps.seq == document.steps.map(\.seq))
        #expect(model.steps.call.map { text($0) } == document.steps.map(\.call.rawValue))
        #expect(model.steps.detail.map { text($0) } == document.steps.map(\.detail))
        #expect(model.steps.from == document.steps.map(\.from))
        #expect(model.events.node == [4, 2])
        #expect(model.events.value.map { text($0) } == ["mojito", "mojito"])
        #expect(!model.events.virtualTime)
        #expect(model.nodes.type.map { text($0) } == document.nodes.map(\.type))
        #expect(model.nodes.site.map { text($0) } == document.nodes.map(\.callSite))
        #expect(model.nodes.disposed == [0, 0, 18, 19, 20, 17])
        #expect(model.subscriptions.count == 1)
        #expect(model.subscriptions[0].root == 2)
        // The producer works for no subscription; the rest for subscription 1.
        #expect(model.nodes.subscription == [0, 1, 1, 1, 1, 1])
        #expect(model.leaks.isEmpty)
        #expect(model.nodes.leaked.allSatisfy { !$0 })
        #expect(model.title == "reference")
    }

    @Test func leakedNodesAreGroupedByCallSite() {
        let model = ReportModel(Fixtures.reference(disposed: false))
        #expect(model.leaks.map(\.site) == ["main.swift:5", "main.swift:3"])
        #expect(model.leaks.map(\.nodes) == [[2, 3, 4, 6], [5]])
        #expect(model.nodes.leaked == [false, true, true, true, true, true])
    }

    @Test func repeatedInnerSubscriptionsShareOneCollapsedNode() throws {
        let document = Fixtures.flatMapJust(count: 20)
        let collapsed = ReportModel(document)
        let inner = document.nodes.filter { ["Just", "JustSink", "FlatMapInnerObserver"].contains($0.type) }
        let drawn = Set(inner.map { collapsed.nodes.drawn[document.nodes.firstIndex(of: $0)!] })
        #expect(drawn.count == 1)
        let index = try #require(drawn.first)
        #expect(collapsed.graph.svg[index].hasPrefix("c1_"))
        #expect(collapsed.graph.count[index] == 20)
        #expect(try #require(collapsed.svg).contains("<g id=\"\(collapsed.graph.svg[index])\" class=\"node\""))

        let expanded = ReportModel(document, options: RenderOptions(expand: true))
        #expect(expanded.graph.count.allSatisfy { $0 == 1 })
        #expect(Set(expanded.nodes.drawn).count == document.nodes.count)
    }

    @Test func aGraphThatDoesNotFitLeavesTheRestOfThePage() throws {
        let document = Fixtures.manyChains(count: 1_200)
        let model = ReportModel(document)
        #expect(model.svg == nil)
        #expect(model.graph.note?.contains("more than the limit of 5000") == true)
        #expect(model.nodes.drawn.allSatisfy { $0 == -1 })
        #expect(model.nodes.id.count == 6_000)
        #expect(model.subscriptions.count == 1_200)
        let page = try json(model)
        #expect((page["graph"] as? [String: Any])?["note"] as? String == model.graph.note)
    }

    @Test func jsonIsSafeInsideAScriptElement() throws {
        var document = Fixtures.reference()
        let hostile = "</script><script>alert(1)</script><!--"
        document.events[0].value = hostile
        document.nodes[1].type = "Weird<T>"
        let model = ReportModel(document)
        let data = try model.json()
        #expect(!data.contains(UInt8(ascii: "<")))
        let page = try json(model)
        let strings = try #require(page["strings"] as? [String])
        #expect(strings.contains(hostile))
        #expect(strings.contains("Weird<T>"))
        // The same trace gives the same bytes.
        #expect(try ReportModel(document).json() == data)
    }

    @Test func manySamplesAreThinnedKeepingThePeak() {
        var document = Fixtures.reference()
        document.resources = (1...5_000).map { seq in
            ResourceSample(seq: UInt64(seq), total: seq == 3_333 ? 99 : seq % 7, byType: ["MapSink": seq % 7])
        }
        let model = ReportModel(document)
        #expect(model.resources.seq.count == ReportModel.maxSamples)
        #expect(model.resources.total.max() == 99)
        #expect(model.resources.seq == model.resources.seq.sorted())
        #expect(model.resources.types.map { model.strings[$0] } == ["MapSink"])
        #expect(model.resources.byType[0].count == model.resources.seq.count)
        #expect(!model.resources.counted)
        // Without samples, the counts come from node births and deinits.
        document.resources = []
        let counted = ReportModel(document)
        #expect(counted.resources.counted)
        #expect(counted.resources.total.max() == 6)
    }

    @Test func virtualTimeAndAnomaliesReachThePage() {
        var document = Fixtures.mapSubject()
        document.nodes[2].anomalies = [
            TraceAnomalyRecord(kind: .eventAfterTermination, seq: 29, detail: "next(3) after completed")
        ]
        let model = ReportModel(document)
        #expect(model.events.virtualTime)
        #expect(model.events.time == [210, 210, 220, 220, 300, 300])
        #expect(model.anomalies.count == 1)
        #expect(model.anomalies[0].node == 3 && model.anomalies[0].kind == "eventAfterTermination")
    }
}
