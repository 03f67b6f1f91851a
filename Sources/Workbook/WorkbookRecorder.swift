import Foundation
import RxCore
import Synchronization

/// A small in-memory tracer for the chapters' own diagrams: keeps every node, edge, step and
/// event of one example (examples are small, so nothing is bounded here).
final class WorkbookRecorder: RxTracer {
    private struct State {
        var nextID: UInt64 = 1
        var seq: UInt64 = 0
        var nodes: [UInt64: TraceNode] = [:]
        var edges: [TraceEdge] = []
        var steps: [TraceStep] = []
        var events: [TraceEvent] = []
        var resources: [ResourceSample] = []
    }

    private let state = Mutex(State())

    private func time() -> (Double, Bool) {
        if let clock = VirtualClock.current { return (Double(clock.now), true) }
        return (0, false)
    }

    func node(kind: TraceNodeKind, type: String, callSite: CallSite?) -> UInt64 {
        state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.seq += 1
            s.nodes[id] = TraceNode(id: id, kind: kind, type: type, callSite: callSite?.description,
                                    fileID: callSite?.fileID, created: s.seq)
            return id
        }
    }

    func edge(from: UInt64, to: UInt64, relation: TraceRelation) {
        state.withLock { $0.edges.append(TraceEdge(from: from, to: to, relation: relation)) }
    }

    func step(_ call: TraceCall, from: UInt64, to: UInt64, detail: String?) {
        state.withLock { s in
            s.seq += 1
            s.steps.append(TraceStep(seq: s.seq, from: from, to: to, call: call, detail: detail))
        }
    }

    func event(node: UInt64, kind: TraceEventKind, value: String?) {
        let (t, virtual) = time()
        state.withLock { s in
            s.seq += 1
            s.events.append(TraceEvent(seq: s.seq, node: node, kind: kind, value: value.map { String($0.prefix(80)) },
                                       time: virtual ? t : Double(s.seq), virtualTime: virtual))
        }
    }

    func disposed(_ node: UInt64) {
        state.withLock { s in
            s.seq += 1
            if s.nodes[node]?.disposed == nil { s.nodes[node]?.disposed = s.seq }
        }
    }

    func deinitialized(_ node: UInt64) {
        state.withLock { s in
            s.seq += 1
            s.nodes[node]?.deinitialized = s.seq
        }
    }

    func anomaly(node: UInt64, _ kind: TraceAnomaly, detail: String) {
        state.withLock { s in
            s.seq += 1
            s.nodes[node]?.anomalies.append(TraceAnomalyRecord(kind: kind, seq: s.seq, detail: detail))
        }
    }

    func document(meta: [String: String]) -> TraceDocument {
        let snapshot = Resources.snapshot()
        return state.withLock { s in
            TraceDocument(meta: meta, nodes: s.nodes.values.sorted { $0.id < $1.id }, edges: s.edges,
                          steps: s.steps, events: s.events,
                          resources: [ResourceSample(seq: s.seq, total: snapshot.total, byType: snapshot.counts)])
        }
    }
}
