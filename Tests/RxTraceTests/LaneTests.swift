import Foundation
import RxTrace
import Synchronization
import Testing

@testable import RxCore

/// A streamed recording's threads record into lanes of their own (no lock they share), so one
/// thread may dispose of a node whose birth another thread's lane still holds when the writer
/// takes a batch. These tests set up that order by hand, then run it for real across threads.
@Suite(.serialized) struct LaneTests {
    typealias NodeRecord = TraceRecorder.NodeRecord

    /// A streamed recorder with two lanes, `a` and `b`, as two threads would have.
    private func recorderWithTwoLanes() -> (TraceRecorder, a: TraceRecorder.Buffer, b: TraceRecorder.Buffer) {
        let recorder = TraceRecorder(options: TraceRecorder.Options(), streamed: true)
        let (a, b) = recorder.state.withLock { state in
            let a = TraceRecorder.Buffer(entries: state.records.lendChunk())
            let b = TraceRecorder.Buffer(entries: state.records.lendChunk())
            state.buffers = [a, b]
            return (a, b)
        }
        return (recorder, a, b)
    }

    private func birth(_ index: Int, created: UInt64) -> TraceRecorder.Birth {
        TraceRecorder.Birth(
            index: index,
            node: TraceRecorder.NodeBox(
                NodeRecord(kind: .sink, type: "MapSink", callSite: nil, created: created, thread: 0)))
    }

    private func marks(_ batch: TraceRecorder.StreamBatch) -> [String] {
        batch.ops.compactMap { op in
            guard case .mark(let mark, let id, let seq, _) = op else { return nil }
            return "\(mark) \(id) \(seq)"
        }
    }

    private func nodes(_ batch: TraceRecorder.StreamBatch) -> [(UInt64, NodeRecord)] {
        batch.ops.compactMap { op in
            guard case .node(let id, let position) = op else { return nil }
            return (id, batch.nodes[position].record)
        }
    }

    @Test func aChangeBeforeItsBirthIsWrittenAndAppliedWhenTheBirthComes() throws {
        let (recorder, a, b) = recorderWithTwoLanes()
        // Thread b disposed of node 1 and let it go; thread a's lane does not hold its birth yet.
        b.lane.withLock { $0.ops += [.disposed(0, 5), .deinitialized(0, 6)] }
        let first = recorder.takeBatch()
        #expect(marks(first) == ["disposed 1 5", "deinitialized 1 6"])
        #expect(nodes(first).isEmpty)
        a.lane.withLock { $0.births.append(birth(0, created: 4)) }
        let second = recorder.takeBatch()
        let written = try #require(nodes(second).first)
        #expect(written.0 == 1 && written.1.created == 4)
        #expect(written.1.disposed == 5 && written.1.deinitialized == 6)
        #expect(marks(second).isEmpty, "the marks were written with the first batch")
        // Deinitialized and written: it leaves memory.
        #expect(second.nodesHeld == 0)
    }

    @Test func aBirthAndItsChangesInOneBatchAreTakenBirthFirst() throws {
        let (recorder, a, b) = recorderWithTwoLanes()
        // Lane a is taken before lane b, but b holds the birth.
        a.lane.withLock { $0.ops.append(.disposed(0, 8)) }
        b.lane.withLock { $0.births.append(birth(0, created: 7)) }
        let batch = recorder.takeBatch()
        #expect(nodes(batch).map(\.0) == [1])
        #expect(marks(batch) == ["disposed 1 8"])
        #expect(recorder.state.withLock { $0.stream!.orphans.isEmpty })
        #expect(batch.nodesHeld == 1)
    }

    /// A lane's backlog (checked at every append, inlined, added without overflow checks)
    /// counts a record or an edge as one and a birth or a node op as four, and wakes the writer
    /// once a batch, when it reaches `Lane.wakeAt`.
    @Test func aLaneBacklogWeighsBirthsAndOpsAndWakesTheWriterOnce() {
        var lane = TraceRecorder.Lane()
        let edge = TraceEdge(from: 1, to: 2, relation: .forward)
        lane.edges = Array(repeating: edge, count: 5)
        lane.births.append(birth(0, created: 1))
        lane.ops += [.disposed(0, 2), .deinitialized(0, 3)]
        #expect(lane.backlog == 5 + 4 * 3)
        #expect(lane.checkBacklog() == (backlog: 17, wake: false))
        lane.edges += Array(repeating: edge, count: TraceRecorder.Lane.wakeAt - 17)
        #expect(lane.checkBacklog() == (backlog: TraceRecorder.Lane.wakeAt, wake: true))
        lane.edges.append(edge)
        #expect(lane.checkBacklog() == (backlog: TraceRecorder.Lane.wakeAt + 1, wake: false))
        lane.removeAll()
        #expect(lane.backlog == 0 && !lane.woken)
    }

    @Test func aChangeToANodeThatLeftIsWrittenAndLetGo() {
        let (recorder, a, b) = recorderWithTwoLanes()
        a.lane.withLock { lane in
            lane.births.append(birth(0, created: 1))
            lane.ops.append(.deinitialized(0, 3))
        }
        _ = recorder.takeBatch()
        // A late disposal from another thread, of a node written and let go already.
        b.lane.withLock { $0.ops.append(.disposed(0, 2)) }
        let late = recorder.takeBatch()
        #expect(marks(late) == ["disposed 1 2"])
        #expect(recorder.state.withLock { $0.stream!.orphans.count } == 1)
        // Its birth never comes again: the orphan goes at the next batch.
        let next = recorder.takeBatch()
        #expect(next.ops.isEmpty)
        #expect(recorder.state.withLock { $0.stream!.orphans.isEmpty })
        #expect(next.nodesHeld == 0)
    }

    @Test func twoThreadsDisposingOfOneNodeLeaveTheEarliest() {
        let (recorder, a, b) = recorderWithTwoLanes()
        a.lane.withLock { $0.births.append(birth(0, created: 1)) }
        _ = recorder.takeBatch()
        // Lane a is taken first but holds the later disposal.
        a.lane.withLock { $0.ops.append(.disposed(0, 9)) }
        b.lane.withLock { $0.ops.append(.disposed(0, 7)) }
        let batch = recorder.takeBatch()
        #expect(marks(batch) == ["disposed 1 9", "disposed 1 7"])
        #expect(recorder.state.withLock { $0.nodes[0]?.disposed } == 7)
        // A third, later one is not news.
        b.lane.withLock { $0.ops.append(.disposed(0, 12)) }
        #expect(marks(recorder.takeBatch()).isEmpty)
    }

    @Test func anEdgeFromANodeHeldIsWrittenOnce() {
        let (recorder, a, b) = recorderWithTwoLanes()
        let edge = TraceEdge(from: 1, to: 2, relation: .subscribes)
        let stray = TraceEdge(from: 9, to: 2, relation: .forward)
        a.lane.withLock { lane in
            lane.births += [birth(0, created: 1), birth(1, created: 2)]
            lane.edges += [edge, edge, stray]
        }
        b.lane.withLock { $0.edges += [edge, stray] }
        let batch = recorder.takeBatch()
        // Node 9 is not held (never born here): its edge is written each time (readers keep one).
        #expect(batch.edges == [edge, stray, stray])
        #expect(recorder.state.withLock { $0.nodes[0]?.edges } == [edge])
        b.lane.withLock { $0.edges.append(edge) }
        #expect(recorder.takeBatch().edges.isEmpty)
    }

    @Test func twoLanesEdgesAreTakenInOrderAndTheBatchsRoomComesBack() {
        let (recorder, a, b) = recorderWithTwoLanes()
        recorder.keepEdgesPerNode(false)
        let first = TraceEdge(from: 1, to: 2, relation: .owns)
        let second = TraceEdge(from: 3, to: 4, relation: .run)
        a.lane.withLock { $0.edges += [first, first] }
        b.lane.withLock { $0.edges.append(second) }
        // Lane a's edges are moved into the batch, lane b's appended after them.
        var batch = recorder.takeBatch()
        #expect(batch.edges == [first, first, second])
        let room = batch.edges.capacity
        recorder.recycle(&batch)
        #expect(recorder.state.withLock { $0.stream!.edges.isEmpty && $0.stream!.edges.capacity == room })
        // The next batch's edges come through the same room, and are only the new ones.
        a.lane.withLock { $0.edges.append(second) }
        #expect(recorder.takeBatch().edges == [second])
    }

    @Test func aWrittenNodesBoxIsReusedByALaterBirthOnlyWhenNothingHoldsIt() throws {
        let (recorder, a, _) = recorderWithTwoLanes()
        // The test keeps no reference to the boxes: one it held would never be reused.
        a.lane.withLock { lane in
            lane.births += [birth(0, created: 1), birth(1, created: 2)]
            lane.ops.append(.deinitialized(0, 3))
        }
        var batch = recorder.takeBatch()
        #expect(nodes(batch).map(\.0) == [1, 2])
        recorder.recycle(&batch)
        // Node 1 left the table and is written: its box is kept. Node 2 is still held.
        let kept = recorder.spareBoxes.withLock { spares in
            spares.map { (ObjectIdentifier($0), $0.record.created) }
        }
        #expect(kept.map(\.1) == [1])
        let reused = recorder.nodeBox(
            NodeRecord(kind: .observer, type: "AnonymousObserver", callSite: nil, created: 4, thread: 0))
        #expect(ObjectIdentifier(reused) == kept.first?.0)
        #expect(reused.record.type == "AnonymousObserver" && reused.record.created == 4)
        #expect(reused.record.deinitialized == nil, "nothing of the node that left is carried over")
        #expect(recorder.state.withLock { $0.nodes[1]?.type } == "MapSink")
        // None left: a new box.
        #expect(recorder.spareBoxes.withLock { $0.isEmpty })
        let fresh = recorder.nodeBox(NodeRecord(kind: .sink, type: "FilterSink", callSite: nil, created: 5, thread: 0))
        #expect(fresh !== reused)
    }

    @Test func anAnomalyIsAppliedToItsNodeAndWrittenAfterTheBatchsBirths() throws {
        let (recorder, a, _) = recorderWithTwoLanes()
        // The birth is still in its thread's lane: the anomaly takes the lanes first.
        a.lane.withLock { $0.births.append(birth(0, created: 1)) }
        let id = recorder.idBase + 1
        recorder.anomaly(node: id, .eventAfterTermination, detail: "next(1)")
        #expect(recorder.state.withLock { $0.nodes[0]?.anomalies.map(\.detail) } == ["next(1)"])
        let batch = recorder.takeBatch()
        #expect(nodes(batch).map(\.0) == [1])
        #expect(batch.anomalies.map(\.node) == [1])
        #expect(batch.anomalies.map(\.anomaly.kind) == [.eventAfterTermination])
        // Past `anomaliesPerNode` a node's anomalies are counted, not kept or written.
        for _ in 1..<TraceRecorder.anomaliesPerNode {
            recorder.anomaly(node: id, .eventAfterTermination, detail: "next(2)")
        }
        recorder.anomaly(node: id, .eventAfterTermination, detail: "next(3)")
        let next = recorder.takeBatch()
        #expect(next.anomalies.count == TraceRecorder.anomaliesPerNode - 1)
        #expect(recorder.state.withLock { $0.anomaliesDropped } == 1)
        // One of a node that left is still written (readers match it by id).
        a.lane.withLock { $0.ops.append(.deinitialized(0, 9)) }
        _ = recorder.takeBatch()
        recorder.anomaly(node: id, .eventAfterTermination, detail: "next(4)")
        #expect(recorder.takeBatch().anomalies.map(\.anomaly.detail) == ["next(4)"])
    }

    /// The streamed node table: nodes found by index in a window over the newest, the window
    /// slid past those that left, the few that outlive it moved aside and still found.
    @Test func theNodeTableKeepsSurvivorsOfItsWindow() {
        var table = TraceRecorder.NodeTable(evicting: true)
        let count = TraceRecorder.NodeTable.windowLimit * 3
        for index in 0..<count {
            table.insert(index, birth(index, created: UInt64(index + 1)).node)
            // All but every 10,000th leave soon after birth.
            if index >= 8, (index - 8) % 10_000 != 0 { table.evict(index - 8) }
        }
        let survivors = Array(stride(from: 0, to: count - 8, by: 10_000))
        let expected = survivors + Array(count - 8..<count)
        #expect(table.held == expected.count)
        #expect(table.entries().map(\.offset) == expected)
        #expect(table[10_000]?.created == 10_001)
        #expect(table[10_001] == nil)
        #expect(table.apply(.disposed(10_000, 5)) == true)
        #expect(table[10_000]?.disposed == 5)
        #expect(table.apply(.disposed(10_001, 5)) == nil)
        // Changes reach a node in the window, not one that left it, nor an index past either end.
        #expect(table.apply(.terminated(count - 1, 6, at: 9)) == true)
        #expect(table[count - 1]?.terminated == 6 && table[count - 1]?.terminatedAt == 9)
        #expect(table.apply(.terminated(count - 9, 6)) == nil)
        #expect(table.apply(.deinitialized(count, 6)) == nil)
        #expect(table.apply(.deinitialized(-1, 6)) == nil)
        // A late birth below the window is held too.
        table.evict(20_000)
        table.insert(20_000, birth(20_000, created: 7).node)
        #expect(table[20_000]?.created == 7)
        #expect(table.count == count)
        for index in expected { table.evict(index) }
        table.evict(20_000)
        #expect(table.held == 0 && table.entries().isEmpty)
    }

    /// Readers keep the earliest of a node's marks, whatever order their lines come in.
    @Test func readersKeepTheEarliestMark() throws {
        let text = """
            {"format":"rxtrace/2","meta":{}}
            ["n",1,"sink","MapSink",null,null,1,null]
            ["d",1,9]
            ["d",1,7]
            ["a",1,"reentrantOn",6,"second"]
            ["a",1,"reentrantOn",4,"first"]
            ["end",{"reason":"exit","seq":10}]

            """
        let document = try TraceDocument.decode(Data(text.utf8))
        #expect(document.nodes.first?.disposed == 7)
        #expect(document.nodes.first?.anomalies.map(\.detail) == ["first", "second"])
    }

    /// For real: subscriptions made on some threads and disposed of on others, while the writer
    /// takes batches; the file holds every node with its disposal and deinit, and none is left
    /// in memory.
    @Test func subscriptionsDisposedOfOnOtherThreadsAreWholeInTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-\(UUID().uuidString).trace")
        defer { try? FileManager.default.removeItem(at: url) }
        let perThread = 400
        try checkingNoLeaks {
            let recorder = try #require(
                TraceAutostart.start(environment: ["RXTRACE": url.path, "RXTRACE_FORMAT": "2"]))
            defer { TraceAutostart.finish() }
            let subject = PublishSubject<Int>()
            let handOver = Mutex<[Disposable]>([])
            let group = DispatchGroup()
            for thread in 0..<4 {
                group.enter()
                Thread {
                    for step in 0..<perThread {
                        if thread % 2 == 0 {
                            let d = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
                            handOver.withLock { $0.append(d) }
                        } else if let d = handOver.withLock({ $0.popLast() }) {
                            d.dispose()
                        }
                        if step % 100 == 0 { subject.onNext(step) }
                    }
                    group.leave()
                }.start()
            }
            group.wait()
            for d in handOver.withLock({ $0 }) { d.dispose() }
            handOver.withLock { $0 = [] }
            var held = Int.max
            for _ in 0..<40 where held > 10 {
                Thread.sleep(forTimeInterval: 0.05)
                held = recorder.nodesHeld
            }
            #expect(held <= 10, "\(held) nodes still held")
        }
        let document = try TraceDocument.read(from: url)
        let disposers = document.nodes.filter { $0.type == "SinkDisposer" }
        #expect(disposers.count == 2 * perThread)
        #expect(disposers.allSatisfy { $0.disposed != nil && $0.deinitialized != nil })
        #expect(document.nodes.allSatisfy { node in node.disposed.map { $0 > node.created } ?? true })
        #expect(document.nodes.filter { $0.kind != .subject }.allSatisfy { $0.deinitialized != nil })
        #expect(Set(document.nodes.map(\.id)).count == document.nodes.count)
        #expect(Trace.leaks(in: document).isEmpty)
    }
}
