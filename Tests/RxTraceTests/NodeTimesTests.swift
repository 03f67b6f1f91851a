import Foundation
import RxTrace
import Testing

/// When each node was born, first disposed of, deinitialized and terminated (what a timeline
/// draws as a subscription's span): recorded on the clock of events' times, in a recording in
/// code, in a streamed `rxtrace/2` file, and read back from lines that carry them or not.
@Suite(.serialized) struct NodeTimesTests {
    /// A run with a subject, a finished sequence and a disposal from outside.
    static func run() {
        let subject = PublishSubject<Int>()
        let d = subject.map { $0 * 2 }.filter { $0 > 2 }.subscribe(onNext: { _ in })
        for value in 0..<50 { subject.onNext(value) }
        subject.onCompleted()
        d.dispose()
        let e = Observable.of(1, 2, 3).map { $0 + 1 }.subscribe(onNext: { _ in })
        e.dispose()
    }

    @Test func aRecordingInCodeTimesEveryChange() {
        let trace = checkingNoLeaks { Trace.record { Self.run() } }
        #expect(trace.nodes.count > 10)
        for node in trace.nodes {
            #expect(node.createdAt != nil, "\(node.type) \(node.id)")
            #expect((node.disposed == nil) == (node.disposedAt == nil), "\(node.type) \(node.id)")
            #expect((node.deinitialized == nil) == (node.deinitializedAt == nil), "\(node.type) \(node.id)")
            #expect((node.terminated == nil) == (node.terminatedAt == nil), "\(node.type) \(node.id)")
        }
        #expect(trace.nodes.contains { $0.disposedAt != nil && $0.terminatedAt != nil && $0.deinitializedAt != nil })
        #expect(Self.outOfOrder(trace) == [])
    }

    /// What times must be on one thread: births, disposals and deinits in `seq` order; a node
    /// terminated at the time of its stop event (the events of one delivery share one clock
    /// reading: see docs/trace-format.md); every event before its node was deinitialized.
    static func outOfOrder(_ trace: TraceDocument) -> [String] {
        var problems: [String] = []
        var changes: [(seq: UInt64, time: Double, what: String)] = []
        let byID = Dictionary(uniqueKeysWithValues: trace.nodes.map { ($0.id, $0) })
        for node in trace.nodes {
            let name = "\(node.type) \(node.id)"
            if let time = node.createdAt { changes.append((node.created, time, "\(name) born")) }
            if let seq = node.disposed, let time = node.disposedAt { changes.append((seq, time, "\(name) disposed")) }
            if let seq = node.deinitialized, let time = node.deinitializedAt {
                changes.append((seq, time, "\(name) deinitialized"))
            }
        }
        changes.sort { $0.seq < $1.seq }
        for (earlier, later) in zip(changes, changes.dropFirst()) where later.time < earlier.time {
            problems.append("\(later.what) at \(later.time) before \(earlier.what) at \(earlier.time)")
        }
        for event in trace.events where !event.virtualTime {
            guard let node = byID[event.node] else { continue }
            if event.kind != .next, node.terminated == event.seq, node.terminatedAt != event.time {
                problems.append(
                    "\(node.type) \(node.id) terminated at \(node.terminatedAt ?? -1), its event at \(event.time)")
            }
            if let end = node.deinitializedAt, event.time > end {
                problems.append("event \(event.seq) at \(event.time) after \(node.type) \(node.id) went at \(end)")
            }
        }
        return problems
    }

    @Test func linesWithAndWithoutTimesRead() throws {
        let text = """
            {"format":"rxtrace/2","meta":{}}
            ["n",1,"sink","MapSink",null,null,1,null,0.000125]
            ["n",2,"sink","FilterSink",null,null,2,null]
            ["t",1,5,0.0005]
            ["d",1,7,0.00075]
            ["d",1,6,0.0006]
            ["x",1,8]
            ["d",2,9,"a field of a later version"]
            ["end",{"reason":"exit","seq":9}]

            """
        let document = try TraceDocument.decode(Data(text.utf8))
        let first = try #require(document.nodes.first)
        #expect(first.createdAt == 0.000125 && first.terminatedAt == 0.0005)
        // The earliest disposal is kept, with its own time.
        #expect(first.disposed == 6 && first.disposedAt == 0.0006)
        #expect(first.deinitialized == 8 && first.deinitializedAt == nil)
        #expect(document.nodes[1].createdAt == nil)
        #expect(document.nodes[1].disposed == 9 && document.nodes[1].disposedAt == nil)
        // Written back and read again, the times stay.
        let again = try TraceDocument.decode(document.jsonLinesData())
        #expect(again.nodes == document.nodes)
    }
}
