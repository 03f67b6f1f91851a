import ChildProcess
import Foundation
import RxTrace
import Testing

/// A suite with known leaks and known held objects (Tests/RxTestingTests/LeakyFixtures.swift),
/// recorded as a user records theirs: this test program run as a child under RXTRACE, once
/// for Swift Testing and once for XCTest. `rxtrace leaks` must name its roots, and no others;
/// `--by-test` must give each leftover to the test that made it, and say what was still held at
/// the end of the run apart from what was let go later.
@Suite(.serialized) struct TestAttributionTests {
    /// This test program (`swift test` runs it twice: XCTest, then Swift Testing).
    static let program: URL? = CLI.binary.map {
        $0.deletingLastPathComponent().appendingPathComponent("RxAnatomyPackageTests.xctest")
    }

    /// The fixture's lines by their `// mark:` comment.
    static let marks: [String: Int] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RxTestingTests/LeakyFixtures.swift")
        let lines = (try? String(contentsOf: file, encoding: .utf8))?.split(
            separator: "\n", omittingEmptySubsequences: false)
        var marks: [String: Int] = [:]
        for (index, line) in (lines ?? []).enumerated() {
            if let range = line.range(of: "// mark: ") { marks[String(line[range.upperBound...])] = index + 1 }
        }
        return marks
    }()

    static func site(_ mark: String) -> String { "LeakyFixtures.swift:\(marks[mark] ?? -1)" }

    /// Records the leaky suite with `library`'s arguments; returns the trace's path.
    func record(_ arguments: [String], in scratch: Scratch) throws -> URL {
        let program = try #require(
            Self.program.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil })
        let url = scratch.url.appendingPathComponent("suite.rxt")
        let result = try Child.run(
            program, arguments: arguments,
            environment: ["RXTRACE": url.path, "RXANATOMY_LEAKY_SUITE": "1", "RXTRACE_FORMAT": nil],
            directory: scratch.url, timeLimit: 120)
        #expect(!result.timedOut && !result.signalled, "the suite ended with \(result.ending): \(result.stderr)")
        return url
    }

    @Test func swiftTestingSuite() throws {
        #expect(Self.marks.count == 10)
        let scratch = try Scratch()
        let url = try record(["--testing-library", "swift-testing", "--filter", "LeakySuite"], in: scratch)
        let trace = try TraceDocument.read(from: url)

        // The marks of `.noLeaks`, one start and one end per test.
        let names = ["LeakySuite/keepsAViewModel()", "LeakySuite/dropsADisposable()", "LeakySuite/cleansUp()"]
        #expect(Set(trace.marks.map(\.name)) == Set(names))
        #expect(trace.marks.count == 6)

        // The roots: the view model's bag and subject, and the subscription whose disposable was
        // dropped (its disposers and sinks hold each other; the handler's caller holds the sink).
        let leaks = Trace.leaks(in: trace)
        let roots = leaks.roots.map { "\($0.node.type) \($0.node.callSite ?? "?") \($0.cause)" }
        #expect(
            roots == [
                "DisposeBag \(Self.site("view model bag")) container",
                "PublishSubject \(Self.site("view model subject")) subject",
                "SinkDisposer \(Self.site("dropped subscribe")) dropped",
            ])
        // What each holds, by type and call site.
        let bag = try #require(leaks.roots.first)
        #expect(bag.callSites.map(\.callSite) == [Self.site("view model subscribe"), Self.site("view model bag")])
        #expect(
            bag.types.map { "\($0.type) \($0.count)" }.sorted() == [
                "AnonymousObserver 1", "BinaryDisposable 1", "DisposeBag 1", "MapSink 1", "SinkDisposer 1",
                "SubscriptionDisposable 1",
            ])
        let dropped = try #require(leaks.roots.last)
        #expect(dropped.cycle.map(\.type).sorted() == ["AnonymousObservableSink", "MapSink", "SinkDisposer"])
        #expect(
            Set(dropped.held.map(\.type)).isSuperset(of: ["AnonymousObservableSink", "MapSink", "AnonymousObserver"]))
        // Not roots, and not leaked: what cleansUp() kept (a subject with no subscribers, a finished
        // subscription's disposable), the test kit's own objects.
        #expect(!leaks.nodes.contains { $0.callSite?.hasPrefix("LeakyFixtures.swift:5") == true })
        #expect(leaks.roots.allSatisfy { $0.node.callSite?.hasPrefix("LeakyFixtures.swift:") == true })
        let idle = trace.nodes.filter { $0.type == "PublishSubject" && $0.deinitialized == nil }
        #expect(idle.count == 2) // the view model's, a root; cleansUp()'s idle one, not one

        // By test.
        let report = TraceTestReport(trace)
        #expect(report.tests.map(\.name).sorted() == names.sorted())
        #expect(report.testsWithLeftovers == 2 && report.testsWithoutLeftovers == 1)
        #expect(!report.testsOverlapped)
        let byName = Dictionary(uniqueKeysWithValues: report.tests.map { ($0.name, $0) })
        let viewModel = try #require(byName[names[0]])
        #expect(viewModel.roots.map(\.node.type) == ["DisposeBag", "PublishSubject"])
        #expect(viewModel.stillHeld.count == viewModel.leftovers.count && viewModel.releasedLater.isEmpty)
        let drops = try #require(byName[names[1]])
        #expect(drops.roots.map(\.cause) == [.dropped])
        #expect(byName[names[2]]?.leftovers.isEmpty == true)
        #expect(report.outside.isEmpty)

        // The command says the same.
        let result = try CLI.run(["leaks", "suite.rxt", "--by-test"], in: scratch.url)
        let text = result.out
        #expect(result.status == 1, "\(text)\(result.stderr)")
        #expect(text.hasPrefix("3 tests: 2 left subscriptions open when they ended, 1 left none\n"))
        #expect(text.contains("\nLeakySuite/keepsAViewModel(): "))
        #expect(text.contains("  DisposeBag #"))
        #expect(text.contains("  still held at the end of the run: "))
        #expect(!text.contains("LeakySuite/cleansUp()"))
        #expect(!text.contains("made outside any test"))
        let plain = try CLI.run(["leaks", "suite.rxt"], in: scratch.url)
        #expect(plain.status == 1)
        #expect(plain.out.contains("held by 3 roots:\n\nDisposeBag #"))
    }

    @Test func xctestSuite() throws {
        let scratch = try Scratch()
        let url = try record(["RxTestingTests.LeakyXCTests"], in: scratch)
        let trace = try TraceDocument.read(from: url)
        let report = TraceTestReport(trace)
        let names = report.tests.map(\.name)
        #expect(names.count == 3, "\(names)")
        func test(_ suffix: String) throws -> TraceTestReport.Test {
            try #require(report.tests.first { $0.name.hasSuffix(suffix) }, "no test named …\(suffix) in \(names)")
        }
        // The bag in a property: XCTest keeps the test case, so it is still held at the end.
        let property = try test("testKeepsABagInAProperty")
        // Its roots: the bag, and the subject the class keeps (made outside any test).
        #expect(
            property.roots.map { "\($0.node.type) \($0.node.callSite ?? "?")" }.sorted() == [
                "DisposeBag \(Self.site("setUp bag"))", "PublishSubject \(Self.site("class setUp subject"))",
            ])
        #expect(!property.leftovers.isEmpty && property.stillHeld.count == property.leftovers.count)
        // Disposed by the class's tearDown, after the test ended.
        let later = try test("testLeavesOneForLater")
        #expect(!later.leftovers.isEmpty && later.releasedLater.count == later.leftovers.count)
        #expect(later.leftovers.contains { $0.callSite == Self.site("pending subscribe") })
        #expect(try test("testCleansUp").leftovers.isEmpty)
        // Made by the class's setUp, before the first test: outside every test.
        #expect(report.outside.contains { $0.callSite == Self.site("class setUp subscribe") })
        #expect(report.outsideRoots.map(\.node.type) == ["PublishSubject"])

        let result = try CLI.run(["leaks", "suite.rxt", "--by-test"], in: scratch.url)
        #expect(result.status == 1)
        #expect(result.out.contains("released after it ended: "))
        #expect(result.out.contains("Still held at the end of the run, made outside any test: "))
        #expect(result.out.contains("XCTest keeps every test case object"))
    }
}
