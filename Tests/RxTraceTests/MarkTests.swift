import Foundation
import RxTrace
import Testing

/// Marks (`Tracing.mark`: a test starting or ending) are kept in `seq` order with the rest of
/// the trace, written in both formats and read back.
@Suite(.serialized) struct MarkTests {
    @Test func marksAreKeptInOrderAndSurviveBothFormats() throws {
        let trace = checkingNoLeaks {
            Trace.record {
                Tracing.mark(.testStarted, "Suite/first()")
                let d = Observable.of(1).subscribe(onNext: { _ in })
                d.dispose()
                Tracing.mark(.testEnded, "Suite/first()")
            }
        }
        #expect(trace.marks.map(\.name) == ["Suite/first()", "Suite/first()"])
        #expect(trace.marks.map(\.kind) == [.testStarted, .testEnded])
        let (start, end) = (trace.marks[0].seq, trace.marks[1].seq)
        // The clock orders them with everything else: the subscription lies between them.
        #expect(trace.nodes.allSatisfy { $0.created > start && $0.created < end })
        for format in TraceFormat.allCases {
            let data = try trace.data(format: format)
            #expect(try TraceDocument.decode(data) == trace, "\(format)")
        }
        #expect(String(decoding: trace.jsonLinesData(), as: UTF8.self).contains("[\"m\",\(start),"))
        // No marks, no key: a trace without them is written as before.
        let plain = Trace.record { _ = Observable.just(1).subscribe() }
        #expect(!String(decoding: try plain.jsonData(), as: UTF8.self).contains("\"marks\""))
    }

    @Test func aNestedScopeKeepsItsOwnMarks() {
        let recorder = TraceRecorder()
        Tracing.tracer = recorder
        Tracing.mark(.testStarted, "before")
        let nested = Trace.record { Tracing.mark(.testStarted, "inside") }
        Tracing.tracer = nil
        #expect(nested.marks.map(\.name) == ["inside"])
        #expect(recorder.snapshot().marks.map(\.name) == ["before", "inside"])
        // Nothing is marked with no tracer installed.
        Tracing.mark(.testEnded, "untraced")
        #expect(recorder.snapshot().marks.count == 2)
    }
}
