import Foundation
import RxTrace
import Testing

/// `TraceTestReport` on hand-made documents: what each test's marks enclose, tests that ran at
/// the same time, a test the run stopped during, and leaks outside every test.
@Suite struct TraceTestReportTests {
    /// A subscription (observer, sink, disposer, returned disposable) made at `seq`, open unless
    /// `disposedAt` is given, its ids starting at `first`.
    func subscription(_ first: UInt64, at seq: UInt64, disposedAt: UInt64? = nil) -> ([TraceNode], [TraceEdge]) {
        let nodes = [
            TraceNode(id: first, kind: .observer, type: "AnonymousObserver", callSite: "T.swift:\(seq)", created: seq),
            TraceNode(
                id: first + 1, kind: .disposable, type: "SinkDisposer", callSite: "T.swift:\(seq)", created: seq + 1),
            TraceNode(id: first + 2, kind: .sink, type: "MapSink", callSite: "T.swift:\(seq)", created: seq + 2),
            TraceNode(
                id: first + 3, kind: .disposable, type: "BinaryDisposable", callSite: "T.swift:\(seq)", created: seq + 3
            ),
        ].map { node in
            var node = node
            node.disposed = disposedAt
            return node
        }
        let edges = [
            TraceEdge(from: first + 2, to: first, relation: .forward),
            TraceEdge(from: first + 1, to: first + 2, relation: .owns),
            TraceEdge(from: first + 3, to: first + 1, relation: .owns),
        ]
        return (nodes, edges)
    }

    func document(_ parts: [([TraceNode], [TraceEdge])], marks: [TraceMark]) -> TraceDocument {
        TraceDocument(nodes: parts.flatMap(\.0), edges: parts.flatMap(\.1), marks: marks)
    }

    @Test func eachTestGetsWhatItLeftAndWhatBecameOfIt() throws {
        // a() leaves one open for good; b() leaves one that is disposed later, during c();
        // c() leaves none; one more is made after every test.
        let trace = document(
            [
                subscription(1, at: 11), subscription(5, at: 21, disposedAt: 33), subscription(9, at: 41),
            ],
            marks: [
                TraceMark(seq: 10, kind: .testStarted, name: "S/a()"),
                TraceMark(seq: 19, kind: .testEnded, name: "S/a()"),
                TraceMark(seq: 20, kind: .testStarted, name: "S/b()"),
                TraceMark(seq: 29, kind: .testEnded, name: "S/b()"),
                TraceMark(seq: 30, kind: .testStarted, name: "S/c()"),
                TraceMark(seq: 39, kind: .testEnded, name: "S/c()"),
            ])
        let report = TraceTestReport(trace)
        #expect(report.tests.map(\.name) == ["S/a()", "S/b()", "S/c()"])
        #expect(report.testsWithLeftovers == 2 && report.testsWithoutLeftovers == 1 && !report.testsOverlapped)
        let (a, b, c) = (report.tests[0], report.tests[1], report.tests[2])
        #expect(a.leftovers.map(\.id) == [1, 2, 3, 4] && a.stillHeld.count == 4 && a.releasedLater.isEmpty)
        #expect(a.roots.map(\.node.id) == [4] && a.roots.first?.cause == .disposable)
        #expect(b.leftovers.map(\.id) == [5, 6, 7, 8] && b.releasedLater.count == 4 && b.stillHeld.isEmpty)
        #expect(c.leftovers.isEmpty && c.roots.isEmpty)
        #expect(report.outside.map(\.id) == [9, 10, 11, 12])
        #expect(report.outsideRoots.map(\.node.id) == [12])
        // The run's own report is as of its end.
        #expect(report.leaks.nodes.map(\.id) == [1, 2, 3, 4, 9, 10, 11, 12])
    }

    @Test func testsThatOverlapSayWithWhich() {
        let trace = document(
            [subscription(1, at: 12)],
            marks: [
                TraceMark(seq: 10, kind: .testStarted, name: "x()"),
                TraceMark(seq: 11, kind: .testStarted, name: "y()"),
                TraceMark(seq: 20, kind: .testEnded, name: "x()"), TraceMark(seq: 21, kind: .testEnded, name: "y()"),
                TraceMark(seq: 30, kind: .testStarted, name: "z()"), TraceMark(seq: 31, kind: .testEnded, name: "z()"),
            ])
        let report = TraceTestReport(trace)
        #expect(report.testsOverlapped)
        #expect(report.tests.map(\.overlapping) == [["y()"], ["x()"], []])
        // Told by time: both x() and y() were running when it was made.
        #expect(report.tests.map(\.leftovers.count) == [4, 4, 0])
    }

    @Test func aTestTheRunStoppedDuringIsReadToTheEnd() {
        let trace = document(
            [subscription(1, at: 12)], marks: [TraceMark(seq: 10, kind: .testStarted, name: "crashes()")])
        let report = TraceTestReport(trace)
        #expect(report.tests.count == 1 && report.tests[0].ended == nil)
        #expect(report.tests[0].leftovers.count == 4 && report.outside.isEmpty)
    }

    @Test func aTestRunTwiceIsTwoRuns() {
        let trace = document(
            [subscription(1, at: 22)],
            marks: [
                TraceMark(seq: 10, kind: .testStarted, name: "p()"), TraceMark(seq: 11, kind: .testEnded, name: "p()"),
                TraceMark(seq: 20, kind: .testStarted, name: "p()"), TraceMark(seq: 30, kind: .testEnded, name: "p()"),
            ])
        let report = TraceTestReport(trace)
        #expect(report.tests.map(\.leftovers.count) == [0, 4])
    }
}
