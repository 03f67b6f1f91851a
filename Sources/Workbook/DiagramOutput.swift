import Foundation
import RxCore
import RxGraphviz

/// Writes the views of a trace: each as SVG through RxGraphviz (`base.graph.svg`,
/// `base.flow.svg`, `base.marbles.svg`), and the flow also as text (`base.flow.txt`, the
/// numbered calls as the documents list step1…step9), readable in a terminal.
public enum DiagramOutput {
    /// Writes `view` of `trace` next to `base`. A view that does not fit the trace (no events
    /// for marbles, say) is skipped with one line on stderr naming the reason; nil then.
    ///
    /// Each view is drawn by the `rxtrace` executable built next to the chapter (one process per
    /// picture, so a Graphviz failure costs one picture, never the chapter), from the trace file
    /// `base.trace.json` that `Diagrams` wrote first; without `rxtrace`, in process.
    @discardableResult
    public static func render(_ trace: TraceDocument, view: String, base: URL) throws -> URL? {
        if view == "flow" { _ = try write(trace, view: view, base: base) }
        guard let renderView = RenderView(rawValue: view) else { return try write(trace, view: view, base: base) }
        let url = base.appendingPathExtension("\(view).svg")
        let traceFile = base.appendingPathExtension("trace.json")
        if let rxtrace = rxtraceExecutable, FileManager.default.fileExists(atPath: traceFile.path) {
            let process = Process()
            process.executableURL = rxtrace
            process.arguments = ["render", traceFile.path, "--view", view, "--format", "svg", "-o", url.path]
            // rxtrace links the core: without this it would record itself into our RXTRACE file.
            var environment = ProcessInfo.processInfo.environment
            environment["RXTRACE"] = nil
            process.environment = environment
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationStatus == 0 { return url }
            let reason =
                message.split(separator: "\n").first.map(String.init)
                ?? "rxtrace exited with \(process.terminationStatus)"
            FileHandle.standardError.write(Data("note: \(base.lastPathComponent): no \(view) view (\(reason))\n".utf8))
            return nil
        }
        do {
            let data = try TraceRenderer.render(trace, view: renderView, format: .svg)
            try data.write(to: url, options: .atomic)
            return url
        } catch let error as RenderError {
            FileHandle.standardError.write(
                Data("note: \(base.lastPathComponent): no \(view) view (\(error.description))\n".utf8))
            return nil
        }
    }

    /// `rxtrace`, when it was built next to this executable.
    static let rxtraceExecutable: URL? = {
        guard let directory = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else {
            return nil
        }
        let candidate = directory.appendingPathComponent("rxtrace")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    /// Writes `view` of `trace` as text next to `base` (`base.graph.dot`, `base.flow.txt`,
    /// `base.marbles.txt`).
    public static func write(_ trace: TraceDocument, view: String, base: URL) throws -> URL {
        let (text, ext): (String, String)
        switch view {
        case "graph": (text, ext) = (graphDOT(trace), "graph.dot")
        case "flow": (text, ext) = (flowText(trace), "flow.txt")
        default: (text, ext) = (marblesText(trace), "marbles.txt")
        }
        let url = base.appendingPathExtension(ext)
        try Data(text.utf8).write(to: url, options: .atomic)
        return url
    }

    /// Nodes numbered 1, 2, … in order of birth, whatever id space the recorder used.
    struct Names {
        let nodes: [UInt64: TraceNode]
        let numbers: [UInt64: Int]

        init(_ trace: TraceDocument) {
            let sorted = trace.nodes.sorted { $0.created == $1.created ? $0.id < $1.id : $0.created < $1.created }
            nodes = Dictionary(uniqueKeysWithValues: sorted.map { ($0.id, $0) })
            numbers = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($0.element.id, $0.offset + 1) })
        }

        subscript(id: UInt64) -> TraceNode? { nodes[id] }

        func label(_ id: UInt64) -> String {
            guard let node = nodes[id] else { return "user code" }
            return "\(node.type)#\(numbers[id]!)"
        }
    }

    /// `1. subscribe  AnonymousObserver#2 → AnonymousObservable#1`.
    public static func flowText(_ trace: TraceDocument) -> String {
        let nodes = Names(trace)
        var lines: [String] = []
        for (n, step) in trace.steps.enumerated() {
            var line: String
            if let scheduler = step.schedulerName {
                let caller = step.from == 0 ? scheduler : nodes.label(step.from)
                let target = step.to == 0 ? scheduler : nodes.label(step.to)
                line = "\(n + 1). \(step.call.rawValue)  \(caller) → \(target)"
                if let note = step.schedulerNote { line += "  [\(note)]" }
            } else {
                let target = step.to == 0 ? (step.detail ?? "user code") : nodes.label(step.to)
                line = "\(n + 1). \(step.call.rawValue)  \(nodes.label(step.from)) → \(target)"
                // The details of these calls name nodes by raw id; the arrow already says who.
                let namesNodes: Set<TraceCall> = [.subscribe, .run, .`init`, .setSinkAndSubscription]
                if let detail = step.detail, step.to != 0, !namesNodes.contains(step.call) { line += "  [\(detail)]" }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The trampoline's queue as it grows and drains (000's `CurrentThreadScheduler`): each
    /// `enqueue` and `dequeue` with what waits after it, and, where they happen, the events the
    /// final observers receive.
    ///
    /// ```
    /// enqueue  ObservableSequenceSink#4    queue: [ObservableSequenceSink#4]
    /// dequeue  ObservableSequenceSink#4    queue: []
    ///   AnonymousObserver#1 ← next(A)
    /// ```
    public static func queueText(_ trace: TraceDocument) -> String {
        let nodes = Names(trace)
        var queue: [UInt64] = []
        var lines: [String] = []
        let steps = trace.steps.filter { $0.call == .enqueue || $0.call == .dequeue }.map { ($0.seq, $0) }
        let received = trace.events.filter { nodes[$0.node]?.kind == .observer }.map { ($0.seq, $0) }
        let width = (steps.map { nodes.label($0.1.call == .enqueue ? $0.1.from : $0.1.to).count }.max() ?? 0) + 4
        var s = 0, e = 0
        while s < steps.count || e < received.count {
            if e < received.count, s == steps.count || received[e].0 < steps[s].0 {
                let event = received[e].1
                lines.append("  \(nodes.label(event.node)) ← \(TraceEventKind.describe(event.kind, event.value))")
                e += 1
                continue
            }
            let step = steps[s].1
            s += 1
            let item = step.call == .enqueue ? step.from : step.to
            if step.call == .enqueue {
                queue.append(item)
            } else if let index = queue.firstIndex(of: item) {
                queue.remove(at: index)
            }
            let waiting = "[" + queue.map(nodes.label).joined(separator: ", ") + "]"
            let name = nodes.label(item).padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("\(step.call.rawValue)  \(name)queue: \(waiting)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One lane per node that received events: `MapSink#4  next(3) next(4) completed`.
    public static func marblesText(_ trace: TraceDocument) -> String {
        let nodes = Names(trace)
        var order: [UInt64] = []
        var lanes: [UInt64: [String]] = [:]
        for event in trace.events {
            if lanes[event.node] == nil { order.append(event.node) }
            let mark: String
            switch event.kind {
            case .next: mark = event.value ?? "•"
            case .completed: mark = "|"
            case .error: mark = "X"
            }
            let at = event.virtualTime ? "@\(Int(event.time))" : ""
            lanes[event.node, default: []].append(mark + at)
        }
        let width = order.map { nodes.label($0).count }.max() ?? 0
        return order.map { id in
            let name = nodes.label(id)
            return name.padding(toLength: width, withPad: " ", startingAt: 0) + "  --"
                + lanes[id]!.joined(separator: "--") + "\n"
        }.joined()
    }

    /// The subscription graph: nodes by kind, edges by relation, disposed nodes grey.
    public static func graphDOT(_ trace: TraceDocument) -> String {
        let names = Names(trace)
        var out = "digraph trace {\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n"
        for node in trace.nodes {
            let shape: String
            switch node.kind {
            case .producer, .observable: shape = "box"
            case .subject: shape = "box3d"
            case .sink: shape = "ellipse"
            case .observer: shape = "doublecircle"
            case .disposable: shape = "note"
            case .scheduled: shape = "cds"
            }
            var attributes = "shape=\(shape)"
            if node.kind == .disposable { attributes += ", style=dashed" }
            if node.disposed != nil || node.deinitialized != nil { attributes += ", color=grey50, fontcolor=grey30" }
            let site = node.callSite.map { "\\n\($0)" } ?? ""
            out += "  n\(names.numbers[node.id]!) [label=\"\(names.label(node.id))\(site)\", \(attributes)];\n"
        }
        for edge in trace.edges {
            let style: String
            switch edge.relation {
            case .source: style = "style=bold"
            case .run: style = "color=blue"
            case .forward: style = "color=darkgreen"
            case .owns: style = "style=dashed, color=grey40"
            case .subscribes: style = "color=purple"
            }
            guard let from = names.numbers[edge.from], let to = names.numbers[edge.to] else { continue }
            out += "  n\(from) -> n\(to) [label=\"\(edge.relation.rawValue)\", \(style), fontsize=8];\n"
        }
        return out + "}\n"
    }
}
