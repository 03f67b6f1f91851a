import Foundation
import RxTesting
import Testing

@testable import RxTrace

/// `rxtrace/3`, what `RXTRACE` writes by default: one run streamed in it and in `rxtrace/2` at
/// once reads as the same document; documents and every older file read back the same through
/// it; a file cut anywhere reads up to the cut.
@Suite(.serialized) struct Format3Tests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The fuzzer's seeds: chapter traces as `rxtrace/1` and `rxtrace/2`, and streamed
    /// `rxtrace/2` files as the writer before `rxtrace/3` left them.
    static let seeds: [URL] = {
        let directory = root.appendingPathComponent("Fuzz/Seeds")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".rxt") || $0.hasPrefix("ch") && $0.hasSuffix(".json") }.sorted().map {
            directory.appendingPathComponent($0)
        }
    }()

    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("format3-\(UUID().uuidString)-\(name)")
    }

    /// A program with what a trace can hold: values of every kind the format writes as numbers
    /// and as text (short, long, escaped, non-ASCII), errors, completions, a leak, a subject, a
    /// second thread, marks, virtual time.
    static func workload(leaking: inout [Disposable]) {
        Tracing.mark(.testStarted, "Format3Tests/workload")
        let subject = PublishSubject<Int>()
        let d = subject.map { $0 &* 2 }.filter { $0 > 2 }.subscribe(onNext: { _ in })
        for value in [0, 1, 2, -5, Int.max, Int.min] { subject.onNext(value) }
        subject.onCompleted()
        d.dispose()
        _ = Observable.of(0.1, -2.5, 1e300, .infinity).map { $0 / 3 }.subscribe(onNext: { _ in })
        _ = Observable.of(true, false).map { !$0 }.subscribe(onNext: { _ in })
        _ = Observable.of("a", "b\n\"c\"", "日本語", String(repeating: "long ", count: 60)).map { $0 + "!" }
            .subscribe(onNext: { _ in })
        struct Point: Equatable { var x: Int32, y: Int32 }
        _ = Observable.of(Point(x: 1, y: 2)).subscribe(onNext: { _ in })
        struct Failure: Error {}
        _ = Observable<Int>.error(Failure()).catch { _ in .just(9) }.subscribe(onNext: { _ in })
        let open = PublishSubject<String>()
        leaking.append(open.map { $0.uppercased() }.subscribe(onNext: { _ in }))
        open.onNext("kept")
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = Observable.of(1, 2, 3).map { $0 + 1 }.subscribe(onNext: { _ in })
            done.signal()
        }.start()
        done.wait()
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        _ = scheduler.start { hot.map { $0 * 10 } }
        Tracing.mark(.testEnded, "Format3Tests/workload")
    }

    /// One run streamed as `rxtrace/3` and, at the same time, as `rxtrace/2`.
    static func recordBothWays(_ body: (inout [Disposable]) -> Void) throws -> (v3: URL, v2: URL) {
        let v3 = temporary("run.rxt"), v2 = temporary("run-v2.rxt")
        var leaking: [Disposable] = []
        try #require(
            TraceAutostart.start(environment: ["RXTRACE": v3.path], mirror: (path: v2.path, format: .v2)) != nil)
        body(&leaking)
        #expect(TraceAutostart.finish() == v3.path)
        for disposable in leaking { disposable.dispose() }
        return (v3, v2)
    }

    @Test func oneRunReadsTheSameInBothFormats() throws {
        let (v3, v2) = try checkingNoLeaks { try Self.recordBothWays { Self.workload(leaking: &$0) } }
        defer {
            try? FileManager.default.removeItem(at: v3)
            try? FileManager.default.removeItem(at: v2)
        }
        let (three, status3) = try TraceDocument.readWithStatus(from: v3)
        let (two, status2) = try TraceDocument.readWithStatus(from: v2)
        #expect(status3.format == "rxtrace/3" && status2.format == "rxtrace/2")
        #expect(status3.endReason == "exit" && !status3.cutShort)
        #expect(status3.lastSeq == status2.lastSeq)
        #expect(three == two)
        // The document holds what the workload did.
        #expect(three.events.contains { $0.value == "-9223372036854775808" })
        #expect(three.events.contains { $0.value == String(Double.infinity / 3) })
        #expect(three.events.contains { $0.value == "false" })
        #expect(three.events.contains { $0.value == "日本語!" })
        #expect(three.events.contains { $0.value?.hasSuffix("…") == true })
        #expect(three.events.contains { $0.virtualTime && $0.time == 210 })
        #expect(three.events.contains { $0.kind == .error })
        #expect(Set(three.events.compactMap(\.thread)).count >= 2)
        #expect(three.marks.count == 2)
        #expect(!TraceLeakReport(three).nodes.isEmpty)
        #expect(TraceSummary(three).description == TraceSummary(two).description)
        let sizes = try [v3, v2].map { try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int ?? 0 }
        #expect(sizes[0] * 2 < sizes[1], "\(sizes)")
    }

    /// Every committed trace (`rxtrace/1`, `rxtrace/2` and the `rxtrace/3` seeds) reads back the
    /// same through `rxtrace/3`.
    @Test func everyOlderTraceReadsBackTheSame() throws {
        #expect(Self.seeds.filter { $0.pathExtension == "rxt" }.count >= 10)
        #expect(Self.seeds.contains { $0.lastPathComponent == "streamed-cycles-v2.rxt" })
        for url in Self.seeds {
            let (document, status) = try TraceDocument.readWithStatus(from: url)
            let format =
                url.pathExtension == "json"
                ? "rxtrace/1" : url.lastPathComponent.hasSuffix("-v3.rxt") ? "rxtrace/3" : "rxtrace/2"
            #expect(status.format == format, "\(url.lastPathComponent)")
            let binary = document.binaryData()
            #expect(binary.starts(with: Data("{\"format\":\"rxtrace/3\"".utf8)))
            let back = try TraceDocument.decode(binary, path: url.lastPathComponent)
            #expect(back == document, "\(url.lastPathComponent)")
            #expect(try TraceDocument.decode(back.jsonLinesData()) == document)
        }
    }

    /// Cut anywhere after its header, an `rxtrace/3` file reads as what it holds up to the cut:
    /// every record read is one the whole file has, and the reading says it was cut short.
    @Test func cutAtAnyByteReadsWhatCameBefore() throws {
        let (v3, v2) = try checkingNoLeaks { try Self.recordBothWays { Self.workload(leaking: &$0) } }
        defer {
            try? FileManager.default.removeItem(at: v3)
            try? FileManager.default.removeItem(at: v2)
        }
        let data = try Data(contentsOf: v3)
        var whole: [TraceFileRecord] = []
        _ = try TraceRecordReader.read(data) { whole.append($0) }
        let headerEnd = try #require(data.firstIndex(of: 0x0A))
        var previous = 0
        for cut in stride(from: headerEnd + 1, to: data.count, by: 3) {
            var records: [TraceFileRecord] = []
            let status = try TraceRecordReader.read(data.prefix(cut)) { records.append($0) }
            #expect(status.cutShort)
            #expect(records == Array(whole.prefix(records.count)), "cut at \(cut)")
            #expect(records.count >= previous)
            previous = records.count
        }
        #expect(previous > whole.count / 2)
    }

    /// A record of a later version is skipped when it says its length; an unknown tag that does
    /// not is refused in one line naming the record.
    @Test func unknownRecords() throws {
        let document = try TraceDocument.read(from: try #require(Self.seeds.first { $0.path.contains("ch02-mojito") }))
        let binary = document.binaryData()
        let headerEnd = try #require(binary.firstIndex(of: 0x0A)) + 1
        var later = binary.prefix(headerEnd)
        later.append(contentsOf: [0x90, 3, 1, 2, 3])
        later.append(binary.dropFirst(headerEnd))
        #expect(try TraceDocument.decode(later) == document)
        var bad = binary.prefix(headerEnd)
        bad.append(0x07)
        bad.append(binary.dropFirst(headerEnd))
        #expect(throws: TraceFileError.malformed(path: "bad.rxt", line: 2, reason: "unknown record tag 0x7")) {
            try TraceDocument.decode(bad, path: "bad.rxt")
        }
    }

    @Test func formatVariable() {
        #expect(TraceAutostart.format(from: [:]) == .v3)
        #expect(TraceAutostart.format(from: ["RXTRACE_FORMAT": "3"]) == .v3)
        #expect(TraceAutostart.format(from: ["RXTRACE_FORMAT": "rxtrace/2"]) == .v2)
        #expect(TraceAutostart.format(from: ["RXTRACE_FORMAT": "1"]) == .v1)
    }
}
