import Foundation
import RxTrace
import Synchronization
import Testing
import TraceFixtures

@testable import RxGraphviz

/// Golden DOT files live next to this file; `RXANATOMY_UPDATE_GOLDEN=1` rewrites them.
private let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Golden")

private func checkGolden(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = goldenDirectory.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["RXANATOMY_UPDATE_GOLDEN"] == "1" {
        try text.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(
        text == expected,
        "\(name) differs from its golden file; rerun with RXANATOMY_UPDATE_GOLDEN=1 if the change is meant",
        sourceLocation: sourceLocation)
}

private let examples: [(name: String, document: TraceDocument)] = [
    ("reference", Fixtures.reference()),
    ("reference-leaked", Fixtures.reference(disposed: false)),
    ("map-subject", Fixtures.mapSubject()),
]

@Suite struct DotGoldenTests {
    @Test(arguments: ["reference", "reference-leaked", "map-subject"], RenderView.allCases)
    func dotMatchesGolden(example: String, view: RenderView) throws {
        let document = examples.first { $0.name == example }!.document
        let data = try TraceRenderer.render(document, view: view, format: .dot)
        let text = String(decoding: data, as: UTF8.self)
        try checkGolden("\(example)-\(view.rawValue).dot", text)
    }

    @Test func sameTraceGivesSameBytes() throws {
        for view in RenderView.allCases {
            // A trace read back from JSON, with its arrays in another order, draws the same.
            var shuffled = Fixtures.flatMapJust(count: 20)
            let first = try TraceRenderer.render(shuffled, view: view, format: .dot)
            shuffled = try TraceDocument.decode(shuffled.jsonData())
            let second = try TraceRenderer.render(shuffled, view: view, format: .dot)
            #expect(first == second)
        }
    }
}

@Suite struct FormatTests {
    @Test(arguments: ["reference", "reference-leaked", "map-subject"], RenderView.allCases)
    func everyFormatRenders(example: String, view: RenderView) throws {
        let document = examples.first { $0.name == example }!.document
        let svg = String(decoding: try TraceRenderer.render(document, view: view, format: .svg), as: UTF8.self)
        #expect(svg.contains("<svg"))
        #expect(svg.contains("</svg>"))
        let png = try TraceRenderer.render(document, view: view, format: .png)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(png.count > 200)
        if let directory = ProcessInfo.processInfo.environment["RXANATOMY_DUMP_DIR"] {
            try png.write(to: URL(fileURLWithPath: directory).appendingPathComponent("\(example)-\(view.rawValue).png"))
        }
        let pdf = try TraceRenderer.render(document, view: view, format: .pdf)
        #expect(pdf.starts(with: Data("%PDF".utf8)))
        #expect(String(decoding: pdf.suffix(32), as: UTF8.self).contains("%%EOF"))
    }

    @Test func graphSVGNamesEveryNodeOfTheReference() throws {
        let svg = String(
            decoding: try TraceRenderer.render(Fixtures.reference(disposed: false), view: .graph, format: .svg),
            as: UTF8.self)
        for label in [
            "AnonymousObservable", "AnonymousObserver", "SinkDisposer", "AnonymousObservableSink",
            "AnonymousDisposable", "BinaryDisposable", "main.swift:1 · #1", "main.swift:5 · #2", "main.swift:3 · #5",
        ] {
            #expect(svg.contains(label), "graph.svg lacks \(label)")
        }
        // Leaked nodes are drawn in red.
        #expect(svg.contains(Palette.leakedLine))
    }

    @Test func flowSVGListsTheStepsInOrder() throws {
        let svg = String(
            decoding: try TraceRenderer.render(Fixtures.reference(), view: .flow, format: .svg), as: UTF8.self)
        let calls = [
            "subscribe", "schedule", "init", "run", "init", "run", "handler", "on", "forwardOn", "on", "onCore",
            "setSinkAndSubscription", "dispose", "dispose", "dispose", "dispose",
        ]
        var rest = Substring(svg)
        for call in calls {
            guard let range = rest.range(of: ">\(call)</text>") else {
                Issue.record("flow.svg lacks \(call) in order")
                return
            }
            rest = rest[range.upperBound...]
        }
        #expect(svg.contains("CurrentThreadScheduler"))
        #expect(svg.contains("next(mojito)"))
    }

    @Test func marblesSVGShowsValuesAndCompletion() throws {
        let svg = String(
            decoding: try TraceRenderer.render(Fixtures.mapSubject(), view: .marbles, format: .svg), as: UTF8.self)
        for label in ["MapSink", "AnonymousObserver", "(10)", "(20)", "(1)", "(2)", ">|<", "210", "220", "300"] {
            #expect(svg.contains(label), "marbles.svg lacks \(label)")
        }
    }

    @Test func resourcesSVGShowsPeakAndTypes() throws {
        let svg = String(
            decoding: try TraceRenderer.render(Fixtures.mapSubject(), view: .resources, format: .svg), as: UTF8.self)
        #expect(svg.contains("peak 7, 2 at the end"))
        for type in ["MapSink", "SinkDisposer", "PublishSubject"] { #expect(svg.contains(type)) }
    }
}

@Suite struct StructureTests {
    @Test func referenceIsOneSubscriptionEndingAtTheObserver() {
        let structure = TraceStructure(Fixtures.reference())
        #expect(structure.subscriptions.count == 1)
        #expect(structure.subscriptions[0].root == 2)
        #expect(structure.subscriptions[0].nodes == [2, 3, 4, 5, 6])
        #expect(structure.observables == [1])
        #expect(structure.leaked.isEmpty)
        #expect(TraceStructure(Fixtures.reference(disposed: false)).leaked == [2, 3, 4, 5, 6])
    }

    @Test func flatMapInnerSubscriptionsAreNested() {
        let structure = TraceStructure(Fixtures.flatMapJust(count: 3))
        #expect(structure.subscriptions.count == 1)
        let subscription = structure.subscriptions[0]
        #expect(subscription.root == 3)
        #expect(subscription.nodes == [3, 4, 5, 6, 7, 8])
        #expect(subscription.inner.map(\.nodes) == [[9, 10, 11, 12], [13, 14, 15, 16], [17, 18, 19, 20]])
        #expect(Set(subscription.inner.map(\.signature)).count == 1)
        #expect(structure.observables == [1, 2])
    }

    @Test func tenThousandInnerSinksCollapseIntoOneNode() throws {
        let document = Fixtures.flatMapJust(count: 10_000)
        let graph = try TraceRenderer.graph(of: document, view: .graph)
        let dot = graph.dotText
        #expect(dot.components(separatedBy: "×10000").count - 1 == 1)
        #expect(graph.nodeCount == 2 + 6 + 1)
        #expect(!dot.contains("JustSink\\nmain.swift:2 · #12"))

        let expanded = try TraceRenderer.graph(
            of: Fixtures.flatMapJust(count: 50), view: .graph, options: RenderOptions(expand: true))
        #expect(expanded.nodeCount == 2 + 6 + 50 * 4)
        #expect(!expanded.dotText.contains("×"))
    }

    @Test func filtersKeepMatchingNodes() throws {
        let document = Fixtures.reference()
        let byType = try TraceRenderer.graph(of: document, view: .graph, options: RenderOptions(filterType: "Sink"))
        #expect(byType.nodeCount == 2)
        let bySite = try TraceRenderer.graph(
            of: document, view: .graph, options: RenderOptions(filterSite: "main.swift:3"))
        #expect(bySite.nodeCount == 1)
        #expect(bySite.dotText.contains("AnonymousDisposable"))
    }
}

@Suite struct ViewFitTests {
    @Test func unknownSubscriptionDoesNotFit() {
        #expect(throws: RenderError.self) {
            try TraceRenderer.graph(of: Fixtures.reference(), view: .flow, options: RenderOptions(subscription: 99))
        }
    }

    @Test func traceWithoutEventsHasNoMarbles() {
        #expect(throws: RenderError.viewDoesNotFit("marbles view: no events in the trace")) {
            try TraceRenderer.graph(of: Fixtures.manyChains(count: 2), view: .marbles)
        }
    }

    @Test func tooLargeGraphDoesNotFit() throws {
        let document = Fixtures.manyChains(count: 1_200)
        do {
            _ = try TraceRenderer.graph(of: document, view: .graph)
            Issue.record("a 6,000-node graph rendered under a 5,000-node limit")
        } catch {
            #expect(error.description.contains("6000 nodes"))
        }
        #expect(
            try TraceRenderer.graph(of: document, view: .graph, options: RenderOptions(filterSite: "main.swift:1209"))
                .nodeCount == 5)
    }

    @Test func emptyTraceDoesNotFitAnyView() {
        for view in RenderView.allCases {
            #expect(throws: RenderError.self) { try TraceRenderer.graph(of: TraceDocument(), view: view) }
        }
    }

    @Test func graphvizRejectsBrokenDOTWithAnError() {
        var graph = DotGraph(name: "broken")
        graph.root.nodes.append(DotNode("a", ["label": .html("a>>")]))
        #expect(throws: RenderError.self) { try TraceRenderer.render(graph, format: .svg) }
        // The context is still usable afterwards.
        #expect(throws: Never.self) { try TraceRenderer.render(Fixtures.reference(), view: .graph, format: .svg) }
    }
}

@Suite struct DotTextTests {
    @Test func labelsAreEscaped() {
        #expect(DotID.quote("plain_1") == "plain_1")
        #expect(DotID.quote("1abc") == "\"1abc\"")
        #expect(DotID.quote("node") == "\"node\"")
        #expect(DotID.quote("a \"b\" \\ c\nd") == "\"a \\\"b\\\" \\\\ c\\nd\"")
        #expect(DotID.html("<a & \"b\">") == "&lt;a &amp; &quot;b&quot;&gt;")
    }

    @Test func hostileValuesStillRender() throws {
        var document = Fixtures.reference()
        document.nodes[0].type = "Weird\"<Type>&\\"
        document.nodes[0].callSite = "}{ digraph \\\" ;"
        document.events[0].value = "<TD>\"]]"
        for view in RenderView.allCases {
            let svg = try TraceRenderer.render(document, view: view, format: .svg)
            #expect(!svg.isEmpty)
        }
    }
}

@Suite struct DumpTests {
    /// Writes PNGs of larger examples when `RXANATOMY_DUMP_DIR` is set (for looking at them).
    @Test func dumpLargerExamples() throws {
        guard let directory = ProcessInfo.processInfo.environment["RXANATOMY_DUMP_DIR"] else { return }
        let url = URL(fileURLWithPath: directory)
        let flatMap = Fixtures.flatMapJust(count: 10_000)
        try TraceRenderer.render(flatMap, view: .graph, format: .png).write(
            to: url.appendingPathComponent("flatmap-graph.png"))
        try TraceRenderer.render(
            Fixtures.flatMapJust(count: 3), view: .graph, format: .png, options: RenderOptions(expand: true)
        )
        .write(to: url.appendingPathComponent("flatmap3-expanded.png"))
        try TraceRenderer.render(Fixtures.flatMapJust(count: 3), view: .marbles, format: .png)
            .write(to: url.appendingPathComponent("flatmap3-marbles.png"))
        try TraceRenderer.render(flatMap, view: .resources, format: .png).write(
            to: url.appendingPathComponent("flatmap-resources.png"))
    }
}

@Suite struct ConcurrencyTests {
    /// Graphviz is not thread-safe; the lock must make concurrent renders safe and equal.
    @Test func concurrentRendersAgree() throws {
        let document = Fixtures.mapSubject()
        let expected = try TraceRenderer.render(document, view: .graph, format: .svg)
        let results = Mutex<[Data?]>(Array(repeating: nil, count: 16))
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let view = RenderView.allCases[index % RenderView.allCases.count]
            let data = try? TraceRenderer.render(document, view: view, format: view == .graph ? .svg : .png)
            results.withLock { $0[index] = data }
        }
        let all = results.withLock { $0 }
        #expect(all.allSatisfy { $0 != nil && !$0!.isEmpty })
        for index in stride(from: 0, to: 16, by: RenderView.allCases.count) { #expect(all[index] == expected) }
    }
}

/// The graph view counts its nodes before building anything; the count is what it then draws.
@Suite struct GraphCountTests {
    @Test func countedBeforeBuildingIsWhatIsDrawn() throws {
        for document in [
            Fixtures.reference(), Fixtures.reference(disposed: false), Fixtures.mapSubject(),
            Fixtures.flatMapJust(count: 6), Fixtures.manyChains(count: 40),
        ] {
            for options in [
                RenderOptions(), RenderOptions(expand: true), RenderOptions(filterType: "Sink"),
                RenderOptions(expand: true, filterSite: "main.swift"),
            ] {
                let view = GraphView(document, options)
                guard let drawing = try? view.drawing() else {
                    #expect(view.drawnCount() == 0 || view.drawnCount() > options.maxNodes)
                    continue
                }
                #expect(view.drawnCount() == drawing.graph.nodeCount)
            }
        }
    }
}

/// Found by `make fuzz` (2026-11-25): a node deinitialised before it was created makes the live
/// count go below zero, and the resources view's sparkline indexed its blocks with it (a trap).
@Suite struct FuzzFindingRenderTests {
    @Test func negativeAndHugeLiveCountsDrawWithoutTrapping() throws {
        var document = Fixtures.reference()
        document.resources = []
        document.nodes[0].created = 814
        document.nodes[0].deinitialized = 181
        _ = try TraceRenderer.graph(of: document, view: .resources)
        #expect(ResourcesView.sparkline([-5, 0, 3, 7]) == "▁▁▄█")
        #expect(ResourcesView.sparkline([Int.max, Int.max / 2, 0]) == "█▄▁")
    }
}
