import Foundation
import RxTrace
import Testing
import TraceFixtures

@testable import RxGraphviz

/// Issue 5: the graph of real traces crashed Graphviz 2.42 (`free(): double free` in
/// `gvFreeLayout`, "triangulation failed" on the signup form). The cause was labelled flat edges:
/// the observables share the top rank, so an operator with two sources (zip, combineLatest,
/// sample, withLatestFrom) or a source shared by two operators gave two labelled edges on one
/// rank that share an end.
@Suite(.serialized) struct LayoutSafetyTests {
    private struct Failure: Error, CustomStringConvertible { var description: String }

    /// Records `body` and checks that every core object it made is gone afterwards.
    private func recording(
        _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) rethrows -> TraceDocument {
        let before = Resources.total
        let trace = try Trace.record(body)
        #expect(
            Resources.total == before, "leaked \(Resources.total - before) core objects", sourceLocation: sourceLocation
        )
        return trace
    }

    /// No edge between two nodes that a rank constraint puts on one rank keeps a `label`.
    private func expectNoLabelledFlatEdges(_ graph: DotGraph, sourceLocation: SourceLocation = #_sourceLocation) {
        let groups = graph.rankGroups()
        var flat: [String] = []
        var edges: [DotEdge] = []
        func collect(_ subgraph: DotSubgraph) {
            edges += subgraph.edges
            subgraph.subgraphs.forEach(collect)
        }
        collect(graph.root)
        for edge in edges where edge.attributes["label"] != nil {
            if groups.contains(where: { $0.contains(edge.from) && $0.contains(edge.to) }) {
                flat.append("\(edge.from) -> \(edge.to)")
            }
        }
        #expect(flat.isEmpty, "labelled flat edges: \(flat)", sourceLocation: sourceLocation)
    }

    /// Every view in every format; all of them fit these traces.
    private func renderEverything(_ trace: TraceDocument, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let graph = try TraceRenderer.graph(of: trace, view: .graph)
        expectNoLabelledFlatEdges(graph, sourceLocation: sourceLocation)
        for view in RenderView.allCases {
            for format in RenderFormat.allCases {
                let data = try TraceRenderer.render(trace, view: view, format: format)
                switch format {
                case .svg:
                    #expect(
                        String(decoding: data, as: UTF8.self).contains("</svg>"), "\(view) svg",
                        sourceLocation: sourceLocation)
                case .png:
                    #expect(
                        Array(data.prefix(4)) == [0x89, 0x50, 0x4E, 0x47], "\(view) png", sourceLocation: sourceLocation
                    )
                case .pdf:
                    #expect(
                        String(decoding: data.prefix(5), as: UTF8.self) == "%PDF-", "\(view) pdf",
                        sourceLocation: sourceLocation)
                case .dot:
                    #expect(
                        String(decoding: data, as: UTF8.self).hasPrefix("digraph"), "\(view) dot",
                        sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// The observables of the graph view, by type, in the top row.
    private func observableTypes(_ trace: TraceDocument) -> [String] {
        let structure = TraceStructure(trace)
        return structure.observables.map { structure.byID[$0]!.type }
    }

    @Test func zipOfTwoSubjects() throws {
        var printed: [String] = []
        let trace = recording {
            let bag = DisposeBag()
            let first = PublishSubject<String>()
            let second = PublishSubject<String>()
            Observable.zip(first, second) { $0 + $1 }
                .subscribe(onNext: { printed.append($0) })
                .disposed(by: bag)
            first.onNext("1")
            first.onNext("2")
            second.onNext("A")
            second.onNext("B")
            first.onNext("3")
            second.onNext("C")
        }
        #expect(printed == ["1A", "2B", "3C"])
        #expect(observableTypes(trace).contains("Zip"))
        try renderEverything(trace)
    }

    @Test func combineLatestOfTwoSubjects() throws {
        var printed: [String] = []
        let trace = recording {
            let bag = DisposeBag()
            let first = PublishSubject<String>()
            let second = PublishSubject<String>()
            Observable.combineLatest(first, second) { $0 + $1 }
                .subscribe(onNext: { printed.append($0) })
                .disposed(by: bag)
            first.onNext("1")
            second.onNext("A")
            first.onNext("2")
            second.onNext("B")
        }
        #expect(printed == ["1A", "2A", "2B"])
        #expect(observableTypes(trace).contains("CombineLatest"))
        try renderEverything(trace)
    }

    @Test func sampleBySecondSubject() throws {
        var printed: [Int] = []
        let trace = recording {
            let bag = DisposeBag()
            let source = PublishSubject<Int>()
            let sampler = PublishSubject<Void>()
            source.sample(sampler)
                .subscribe(onNext: { printed.append($0) })
                .disposed(by: bag)
            source.onNext(1)
            source.onNext(2)
            sampler.onNext(())
            sampler.onNext(())
            source.onNext(3)
            sampler.onNext(())
        }
        #expect(printed == [2, 3])
        #expect(observableTypes(trace).contains("Sample"))
        try renderEverything(trace)
    }

    /// What a Driver is made of, without the main scheduler: errors replaced, one shared
    /// replaying subscription, several subscribers.
    @Test func driverLikeSharing() throws {
        var first: [[String]] = []
        var second: [[String]] = []
        let trace = recording {
            let bag = DisposeBag()
            let query = BehaviorSubject<String>(value: "rx")
            let rows =
                query
                .map { text -> [String] in
                    if text.isEmpty { throw RxError.unknown }
                    return [text, text.uppercased()]
                }
                .catchAndReturn(["(offline)"])
                .share(replay: 1, scope: .whileConnected)
            rows.subscribe(onNext: { first.append($0) }).disposed(by: bag)
            rows.map { $0.count }.subscribe(onNext: { _ in }).disposed(by: bag)
            rows.subscribe(onNext: { second.append($0) }).disposed(by: bag)
            query.onNext("swift")
            query.onNext("")
        }
        #expect(first == [["rx", "RX"], ["swift", "SWIFT"], ["(offline)"]])
        #expect(second == first)
        try renderEverything(trace)
    }

    /// The chapter 21 form: validations shared, combined, and sampled by the button.
    @Test func signupLikeForm() throws {
        var enabled: [Bool] = []
        var signups: [String] = []
        let trace = recording {
            let bag = DisposeBag()
            let username = BehaviorSubject<String>(value: "")
            let password = BehaviorSubject<String>(value: "")
            let repeated = BehaviorSubject<String>(value: "")
            let tap = PublishSubject<Void>()

            let usernameValid = username.map { Observable.just($0.count >= 3) }.switchLatest().share(replay: 1)
            let passwordValid = password.map { $0.count >= 5 }.share(replay: 1)
            let repeatedValid = Observable.combineLatest(password, repeated) { $0 == $1 && !$1.isEmpty }.share(
                replay: 1)
            let signing =
                tap
                .withLatestFrom(Observable.combineLatest(username, password) { "\($0):\($1)" })
                .map { Observable.just($0) }
                .switchLatest()
                .startWith("idle")
                .share(replay: 1)
            Observable.combineLatest(usernameValid, passwordValid, repeatedValid, signing) {
                $0 && $1 && $2 && $3 != "busy"
            }
            .distinctUntilChanged()
            .subscribe(onNext: { enabled.append($0) })
            .disposed(by: bag)
            signing.subscribe(onNext: { signups.append($0) }).disposed(by: bag)

            username.onNext("alice")
            password.onNext("secret")
            repeated.onNext("secret")
            tap.onNext(())
        }
        #expect(enabled == [false, true])
        #expect(signups == ["idle", "alice:secret"])
        #expect(observableTypes(trace).filter { $0 == "CombineLatest" }.count == 3)
        try renderEverything(trace)
    }

    /// The smallest graph that crashed: two labelled flat edges into one node.
    @Test func labelledFlatEdgesSharingAnEndRender() throws {
        var graph = DotGraph(name: "flat")
        var row = DotSubgraph(name: "row", attributes: ["rank": "same"])
        row.nodes = [DotNode("a"), DotNode("b"), DotNode("c")]
        graph.root.subgraphs.append(row)
        graph.root.edges = [
            DotEdge("a", "c", ["label": "x", "color": "red"]), DotEdge("b", "c", ["label": "y"]),
            DotEdge("c", "d", ["label": "z"]),
        ]
        let dot = String(decoding: try TraceRenderer.render(graph, format: .dot), as: UTF8.self)
        #expect(dot.contains("a -> c [xlabel=x, color=red];"))
        #expect(dot.contains("b -> c [xlabel=y];"))
        #expect(dot.contains("c -> d [label=z];"), "an edge that is not flat keeps its label")
        for format in [RenderFormat.svg, .png, .pdf] {
            #expect(try !TraceRenderer.render(graph, format: format).isEmpty)
        }
    }

    @Test func rankGroupsJoinTopAndBottomRanks() {
        var graph = DotGraph(name: "ranks")
        var first = DotSubgraph(name: "first", attributes: ["rank": "min"])
        first.nodes = [DotNode("a")]
        var second = DotSubgraph(name: "second", attributes: ["rank": "source"])
        second.nodes = [DotNode("b")]
        var same = DotSubgraph(name: "same", attributes: ["rank": "same"])
        same.edges = [DotEdge("c", "d")]
        var cluster = DotSubgraph(name: "cluster_x")
        cluster.subgraphs = [same]
        graph.root.subgraphs = [first, second, cluster]
        graph.root.edges = [
            DotEdge("a", "b", ["label": "top"]), DotEdge("c", "d", ["label": "same"]),
            DotEdge("a", "c", ["label": "down"]),
        ]
        #expect(Set(graph.rankGroups()) == [["a", "b"], ["c", "d"]])
        let outside = graph.withFlatEdgeLabelsOutside()
        #expect(outside.root.edges.map { $0.attributes["label"] } == [nil, nil, .text("down")])
        #expect(outside.root.edges.map { $0.attributes["xlabel"] } == [.text("top"), .text("same"), nil])
        #expect(outside.withFlatEdgeLabelsOutside() == outside)
    }

    @Test func simplifiedGraphHasNoConstraints() {
        var graph = DotGraph(name: "g", attributes: ["newrank": "true", "rankdir": "TB"])
        var row = DotSubgraph(name: "row", attributes: ["rank": "min"])
        row.nodes = [DotNode("a"), DotNode("b")]
        row.edges = [DotEdge("a", "b", ["label": "in", "xlabel": "kept"])]
        graph.root.subgraphs = [row]
        graph.root.edges = [DotEdge("a", "c", ["tailport": "s", "label": "out"])]
        let simple = graph.simplifiedForLayout().dotText
        for gone in ["newrank", "rank=min", "[label=", " label=", "tailport"] {
            #expect(!simple.contains(gone), "\(gone) is still there")
        }
        #expect(simple.contains("rankdir=TB") && simple.contains("splines=line"))
        #expect(simple.contains("a -> b [xlabel=kept];") && simple.contains("a -> c [xlabel=out];"))
    }

    /// A layout that reports an error ("lost a b edge": a flat edge from a record port) is not
    /// trusted; the renderer lays the graph out again with simpler settings.
    @Test func layoutErrorFallsBackToSimplerLayout() throws {
        var graph = DotGraph(name: "record")
        var row = DotSubgraph(name: "row", attributes: ["rank": "same"])
        row.nodes = [DotNode("a", ["shape": "record", "label": "<p>x|<q>y"]), DotNode("b")]
        graph.root.subgraphs = [row]
        graph.root.edges = [DotEdge("a", "b", ["tailport": "p"])]
        guard case .failure(.layout(let message)) = GraphvizC.render(dot: graph.dotText, format: "svg") else {
            throw Failure(description: "Graphviz laid out the record graph without an error; the fallback is untested")
        }
        #expect(!message.contains("\n"))
        let svg = String(decoding: try TraceRenderer.render(graph, format: .svg), as: UTF8.self)
        #expect(svg.contains("</svg>") && svg.contains("<title>a&#45;&gt;b</title>"))
        // The shared context still works after the failed layout.
        #expect(try !TraceRenderer.render(Fixtures.reference(), view: .graph, format: .png).isEmpty)
    }
}
