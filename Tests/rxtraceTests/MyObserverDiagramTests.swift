import ChildProcess
import Foundation
import RxTrace
import Testing

/// 000's `MyObserver` (chapter 02: a class conforming to `ObserverType`, subscribed directly):
/// its run draws the observer and its marbles, as it does for the core's own observers.
@Suite(.serialized) struct MyObserverDiagramTests {
    @Test func theChapterDrawsMyObserverAndItsMarbles() throws {
        let rxtrace = try #require(CLI.binary, "\(CLIMissing())")
        let chapter = rxtrace.deletingLastPathComponent().appendingPathComponent("chapter02")
        let scratch = try Scratch()
        let run = try CLI.run(["--diagrams", "out"], in: scratch.url, program: chapter)
        #expect(run.status == 0, "chapter02 failed: \(run.stderr)")
        let out = scratch.url.appendingPathComponent("out")
        let trace = try TraceDocument.read(from: out.appendingPathComponent("myobserver.trace.json"))
        let observer = try #require(trace.nodes.first { $0.type == "MyObserver" })
        #expect(observer.kind == .observer && observer.callSite?.hasPrefix("main.swift:") == true)
        #expect(
            trace.events.filter { $0.node == observer.id }.map { TraceEventKind.describe($0.kind, $0.value) } == [
                "next(1)", "next(2)", "next(3)", "next(4)", "completed",
            ])
        #expect(Trace.leaks(in: trace).isEmpty)

        // The flow names it at both ends of the subscription: it subscribes, the sink forwards to it.
        let flow = try String(contentsOf: out.appendingPathComponent("myobserver.flow.txt"), encoding: .utf8)
        #expect(flow.hasPrefix("1. subscribe  MyObserver#\(observer.id) → ObservableSequence#"))
        #expect(flow.contains(" → MyObserver#\(observer.id)  [next(4)]\n"))
        // The marbles have its lane; the graph, its node.
        let marbles = try String(contentsOf: out.appendingPathComponent("myobserver.marbles.svg"), encoding: .utf8)
        #expect(marbles.contains(">MyObserver<"))
        #expect(!marbles.contains("no events"))
        let graph = try String(contentsOf: out.appendingPathComponent("myobserver.graph.svg"), encoding: .utf8)
        #expect(graph.contains(">MyObserver<"))
        // And the report page has it.
        let report = try CLI.run(["report", "out/myobserver.trace.json", "-o", "report.html"], in: scratch.url)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(
            try String(contentsOf: scratch.url.appendingPathComponent("report.html"), encoding: .utf8)
                .contains("\"MyObserver\""))
    }
}
