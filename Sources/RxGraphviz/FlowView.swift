import RxTrace

/// The `flow` view: the numbered calls of one subscription, top to bottom, as the documents
/// number step1…step9 — subscribe → schedule → SinkDisposer → run → Sink init → handler → on
/// → forwardOn → onCore → dispose.
struct FlowView {
    let document: TraceDocument
    let options: RenderOptions
    let structure: TraceStructure

    init(_ document: TraceDocument, _ options: RenderOptions) {
        self.document = document
        self.options = options
        structure = TraceStructure(document)
    }

    /// The steps of the chosen subscription, in order.
    func steps() throws(RenderError) -> (TraceStructure.Subscription, [TraceStep]) {
        guard let first = structure.subscriptions.first else {
            throw .viewDoesNotFit("flow view: the trace has no subscriptions")
        }
        var subscription = first
        if let id = options.subscription {
            guard let chosen = structure.subscription(containing: id) else {
                let known = structure.subscriptions.prefix(10).map { String($0.root) }.joined(separator: ", ")
                throw .viewDoesNotFit(
                    "flow view: no subscription contains node \(id) "
                        + "(subscriptions end at observers \(known)\(structure.subscriptions.count > 10 ? ", …" : ""))"
                )
            }
            subscription = chosen
        }
        let members = subscription.allNodes
        let touching = document.steps.filter { members.contains($0.from) || members.contains($0.to) }
        guard let low = touching.map(\.seq).min(), let high = touching.map(\.seq).max() else {
            throw .viewDoesNotFit("flow view: subscription \(subscription.number) recorded no calls")
        }
        let producers = subscription.producers
        var steps = document.steps.filter { step in
            if members.contains(step.from) || members.contains(step.to) { return true }
            guard step.seq >= low, step.seq <= high else { return false }
            let ends = [step.from, step.to].filter { $0 != 0 }
            return !ends.isEmpty && ends.allSatisfy { producers.contains($0) }
        }
        steps.sort { $0.seq < $1.seq }
        if options.filterType != nil || options.filterSite != nil {
            steps = steps.filter { step in
                [step.from, step.to].contains { id in structure.byID[id].map(options.matches) ?? false }
            }
        }
        return (subscription, steps)
    }

    func build() throws(RenderError) -> DotGraph {
        let (subscription, steps) = try steps()
        guard !steps.isEmpty else {
            throw .viewDoesNotFit("flow view: no call of subscription \(subscription.number) matches the filters")
        }
        guard steps.count <= options.maxSteps else {
            throw .viewDoesNotFit(
                "flow view: subscription \(subscription.number) made \(steps.count) calls, more than the limit of "
                    + "\(options.maxSteps); narrow it with --filter-type or --filter-site"
            )
        }
        let root = structure.byID[subscription.root]!
        var graph = DotGraph(
            name: "flow",
            attributes: [
                "rankdir": "TB", "fontname": "Helvetica", "fontsize": "11", "labelloc": "t", "nodesep": "0.2",
                "ranksep": "0.2",
                "label": .text("subscription \(subscription.number) (\(root.shortName)): \(steps.count) calls"),
            ],
            nodeDefaults: ["fontname": "Helvetica", "fontsize": "10", "shape": "plain"],
            edgeDefaults: ["color": "#999999", "arrowsize": "0.6"])
        for (offset, step) in steps.enumerated() {
            graph.root.nodes.append(DotNode("s\(offset + 1)", ["label": .html(row(number: offset + 1, step))]))
            if offset > 0 { graph.root.edges.append(DotEdge("s\(offset)", "s\(offset + 1)")) }
        }
        return graph
    }

    private func name(_ id: UInt64) -> String {
        guard id != 0 else { return "user code" }
        return structure.byID[id]?.shortName ?? "#\(id)"
    }

    private func colour(_ call: TraceCall) -> String {
        switch call {
        case .subscribe, .schedule, .enqueue, .dequeue: return "#dbe9f6"
        case .run, .`init`, .handler, .setSinkAndSubscription: return "#fdebd0"
        case .on, .forwardOn, .onCore: return "#d5f5e3"
        case .dispose: return "#e6e6e6"
        }
    }

    private func row(number: Int, _ step: TraceStep) -> String {
        let h = DotID.html
        var target = step.to == step.from || step.to == 0 ? "" : " → \(h(name(step.to)))"
        if step.call == .schedule && step.to == 0 { target = "" }
        // The scheduler is no node: the steps it takes part in name it (`dequeue` from it).
        let caller = step.from == 0 ? h(step.schedulerName ?? name(step.from)) : h(name(step.from))
        var who = "\(caller)\(target)"
        if let site = structure.byID[step.to == 0 ? step.from : step.to]?.callSite {
            who += "  <FONT COLOR=\"#777777\">\(h(site))</FONT>"
        }
        var detail = ""
        if let text = step.detail, !text.isEmpty {
            detail = "<TD ALIGN=\"LEFT\"><FONT COLOR=\"#555555\">\(h(DotID.truncate(text, 60)))</FONT></TD>"
        }
        return """
            <TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" CELLPADDING="4" \
            COLOR="#999999" BGCOLOR="\(colour(step.call))">\
            <TR><TD ALIGN="RIGHT" WIDTH="30"><B>\(number)</B></TD><TD ALIGN="LEFT"><B>\(h(step.call.rawValue))</B></TD>\
            <TD ALIGN="LEFT">\(who)</TD>\(detail)</TR></TABLE>
            """
    }
}
