/// The details of the subscribe flow's steps that name nodes (`subscribe(2)`,
/// `run(observer: 2, cancel: 3)`, `sink: 4, subscription: 5`), as the recorder keeps them: which
/// detail, and its numbers (display ids). The text is made only when the trace is read or written
/// as text: formatting it at every step was about a tenth of a traced subscribe + dispose on the
/// recording thread. `rxtrace/3` writes the detail's code and its numbers; any tracer other than
/// the recorder gets the text (`RxTracer.step`).
package enum TraceDetail: UInt8, CaseIterable, Sendable {
    /// `subscribe(observer)`.
    case subscribe
    /// `run(observer: observer, cancel: disposer)`.
    case run
    /// `sink: sink, subscription: subscription`.
    case sinkAndSubscription

    /// How many numbers it names.
    package var arity: Int { self == .subscribe ? 1 : 2 }

    /// The text with its numbers.
    package func text(_ first: UInt64, _ second: UInt64) -> String {
        switch self {
        case .subscribe: return "subscribe(\(first))"
        case .run: return "run(observer: \(first), cancel: \(second))"
        case .sinkAndSubscription: return "sink: \(first), subscription: \(second)"
        }
    }
}

/// Marks a step record's words as a `TraceDetail` and its two numbers.
enum TraceDetailWords {}

/// Records `call` from `caller` to `callee` with `detail` naming `first` (and `second`), when
/// tracing: the numbers go into the record as they are; another tracer gets the text.
@inline(__always)
func traceStep(
    _ call: TraceCall, from caller: UInt64, to callee: UInt64, _ detail: TraceDetail, _ first: UInt64,
    _ second: UInt64 = 0
) {
    if let tracer = Tracing.active { tracer.step(call, from: caller, to: callee, detail, first, second) }
}

extension RxTracer {
    /// `step(_:from:to:detail:)` with a `TraceDetail`: the recorder keeps its numbers, any
    /// other tracer gets its text. The numbers are node ids (display ids are written).
    func step(
        _ call: TraceCall, from caller: UInt64, to callee: UInt64, _ detail: TraceDetail, _ first: UInt64,
        _ second: UInt64
    ) {
        let first = Tracing.displayID(first), second = Tracing.displayID(second)
        // The recorder is a final class: its type says it, with no dynamic cast.
        if type(of: self) == TraceRecorder.self {
            unsafeDowncast(self, to: TraceRecorder.self).step(
                call, from: caller, to: callee, words: (UInt64(detail.rawValue), first, second))
        } else {
            step(call, from: caller, to: callee, detail: detail.text(first, second))
        }
    }
}
