import Foundation
import Testing

@testable import RxTrace

/// Every `rxtrace` command gives the same answer on one run recorded in `rxtrace/3` (what
/// `RXTRACE` writes) as in `rxtrace/2`: the run is streamed in both at once.
@Suite(.serialized) struct Format3CLITests {
    /// A run with a leak, two threads, errors and values of several kinds, as `v3/trace.rxt`
    /// and `v2/trace.rxt`.
    static func record(in scratch: Scratch) throws {
        for folder in ["v3", "v2"] {
            try FileManager.default.createDirectory(
                at: scratch.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let v3 = scratch.url.appendingPathComponent("v3/trace.rxt").path
        let v2 = scratch.url.appendingPathComponent("v2/trace.rxt").path
        try #require(TraceAutostart.start(environment: ["RXTRACE": v3], mirror: (path: v2, format: .v2)) != nil)
        let subject = PublishSubject<Int>()
        let kept = subject.map { $0 * 2 }.filter { $0 > 2 }.subscribe(onNext: { _ in })
        for value in 0..<50 { subject.onNext(value) }
        let d = Observable.of("a", "b\n\"c\"", String(repeating: "long ", count: 30)).map { $0 + "!" }
            .subscribe(onNext: { _ in })
        d.dispose()
        _ = Observable.of(0.5, 2.25).map { $0 * 3 }.subscribe(onNext: { _ in })
        struct Failure: Error {}
        _ = Observable<Int>.error(Failure()).catch { _ in .just(9) }.subscribe(onNext: { _ in })
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = Observable.of(1, 2, 3).flatMap { Observable.just($0) }.subscribe(onNext: { _ in })
            subject.onNext(100)
            done.signal()
        }.start()
        done.wait()
        #expect(TraceAutostart.finish() == v3)
        kept.dispose()
    }

    @Test func sameAnswersFromOneRunInBothFormats() throws {
        let scratch = try Scratch()
        try Self.record(in: scratch)
        let v3 = scratch.url.appendingPathComponent("v3"), v2 = scratch.url.appendingPathComponent("v2")
        let head = try Data(contentsOf: v3.appendingPathComponent("trace.rxt")).prefix(24)
        #expect(String(decoding: head, as: UTF8.self).hasPrefix("{\"format\":\"rxtrace/3\""))
        let commands: [[String]] = [
            ["summary", "trace.rxt"], ["leaks", "trace.rxt"], ["leaks", "trace.rxt", "--nodes"],
            ["render", "trace.rxt", "--format", "dot"], ["render", "trace.rxt", "--view", "flow", "--format", "dot"],
            ["report", "trace.rxt", "-o", "report.html"],
            ["convert", "trace.rxt", "--to", "perfetto", "-o", "run.json"],
            ["convert", "trace.rxt", "--to", "json", "-o", "trace.json"], ["top", "trace.rxt", "--interval", "0.1"],
        ]
        // What may differ: the format's name, the file's size where `top` shows it, and the
        // report's picture: Graphviz lays out the same DOT (compared above) in one of two ways
        // from run to run, whatever the trace's format.
        func same(_ text: String) -> String {
            text.replacingOccurrences(of: "rxtrace/3", with: "rxtrace/2").replacing(
                #/· [0-9.]+ [kMG]?B\n/#, with: "· SIZE\n"
            ).replacing(#/<svg[\s\S]*</svg>/#, with: "<svg/>")
        }
        for command in commands {
            let three = try CLI.run(command, in: v3, environment: ["LC_ALL": "C"])
            let two = try CLI.run(command, in: v2, environment: ["LC_ALL": "C"])
            // `leaks` says there are leaks with its status (1).
            #expect(three.status == (command[0] == "leaks" ? 1 : 0), "\(command): \(three.stderr)")
            #expect(three.status == two.status, "\(command)")
            #expect(three.stderr == two.stderr, "\(command)")
            #expect(same(three.out) == same(two.out), "\(command)")
            if let output = command.firstIndex(of: "-o").map({ command[$0 + 1] }) {
                let one = String(decoding: try Data(contentsOf: v3.appendingPathComponent(output)), as: UTF8.self)
                let other = String(decoding: try Data(contentsOf: v2.appendingPathComponent(output)), as: UTF8.self)
                #expect(!one.isEmpty && same(one) == same(other), "\(command)")
            }
        }
        // Converted to each other's format, each reads as the other.
        for (from, to, target) in [(v3, v2, "v2"), (v2, v3, "v3")] {
            let result = try CLI.run(["convert", "trace.rxt", "--to", target, "-o", "converted.rxt"], in: from)
            #expect(result.status == 0, "\(result.stderr)")
            let converted = try TraceDocument.read(from: from.appendingPathComponent("converted.rxt"))
            #expect(converted == (try TraceDocument.read(from: to.appendingPathComponent("trace.rxt"))))
        }
    }
}
