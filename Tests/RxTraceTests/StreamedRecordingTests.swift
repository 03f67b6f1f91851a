import Foundation
import RxTrace
import Testing

/// `RXTRACE` with `RXTRACE_FORMAT=2`: the trace is written while the program runs, through the
/// entry point the core calls (called directly here; killed processes are the CLI's tests).
@Suite(.serialized) struct StreamedRecordingTests {
    /// The same run recorded in code and streamed gives the same graph, steps and events.
    @Test func theStreamedFileHoldsWhatARecordingInCodeSees() throws {
        func run() {
            let subject = PublishSubject<Int>()
            let d = subject.map { $0 * 2 }.filter { $0 > 2 }.subscribe(onNext: { _ in })
            for value in 0..<300 { subject.onNext(value) }
            subject.onNext(7)
            subject.onCompleted()
            d.dispose()
            let e = Observable.of("a", "b\n\"c\"", String(repeating: "long ", count: 20)).map { $0 + "!" }
                .subscribe(onNext: { _ in })
            e.dispose()
        }
        let inCode = checkingNoLeaks { Trace.record { run() } }
        let streamed = try checkingNoLeaks { try streamedRun(run).document }
        // Two runs: the same nodes, born and changed at other times.
        #expect(streamed.nodes.map(\.withoutTimes) == inCode.nodes.map(\.withoutTimes))
        #expect(streamed.nodes.allSatisfy { $0.createdAt != nil && ($0.disposed == nil) == ($0.disposedAt == nil) })
        #expect(streamed.nodes.allSatisfy { ($0.terminated == nil) == ($0.terminatedAt == nil) })
        #expect(streamed.nodes.allSatisfy { ($0.deinitialized == nil) == ($0.deinitializedAt == nil) })
        #expect(NodeTimesTests.outOfOrder(streamed) == [])
        #expect(streamed.edges == inCode.edges)
        #expect(streamed.steps == inCode.steps)
        #expect(streamed.events.map(\.seq) == inCode.events.map(\.seq))
        #expect(streamed.events.map(\.value) == inCode.events.map(\.value))
        #expect(streamed.events.map(\.node) == inCode.events.map(\.node))
        #expect(streamed.meta["streamed"] == "true")
        #expect(streamed.steps.count > 600)
    }

    /// What was recorded is in the file before the program ends (a crash would leave it).
    @Test func recordsReachTheFileWhileTheProgramRuns() throws {
        let url = temporaryTrace()
        defer { try? FileManager.default.removeItem(at: url) }
        try checkingNoLeaks {
            let recorder = try #require(
                TraceAutostart.start(environment: ["RXTRACE": url.path, "RXTRACE_FORMAT": "2"]))
            defer { TraceAutostart.finish() }
            let subject = PublishSubject<Int>()
            let d = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
            for value in 0..<1000 { subject.onNext(value) }
            // The writer writes at least every 250 ms.
            var lines: [Substring] = []
            for _ in 0..<40
            where !lines.contains(where: { $0.hasPrefix("[\"v\",") && $0.contains(",\"next\",\"1000\",") }) {
                Thread.sleep(forTimeInterval: 0.05)
                lines = (try String(contentsOf: url, encoding: .utf8)).split(separator: "\n")
            }
            #expect(lines.first?.hasPrefix("{\"format\":\"rxtrace/2\"") == true)
            #expect(lines.contains { $0.hasPrefix("[\"v\",") && $0.contains(",\"next\",\"1000\",") })
            #expect(!lines.contains { $0.hasPrefix("[\"end\"") })
            #expect(recorder.currentSeq > 2000)
            d.dispose()
        }
        let decoded = try LinesDecoder.decode(Data(contentsOf: url), exactNumbers: false)
        #expect(decoded.ended == "exit")
    }

    /// Nodes of finished subscriptions leave memory once written; the file has them all.
    @Test func finishedSubscriptionsLeaveMemory() throws {
        let url = temporaryTrace()
        defer { try? FileManager.default.removeItem(at: url) }
        var held = Int.max
        try checkingNoLeaks {
            let recorder = try #require(
                TraceAutostart.start(environment: ["RXTRACE": url.path, "RXTRACE_FORMAT": "2"]))
            defer { TraceAutostart.finish() }
            let subject = PublishSubject<Int>()
            for _ in 0..<1000 {
                let d = subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(onNext: { _ in })
                subject.onNext(1)
                d.dispose()
            }
            for _ in 0..<40 where held > 50 {
                Thread.sleep(forTimeInterval: 0.05)
                held = recorder.nodesHeld
            }
            #expect(recorder.nodeCount > 5000)
        }
        #expect(held <= 50, "\(held) nodes still held")
        let decoded = try LinesDecoder.decode(Data(contentsOf: url), exactNumbers: false)
        #expect(decoded.document.nodes.count > 5000)
        #expect(decoded.document.nodes.filter { $0.kind == .sink }.allSatisfy { $0.disposed != nil })
        #expect(Trace.leaks(in: decoded.document).isEmpty)
    }

    /// A scope inside a streamed recording still gets its whole part (`Trace.record` nests).
    @Test func nestedScopesKeepTheirPart() throws {
        func scope() {
            let subject = PublishSubject<Int>()
            let d = subject.map { $0 }.subscribe(onNext: { _ in })
            for value in 0..<100 {
                subject.onNext(value)
                // The writer takes batches meanwhile.
                if value % 50 == 0 { Thread.sleep(forTimeInterval: 0.3) }
            }
            d.dispose()
        }
        let alone = Trace.record { scope() }
        var nested: TraceDocument?
        let decoded = try streamedRun {
            let d = Observable.range(start: 1, count: 50).subscribe(onNext: { _ in })
            d.dispose()
            nested = Trace.record { scope() }
        }
        let scope = try #require(nested)
        #expect(scope.meta["scope"] == "nested")
        #expect(scope.nodes.first?.type == "PublishSubject")
        #expect(scope.events.count == alone.events.count && alone.events.count > 200)
        #expect(scope.steps.map(\.call) == alone.steps.map(\.call))
        #expect(scope.nodes.allSatisfy { node in decoded.document.nodes.contains(node) })
        // The scope's edges are its nodes' own (kept with them while the scope is open).
        #expect(scope.edges.count == alone.edges.count && !alone.edges.isEmpty)
        #expect(Set(scope.edges).isSubset(of: Set(decoded.document.edges)))
        #expect(Set(scope.steps).isSubset(of: Set(decoded.document.steps)))
    }

    /// `RXTRACE_MAX_MB`: the file stays near the bound, the oldest part dropped and counted,
    /// the subscriptions still alive kept.
    @Test func maxMegabytesDropsTheOldestPart() throws {
        let url = temporaryTrace()
        defer { try? FileManager.default.removeItem(at: url) }
        // MB: rxtrace/3, the default, writes about 24 bytes an element here (two calls), so a
        // round of 400 is about 10 KB and each segment holds two or three rounds (a segment's
        // `drop` counts only the one before it).
        let limit = 0.02
        var largest = 0
        try checkingNoLeaks {
            try #require(
                TraceAutostart.start(environment: [
                    "RXTRACE": url.path, "RXTRACE_MAX_MB": String(limit),
                ]) != nil)
            defer { TraceAutostart.finish() }
            let subject = PublishSubject<Int>()
            let d = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
            for round in 0..<6 {
                for value in 0..<400 { subject.onNext(round * 1000 + value) }
                Thread.sleep(forTimeInterval: 0.3)
                largest = max(
                    largest, (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0)
            }
            subject.onNext(424_242)
            d.dispose()
        }
        // One write may go past the bound: here a round of 400 elements (about 10 KB), or a few
        // rounds when the machine is busy and the writer late; 6 rounds were written in all.
        #expect(largest < Int(limit * 1_048_576) + 200_000, "\(largest) bytes")
        let trace = try TraceDocument.read(from: url)
        #expect(trace.meta["segment"].flatMap { Int($0) } ?? 0 >= 2)
        #expect(trace.dropped.steps > 1000 && trace.dropped.events > 1000)
        #expect(trace.meta["cut"] == nil)
        // The live subscription's nodes came along into each new segment.
        let types = Set(trace.nodes.map(\.type))
        #expect(types.isSuperset(of: ["PublishSubject", "MapSink", "AnonymousObserver"]))
        #expect(trace.events.contains { $0.value == "424243" })
        #expect(!trace.events.contains { $0.value == "1" })
        #expect(TraceAutostart.maxBytes(from: ["RXTRACE_MAX_MB": "1.5"]) == 1_572_864)
        #expect(TraceAutostart.maxBytes(from: ["RXTRACE_MAX_MB": "-1"]) == nil)
    }

    @Test func anUnwritablePathIsOneLineAndNoRecording() {
        let recorder = TraceAutostart.start(environment: [
            "RXTRACE": "/nonexistent-dir-\(UUID().uuidString)/t.trace", "RXTRACE_FORMAT": "2",
        ])
        #expect(recorder == nil)
        #expect(Tracing.tracer == nil)
        #expect(TraceAutostart.format(from: ["RXTRACE_FORMAT": "json"]) == .v1)
        #expect(TraceAutostart.format(from: ["RXTRACE_FORMAT": "2"]) == .v2)
        #expect(TraceAutostart.format(from: ["RXTRACE_FORMAT": "7"]) == TraceAutostart.defaultFormat)
    }

    private func temporaryTrace() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID().uuidString).trace")
    }

    /// `body` under a streamed `RXTRACE` recording; the file read back (steps and events in
    /// `seq` order, as readers sort them).
    private func streamedRun(_ body: () -> Void) throws -> (document: TraceDocument, ended: String?) {
        let url = temporaryTrace()
        defer { try? FileManager.default.removeItem(at: url) }
        try #require(TraceAutostart.start(environment: ["RXTRACE": url.path, "RXTRACE_FORMAT": "2"]) != nil)
        body()
        #expect(TraceAutostart.finish() == url.path)
        var decoded = try LinesDecoder.decode(Data(contentsOf: url), exactNumbers: false)
        #expect(decoded.ended == "exit")
        decoded.document.steps.sort { $0.seq < $1.seq }
        decoded.document.events.sort { $0.seq < $1.seq }
        return decoded
    }
}
