/// What each test of a recorded suite left open when it ended: read from the marks the test kit
/// writes (`Tracing.mark`: RxTesting's `.noLeaks` trait, RxTest's XCTest observer) when a suite
/// runs under `RXTRACE`.
///
/// ```swift
/// let report = TraceTestReport(document)
/// for test in report.tests where !test.leftovers.isEmpty {
///     print(test.name, test.leftovers.count, test.stillHeld.count)   // leavesABag() 5 5
/// }
/// ```
///
/// A test's leftovers are the nodes born between its start and end marks that were leaked when
/// it ended (`TraceLeakReport(document, at: end)`: alive, never disposed, their subscription
/// still open), with the roots that held them then. What became of them is said apart, since a
/// test framework may hold a test's objects after it ends: `stillHeld` were still leaked at the
/// end of the run (XCTest keeps every test case object, and what its properties hold, until the
/// run ends; so does a global), `releasedLater` were let go, disposed or finished after the test
/// ended. Leaks of the run born outside every test are `outside`.
///
/// Attribution goes by time: tests that ran at the same time (Swift Testing runs tests in
/// parallel unless told not to) cannot be told apart, and each says which others overlapped it.
public struct TraceTestReport: Sendable {
    /// One test, from its start mark to its end mark.
    public struct Test: Sendable {
        /// The name its marks carry (`LeakSuite/leavesABag()`, `LeakTests.testLeavesABag`).
        public var name: String
        public var started: UInt64
        /// The `seq` of its end mark; nil when the run stopped during it (then it is read as of
        /// the end of the trace).
        public var ended: UInt64?
        /// What it made that was leaked when it ended, in id order.
        public var leftovers: [TraceNode]
        /// The roots holding them when it ended (each root's `held` narrowed to them).
        public var roots: [TraceLeakReport.Root]
        /// Of `leftovers`: still leaked at the end of the run.
        public var stillHeld: [TraceNode]
        /// Of `leftovers`: disposed, finished or let go after the test ended.
        public var releasedLater: [TraceNode]
        /// Tests whose time overlapped this one's.
        public var overlapping: [String]
    }

    /// In order of their start.
    public let tests: [Test]
    /// Leaked at the end of the run and born outside every test (before the first, between two,
    /// after the last), with their roots.
    public let outside: [TraceNode]
    public let outsideRoots: [TraceLeakReport.Root]
    /// The leaks at the end of the run.
    public let leaks: TraceLeakReport

    /// Tests that left something open, and tests that left nothing.
    public var testsWithLeftovers: Int { tests.filter { !$0.leftovers.isEmpty }.count }
    public var testsWithoutLeftovers: Int { tests.filter(\.leftovers.isEmpty).count }
    /// Whether any two tests overlapped in time.
    public var testsOverlapped: Bool { tests.contains { !$0.overlapping.isEmpty } }

    public init(_ document: TraceDocument) {
        let graph = TraceGraphIndex(document)
        let final = TraceLeakReport(document, graph: graph)
        leaks = final
        let lastSeq = max(TraceSummary.lastSeq(of: document), document.marks.last?.seq ?? 0)
        // Pair each end with the latest start of the same name still open.
        var open: [String: [Int]] = [:]
        var spans: [(name: String, start: UInt64, end: UInt64?)] = []
        for mark in document.marks.sorted(by: { $0.seq < $1.seq }) {
            switch mark.kind {
            case .testStarted:
                open[mark.name, default: []].append(spans.count)
                spans.append((mark.name, mark.seq, nil))
            case .testEnded:
                if let index = open[mark.name]?.popLast() { spans[index].end = mark.seq }
            }
        }
        let finalLeaked = Set(final.nodes.map(\.id))
        var tests: [Test] = []
        for (index, span) in spans.enumerated() {
            let end = span.end ?? lastSeq
            let atEnd = TraceLeakReport(document, graph: graph, at: end, findingRoots: false)
            let leftovers = atEnd.nodes.filter { $0.created > span.start && $0.created <= end }
            var roots: [TraceLeakReport.Root] = []
            if !leftovers.isEmpty {
                let mine = Set(leftovers.map(\.id))
                var mask = [Bool](repeating: false, count: graph.nodeCount)
                for node in leftovers { if let position = graph.position(of: node.id) { mask[position] = true } }
                roots = HoldGraph(graph, Moment(seq: end)).roots(of: mask).map { root in
                    var root = root
                    root.held = root.held.filter { mine.contains($0.id) }
                    return root
                }
            }
            let overlapping = spans.enumerated().filter { other in
                other.offset != index && other.element.start < end && (other.element.end ?? lastSeq) > span.start
            }.map(\.element.name)
            tests.append(
                Test(
                    name: span.name, started: span.start, ended: span.end, leftovers: leftovers, roots: roots,
                    stillHeld: leftovers.filter { finalLeaked.contains($0.id) },
                    releasedLater: leftovers.filter { !finalLeaked.contains($0.id) }, overlapping: overlapping))
        }
        self.tests = tests
        func inATest(_ node: TraceNode) -> Bool {
            spans.contains { node.created > $0.start && node.created <= ($0.end ?? lastSeq) }
        }
        outside = final.nodes.filter { !inATest($0) }
        let outsideIDs = Set(outside.map(\.id))
        outsideRoots = final.roots.compactMap { root in
            var root = root
            root.held = root.held.filter { outsideIDs.contains($0.id) }
            return root.held.isEmpty ? nil : root
        }
    }
}
