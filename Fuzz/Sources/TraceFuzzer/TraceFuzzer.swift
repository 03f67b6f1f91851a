import Foundation
import RxGraphviz
import RxTrace

/// One fuzzer input: bytes that may be a trace file.
///
/// They go through `TraceDocument.decode`, the entry point `rxtrace` reads every file with
/// (whatever the format version), then, when they decode, through what `rxtrace` does with a
/// document: the leak report, the summary and every view as DOT text; small inputs are also
/// laid out by Graphviz as SVG. Any crash, hang or sanitizer report is a bug: a bad file must end
/// in a `TraceFileError` or a `RenderError`, never in a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func traceFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // rxtrace/2 as `rxtrace summary` and `leaks` stream it: the graph kept, steps and events counted.
    var builder = TraceDocumentBuilder(keep: .graph)
    var counts = TraceFlowCounts()
    if let status = try? TraceRecordReader.read(
        data, path: "<fuzz>",
        { (record) throws(TraceFileError) in
            switch record {
            case .step(let step): counts.add(step)
            case .event(let event): counts.add(event)
            default: break
            }
            try builder.add(record)
        }), let graph = try? builder.document(status)
    {
        _ = TraceSummary(graph: graph, counts: counts).description
        _ = Trace.subscriptions(in: graph)
    }
    guard let document = try? TraceDocument.decode(data, path: "<fuzz>") else { return 0 }
    _ = Trace.leaks(in: document)
    _ = TraceTestReport(document)
    _ = Trace.summary(of: document)
    // Small limits keep each run fast; past them a view must say so, not crash.
    let options = RenderOptions(maxNodes: 300, maxSteps: 300, maxMarbleColumns: 100, maxMarbleLanes: 50)
    for view in RenderView.allCases {
        _ = try? TraceRenderer.render(document, view: view, format: .dot, options: options)
        // Graphviz's layout is most of a run's time: only small inputs go through it.
        if count <= 4_096 && document.nodes.count <= 40 && document.steps.count <= 60 {
            _ = try? TraceRenderer.render(document, view: view, format: .svg, options: options)
        }
    }
    return 0
}
