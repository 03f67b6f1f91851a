import Foundation
import RxTrace
import Testing

@testable import RxGraphviz

/// The views on traces recorded from real runs of the core, not built by hand.
@Suite(.serialized) struct RecordedTraceTests {
    @Test func referenceExampleDrawsAsTheDocumentsDescribe() throws {
        var printed: [String] = []
        let trace = checkingNoLeaks {
            Trace.record {
                let observable = Observable<String>.create { observer in
                    observer.onNext("mojito")
                    return Disposables.create()
                }
                let d = observable.subscribe(onNext: { printed.append($0) })
                d.dispose()
            }
        }
        #expect(printed == ["mojito"])
        let structure = TraceStructure(trace)
        #expect(structure.subscriptions.count == 1)
        #expect(structure.byID[structure.subscriptions[0].root]?.type == "AnonymousObserver")
        #expect(structure.observables.map { structure.byID[$0]!.type } == ["AnonymousObservable"])

        let graph = try TraceRenderer.graph(of: trace, view: .graph).dotText
        for type in [
            "AnonymousObservable", "AnonymousObserver", "SinkDisposer", "AnonymousObservableSink", "BinaryDisposable",
        ] {
            #expect(graph.contains("\(type)\\nRecordedTraceTests.swift:"), "graph lacks \(type)")
        }
        #expect(graph.contains("label=run") && graph.contains("label=forward") && graph.contains("label=owns"))
        #expect(!graph.contains(Palette.leakedLine))

        // The flow lists the calls in the documents' order.
        let flow = try TraceRenderer.graph(of: trace, view: .flow).dotText
        var rest = Substring(flow)
        for call in [
            "subscribe", "schedule", "init", "run", "handler", "on", "forwardOn", "onCore", "setSinkAndSubscription",
            "dispose",
        ] {
            guard let range = rest.range(of: "<B>\(call)</B>") else {
                Issue.record("flow lacks \(call) in order")
                break
            }
            rest = rest[range.upperBound...]
        }
        for view in RenderView.allCases {
            for format in [RenderFormat.svg, .png, .pdf] {
                #expect(try !TraceRenderer.render(trace, view: view, format: format).isEmpty)
            }
        }
    }

    @Test func leakedSubscriptionIsRed() throws {
        try checkingNoLeaks {
            var kept: Disposable? = nil
            let trace = Trace.record {
                kept = Observable<String>.create { observer in
                    observer.onNext("mojito")
                    return Disposables.create()
                }.subscribe(onNext: { _ in })
            }
            let graph = try TraceRenderer.graph(of: trace, view: .graph).dotText
            #expect(graph.contains(Palette.leakedLine))
            #expect(!TraceLeakReport(trace).isEmpty)
            kept?.dispose()
            kept = nil
        }
    }

    @Test func mapOverASubjectGivesMarbles() throws {
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                let d = subject.map { $0 * 10 }.subscribe(onNext: { _ in })
                subject.onNext(1)
                subject.onNext(2)
                subject.onCompleted()
                d.dispose()
            }
        }
        let marbles = try TraceRenderer.graph(of: trace, view: .marbles).dotText
        for value in ["(1)", "(2)", "(10)", "(20)", "<B>|</B>"] {
            #expect(marbles.contains(value), "marbles lack \(value)")
        }
        let graph = try TraceRenderer.graph(of: trace, view: .graph).dotText
        #expect(graph.contains("PublishSubject") && graph.contains("MapSink"))
        #expect(try TraceRenderer.render(trace, view: .resources, format: .svg).count > 0)
        #expect(TraceLeakReport(trace).isEmpty)
    }

    @Test func operatorChainIsOneSubscriptionWithoutInnerOnes() throws {
        var printed: [Int] = []
        let trace = checkingNoLeaks {
            Trace.record {
                let d = Observable.of(1, 2).map { $0 * 10 }.filter { $0 > 10 }.subscribe(onNext: { printed.append($0) })
                d.dispose()
            }
        }
        #expect(printed == [20])
        let structure = TraceStructure(trace)
        #expect(structure.subscriptions.count == 1)
        #expect(structure.subscriptions[0].inner.isEmpty)
        #expect(structure.observables.map { structure.byID[$0]!.type } == ["ObservableSequence", "Map", "Filter"])
        let marbles = try TraceRenderer.graph(of: trace, view: .marbles).dotText
        for value in ["(1)", "(2)", "(10)", "(20)"] { #expect(marbles.contains(value), "marbles lack \(value)") }
    }

    /// The trampoline's queue (`enqueue`, `dequeue`) drawn: the flow lists its steps with the
    /// scheduler at the right end, the marbles add a lane with how much waits at each slot.
    @Test func theTrampolinesQueueIsDrawn() throws {
        let trace = checkingNoLeaks {
            Trace.record {
                _ = Observable.of(1, 2)
                    .flatMap { _ in Observable.of("a", "b") }
                    .subscribe(onNext: { _ in })
            }
        }
        let flow = try TraceRenderer.graph(of: trace, view: .flow).dotText
        #expect(flow.contains("<B>enqueue</B></TD><TD ALIGN=\"LEFT\">ObservableSequenceSink #"))
        #expect(
            flow.contains("<B>dequeue</B></TD><TD ALIGN=\"LEFT\">CurrentThreadScheduler → ObservableSequenceSink #"))
        #expect(!flow.contains("<B>dequeue</B></TD><TD ALIGN=\"LEFT\">user code"))
        #expect(flow.contains("CurrentThreadScheduler, 2 queued"))

        let marbles = try TraceRenderer.graph(of: trace, view: .marbles).dotText
        let lane = try #require(marbles.range(of: "<B>CurrentThreadScheduler</B>"))
        // One cell per slot after the lane's name: 0 (·) while the first element is sent, then
        // the others waiting as each next one arrives.
        let cells = marbles[lane.upperBound...].components(separatedBy: "</TR>")[0]
            .components(separatedBy: "<FONT COLOR=\"#777777\">").dropFirst(2).map { $0.prefix { $0 != "<" } }
        #expect(cells.first == "·")
        #expect(cells.contains("2"))
    }

    /// Real `flatMap` recordings collapse as the hand-built ones do: each inner subscription of
    /// `of` (a sink, its disposer, merge's inner observer) and of `just` (no sink: the inner
    /// observer and the `Just` it subscribed to) is one group, merge's disposable of them all
    /// stays outside, and the 40 groups draw as one `×40` node.
    @Test(arguments: ["of", "just"])
    func recordedFlatMapInnerSubscriptionsCollapse(inner: String) throws {
        var sum = 0
        let trace = checkingNoLeaks {
            Trace.record {
                let source = Observable.from(Array(0..<40))
                let flattened =
                    inner == "of" ? source.flatMap { Observable.of($0) } : source.flatMap { Observable.just($0) }
                _ = flattened.subscribe(onNext: { sum += $0 })
            }
        }
        #expect(sum == 780)
        let structure = TraceStructure(trace)
        #expect(structure.subscriptions.count == 1)
        let subscription = try #require(structure.subscriptions.first)
        #expect(subscription.inner.count == 40)
        #expect(Set(subscription.inner.map(\.signature)).count == 1)
        let innerTypes = Set(subscription.inner[0].nodes.map { structure.byID[$0]!.type })
        #expect(innerTypes.contains("MergeInnerObserver"))
        #expect(innerTypes.contains(inner == "of" ? "ObservableSequenceSink" : "Just"))
        // Only the outer producers stay on top.
        #expect(structure.observables.map { structure.byID[$0]!.type } == ["ObservableSequence", "FlatMap"])
        let dot = try TraceRenderer.graph(of: trace, view: .graph).dotText
        #expect(dot.components(separatedBy: "×40").count - 1 == 1)
    }
}
