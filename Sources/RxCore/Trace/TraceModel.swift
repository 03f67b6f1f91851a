import Foundation

/// A recorded run: the subscription graph (nodes, edges), the ordered calls of the subscribe
/// flow (steps), the events, and live resource counts over time.
///
/// It is what the recorder produces, what `rxtrace` reads, and what the JSON file
/// (`"format": "rxtrace/1"`, see docs/trace-format.md) holds, losslessly.
public struct TraceDocument: Codable, Equatable, Sendable {
    /// The format tag every file carries.
    public static let currentFormat = "rxtrace/1"

    public var format: String
    /// Free-form facts about the run: program name, arguments, start date…
    public var meta: [String: String]
    public var nodes: [TraceNode]
    public var edges: [TraceEdge]
    public var steps: [TraceStep]
    public var events: [TraceEvent]
    public var resources: [ResourceSample]
    /// How many steps and events the recording ring dropped (oldest first).
    public var dropped: DroppedCounts
    /// The points of the run the program marked (tests starting and ending), in `seq` order; all
    /// kept. Written only when there are any.
    public var marks: [TraceMark]

    public init(
        format: String = TraceDocument.currentFormat,
        meta: [String: String] = [:],
        nodes: [TraceNode] = [],
        edges: [TraceEdge] = [],
        steps: [TraceStep] = [],
        events: [TraceEvent] = [],
        resources: [ResourceSample] = [],
        dropped: DroppedCounts = DroppedCounts(),
        marks: [TraceMark] = []
    ) {
        self.format = format
        self.meta = meta
        self.nodes = nodes
        self.edges = edges
        self.steps = steps
        self.events = events
        self.resources = resources
        self.dropped = dropped
        self.marks = marks
    }

    private enum CodingKeys: String, CodingKey {
        case format, meta, nodes, edges, steps, events, resources, dropped, marks
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        meta = try container.decode([String: String].self, forKey: .meta)
        nodes = try container.decode([TraceNode].self, forKey: .nodes)
        edges = try container.decode([TraceEdge].self, forKey: .edges)
        steps = try container.decode([TraceStep].self, forKey: .steps)
        events = try container.decode([TraceEvent].self, forKey: .events)
        resources = try container.decode([ResourceSample].self, forKey: .resources)
        dropped = try container.decode(DroppedCounts.self, forKey: .dropped)
        marks = try container.decodeIfPresent([TraceMark].self, forKey: .marks) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(meta, forKey: .meta)
        try container.encode(nodes, forKey: .nodes)
        try container.encode(edges, forKey: .edges)
        try container.encode(steps, forKey: .steps)
        try container.encode(events, forKey: .events)
        try container.encode(resources, forKey: .resources)
        try container.encode(dropped, forKey: .dropped)
        if !marks.isEmpty { try container.encode(marks, forKey: .marks) }
    }
}

/// What a mark says happened (`Tracing.mark`).
public enum TraceMarkKind: String, Sendable, CaseIterable, Codable {
    /// A test started: what is born from here to its end is its doing (`TraceTestReport`).
    case testStarted
    /// The test of the same name ended.
    case testEnded
}

/// A point of the run the program marked: RxTesting's `.noLeaks` trait and RxTest's test
/// observer mark each test's start and end, so `rxtrace leaks --by-test` can say what each
/// test left behind.
public struct TraceMark: Codable, Equatable, Hashable, Sendable {
    public var seq: UInt64
    public var kind: TraceMarkKind
    /// The test's name (`LeakTests/leavesABag()`).
    public var name: String
    public var thread: String?

    public init(seq: UInt64, kind: TraceMarkKind, name: String, thread: String? = nil) {
        self.seq = seq
        self.kind = kind
        self.name = name
        self.thread = thread
    }
}

/// One Producer, Sink, observer, subject, disposable or scheduled item.
public struct TraceNode: Codable, Equatable, Hashable, Sendable {
    /// Stable, monotonic, never 0.
    public var id: UInt64
    public var kind: TraceNodeKind
    /// Short type name: `MapSink`, not the generic spelling.
    public var type: String
    /// `main.swift:7`, when known.
    public var callSite: String?
    /// The `#fileID` of the call site (`MyApp/main.swift`), when known.
    public var fileID: String?
    /// The logical step (`TraceStep.seq` clock) at which it was created.
    public var created: UInt64
    /// The step at which it was disposed, if it was.
    public var disposed: UInt64?
    /// The step at which it was deinitialised, if it was.
    public var deinitialized: UInt64?
    /// The step at which it received `error` or `completed`, if it did.
    public var terminated: UInt64?
    /// The thread it was created on (`main`, `1234`, or a queue label).
    public var thread: String?
    /// Grammar or threading breaches seen on this node.
    public var anomalies: [TraceAnomalyRecord]
    /// When it was born, in seconds since the recording started (the clock of events' `time`
    /// when that is not virtual: a timeline's). Absent from traces written before these were
    /// recorded.
    public var createdAt: Double?
    /// When it was first disposed of, in seconds since the recording started.
    public var disposedAt: Double?
    /// When it was deinitialized, in seconds since the recording started.
    public var deinitializedAt: Double?
    /// When it received `error` or `completed`, in seconds since the recording started (real
    /// time, also under a virtual time scheduler).
    public var terminatedAt: Double?

    public init(
        id: UInt64, kind: TraceNodeKind, type: String, callSite: String? = nil, fileID: String? = nil,
        created: UInt64 = 0, disposed: UInt64? = nil, deinitialized: UInt64? = nil, terminated: UInt64? = nil,
        thread: String? = nil, anomalies: [TraceAnomalyRecord] = [], createdAt: Double? = nil,
        disposedAt: Double? = nil, deinitializedAt: Double? = nil, terminatedAt: Double? = nil
    ) {
        self.id = id
        self.kind = kind
        self.type = type
        self.callSite = callSite
        self.fileID = fileID
        self.created = created
        self.disposed = disposed
        self.deinitialized = deinitialized
        self.terminated = terminated
        self.thread = thread
        self.anomalies = anomalies
        self.createdAt = createdAt
        self.disposedAt = disposedAt
        self.deinitializedAt = deinitializedAt
        self.terminatedAt = terminatedAt
    }
}

/// An anomaly seen on a node.
public struct TraceAnomalyRecord: Codable, Equatable, Hashable, Sendable {
    public var kind: TraceAnomaly
    /// The step at which it happened.
    public var seq: UInt64
    public var detail: String

    public init(kind: TraceAnomaly, seq: UInt64, detail: String) {
        self.kind = kind
        self.seq = seq
        self.detail = detail
    }
}

/// A relation between two nodes.
public struct TraceEdge: Codable, Equatable, Hashable, Sendable {
    public var from: UInt64
    public var to: UInt64
    public var relation: TraceRelation

    public init(from: UInt64, to: UInt64, relation: TraceRelation) {
        self.from = from
        self.to = to
        self.relation = relation
    }
}

/// One call of the subscribe flow: `seq` orders everything in a trace (node creation,
/// disposal, events share the same clock).
public struct TraceStep: Codable, Equatable, Hashable, Sendable {
    public var seq: UInt64
    /// Caller node (0: user code).
    public var from: UInt64
    /// Callee node (0: not a node, e.g. a scheduler).
    public var to: UInt64
    public var call: TraceCall
    /// What was passed: `next(mojito)`, `CurrentThreadScheduler`…
    public var detail: String?
    public var thread: String?

    public init(seq: UInt64, from: UInt64, to: UInt64, call: TraceCall, detail: String? = nil, thread: String? = nil) {
        self.seq = seq
        self.from = from
        self.to = to
        self.call = call
        self.detail = detail
        self.thread = thread
    }
}

/// An event delivered to a node.
public struct TraceEvent: Codable, Equatable, Hashable, Sendable {
    public var seq: UInt64
    public var node: UInt64
    public var kind: TraceEventKind
    /// The element's or error's description, truncated.
    public var value: String?
    /// Virtual time under a `TestScheduler`, otherwise seconds since recording began.
    public var time: Double
    /// True when `time` is virtual.
    public var virtualTime: Bool
    public var thread: String?

    public init(
        seq: UInt64, node: UInt64, kind: TraceEventKind, value: String?, time: Double, virtualTime: Bool = false,
        thread: String? = nil
    ) {
        self.seq = seq
        self.node = node
        self.kind = kind
        self.value = value
        self.time = time
        self.virtualTime = virtualTime
        self.thread = thread
    }
}

/// Live object counts at one step.
public struct ResourceSample: Codable, Equatable, Hashable, Sendable {
    public var seq: UInt64
    public var total: Int
    /// Live counts per short type name; zero counts left out.
    public var byType: [String: Int]

    public init(seq: UInt64, total: Int, byType: [String: Int]) {
        self.seq = seq
        self.total = total
        self.byType = byType
    }
}

/// What the bounded recording had to let go of.
public struct DroppedCounts: Codable, Equatable, Hashable, Sendable {
    public var steps: Int
    public var events: Int
    public var resources: Int

    public init(steps: Int = 0, events: Int = 0, resources: Int = 0) {
        self.steps = steps
        self.events = events
        self.resources = resources
    }
}
