import Foundation
import RxTrace

/// What to draw.
public enum RenderView: String, CaseIterable, Sendable {
    /// The subscription graph: observables on top, sinks below, one cluster per subscription.
    case graph
    /// The numbered calls of one subscription (the documents' step1…step9).
    case flow
    /// One lane per node, events along a time axis.
    case marbles
    /// Live object counts over the steps, total and top types.
    case resources
}

/// How to write it.
public enum RenderFormat: String, CaseIterable, Sendable {
    case svg, png, pdf
    /// Our own deterministic DOT text (not Graphviz's laid-out DOT).
    case dot

    /// The format a file name asks for (`graph.svg` → `.svg`), if it is one we write.
    public init?(pathExtension: String) {
        self.init(rawValue: pathExtension.lowercased())
    }
}

/// Choices that change what a view shows.
public struct RenderOptions: Sendable, Equatable {
    /// Draw every repeated inner subscription instead of one `×N` node.
    public var expand: Bool
    /// Keep only nodes whose type contains this text.
    public var filterType: String?
    /// Keep only nodes whose call site contains this text.
    public var filterSite: String?
    /// Any node id of the subscription to draw (flow; also narrows marbles). Default: the first.
    public var subscription: UInt64?
    /// The most nodes a graph may draw.
    public var maxNodes: Int
    /// The most calls a flow may list.
    public var maxSteps: Int
    /// The most time slots and lanes a marble diagram may hold.
    public var maxMarbleColumns: Int
    public var maxMarbleLanes: Int

    public init(
        expand: Bool = false, filterType: String? = nil, filterSite: String? = nil, subscription: UInt64? = nil,
        maxNodes: Int = 5_000, maxSteps: Int = 2_000, maxMarbleColumns: Int = 400, maxMarbleLanes: Int = 200
    ) {
        self.expand = expand
        self.filterType = filterType
        self.filterSite = filterSite
        self.subscription = subscription
        self.maxNodes = maxNodes
        self.maxSteps = maxSteps
        self.maxMarbleColumns = maxMarbleColumns
        self.maxMarbleLanes = maxMarbleLanes
    }

    func matches(_ node: TraceNode) -> Bool {
        if let filterType, !filterType.isEmpty, !node.type.localizedCaseInsensitiveContains(filterType) { return false }
        if let filterSite, !filterSite.isEmpty {
            let site = [node.callSite, node.fileID].compactMap { $0 }.joined(separator: " ")
            if !site.localizedCaseInsensitiveContains(filterSite) { return false }
        }
        return true
    }
}

/// Why a view could not be drawn; `description` is the one line `rxtrace` prints.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// The view does not fit the trace (nothing to draw, no such subscription, too large).
    case viewDoesNotFit(String)
    /// Graphviz failed.
    case graphviz(String)

    public var description: String {
        switch self {
        case .viewDoesNotFit(let message): return message
        case .graphviz(let message): return message
        }
    }
}

/// Draws traces.
///
/// ```swift
/// let svg = try TraceRenderer.render(document, view: .graph, format: .svg)
/// ```
public enum TraceRenderer {
    /// The view as a graph model (its `dotText` is the `dot` format).
    public static func graph(
        of document: TraceDocument, view: RenderView, options: RenderOptions = RenderOptions()
    ) throws(RenderError) -> DotGraph {
        switch view {
        case .graph: return try GraphView(document, options).build()
        case .flow: return try FlowView(document, options).build()
        case .marbles: return try MarblesView(document, options).build()
        case .resources: return try ResourcesView(document, options).build()
        }
    }

    /// The view rendered in `format`.
    public static func render(
        _ document: TraceDocument, view: RenderView, format: RenderFormat, options: RenderOptions = RenderOptions()
    ) throws(RenderError) -> Data {
        let dot = try graph(of: document, view: view, options: options)
        return try render(dot, format: format)
    }

    /// A graph model rendered in `format`.
    ///
    /// Labels of flat edges are moved outside first (Graphviz 2.42 corrupts its layout on them).
    /// When the layout still fails, the graph is laid out once more with simpler settings
    /// (`simplifiedForLayout`); only when that fails too is it an error.
    public static func render(_ graph: DotGraph, format: RenderFormat) throws(RenderError) -> Data {
        let graph = graph.withFlatEdgeLabelsOutside()
        if format == .dot { return Data(graph.dotText.utf8) }
        switch GraphvizC.render(dot: graph.dotText, format: format.rawValue) {
        case .success(let data):
            return data
        case .failure(.layout(let first)):
            switch GraphvizC.render(dot: graph.simplifiedForLayout().dotText, format: format.rawValue) {
            case .success(let data): return data
            case .failure(let second):
                throw .graphviz("\(first); the simpler fallback layout failed too: \(second.message)")
            }
        case .failure(let failure):
            throw .graphviz(failure.message)
        }
    }
}

// MARK: - Shared labels and colours

enum Palette {
    static let disposedFill = "#e6e6e6"
    static let disposedText = "#777777"
    static let leakedFill = "#ffd6d6"
    static let leakedLine = "#d62728"
    static let liveFill = "#ffffff"
    static let observableFill = "#eaf2fb"
    static let run = "#1f77b4"
    static let forward = "#2ca02c"
    static let source = "#555555"
    static let owns = "#8c8c8c"
    static let subscribes = "#9467bd"
}

extension TraceNode {
    /// `main.swift:5 · #2`
    var siteAndID: String {
        if let callSite { return "\(callSite) · #\(id)" }
        return "#\(id)"
    }

    /// `AnonymousObserver #2`
    var shortName: String { "\(type) #\(id)" }
}

extension TraceRenderer {
    /// The top-level subscriptions of a trace (`Trace.subscriptions(in:)`); any of their node ids
    /// names them in `--subscription`.
    public static func subscriptions(in document: TraceDocument) -> [TraceSubscriptionInfo] {
        Trace.subscriptions(in: document)
    }
}
