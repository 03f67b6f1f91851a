import Foundation
import Testing

/// The comparer fails for every difference it is not told about, and only passes the ones it is.
@Suite struct ComparisonTests {
    static let header = "# conformance --seed 7 --count 2 --focused 0"
    static let g0 = """
        == g0
        cold0 = cold(0:n1 10:c)
        main = cold0.amb(hot0)
        run: scheduler.start()
        > main: 200:n1 210:c
        > cold0 subscriptions: 200-210
        """
    static let g1 = """
        == g1
        hot0 = hot(210:n4 250:c)
        main = hot0.map { $0 + 1 }
        run: scheduler.start(disposed: 300)
        > main: 210:n5 250:c
        > hot0 subscriptions: 200-250
        """

    static func output(_ pipelines: String...) throws -> ConformanceOutput {
        try ConformanceOutput(parsing: ([header] + pipelines).joined(separator: "\n") + "\n")
    }

    @Test func identicalOutputsPass() throws {
        let report = compare(
            rxSwift: try Self.output(Self.g0, Self.g1), rxAnatomy: try Self.output(Self.g0, Self.g1), known: .init())
        #expect(report.passed)
        #expect(report.identical == 2)
    }

    @Test func aLineChangedByHandFailsWithThePipelineAndBothLines() throws {
        let changed = Self.g1.replacingOccurrences(of: "> main: 210:n5 250:c", with: "> main: 211:n5 250:c")
        let report = compare(
            rxSwift: try Self.output(Self.g0, Self.g1), rxAnatomy: try Self.output(Self.g0, changed), known: .init())
        #expect(!report.passed)
        #expect(report.unexpected.map(\.pipeline.id) == ["g1"])
        let summary = report.summary()
        #expect(summary.contains("g1:\n    hot0 = hot(210:n4 250:c)\n    main = hot0.map { $0 + 1 }"))
        #expect(summary.contains("  RxSwift:   > main: 210:n5 250:c\n  RxAnatomy: > main: 211:n5 250:c"))
    }

    @Test func aChangedLineOfTheGoldenDataFailsTheRealCheck() throws {
        // The committed golden data against itself with one of its lines changed by hand, as a
        // drop-in that printed otherwise would look.
        let golden = try ConformanceTests.goldenText()
        let lines = golden.split(separator: "\n", omittingEmptySubsequences: false)
        let target = try #require(lines.firstIndex { $0.hasPrefix("> main: ") && $0.count > 12 })
        var edited = lines
        edited[target] = "> main: 1:n1234567"
        let rxSwift = try ConformanceOutput(parsing: golden)
        let rxAnatomy = try ConformanceOutput(parsing: edited.joined(separator: "\n"))
        let report = compare(rxSwift: rxSwift, rxAnatomy: rxAnatomy, known: .current)
        #expect(!report.passed)
        #expect(report.unexpected.count == 1)
        #expect(report.unexpected.first?.lines.first?.rxAnatomy == "> main: 1:n1234567")
        #expect(report.unexpected.first?.lines.first?.rxSwift == String(lines[target]))
    }

    @Test func aDifferenceListedAsRxSwiftsBugPassesOnlyWithTheListedLines() throws {
        let ours = Self.g0.replacingOccurrences(of: "> main: 200:n1 210:c", with: "> main: 200:n1")
        let excuse = KnownDifferences.Excuse(bug: .ambDisposesWinner, rxAnatomy: ["> main: 200:n1"])
        let known = KnownDifferences(rxSwiftBugs: ["g0": excuse])
        let report = compare(
            rxSwift: try Self.output(Self.g0, Self.g1), rxAnatomy: try Self.output(ours, Self.g1), known: known)
        #expect(report.passed)
        #expect(report.excused.map(\.1) == [.ambDisposesWinner])

        let other = Self.g0.replacingOccurrences(of: "> main: 200:n1 210:c", with: "> main: 200:n2")
        let otherReport = compare(
            rxSwift: try Self.output(Self.g0, Self.g1), rxAnatomy: try Self.output(other, Self.g1), known: known)
        #expect(!otherReport.passed)
        #expect(otherReport.unexpected.map(\.pipeline.id) == ["g0"])
    }

    @Test func aKnownDifferenceThatNoLongerHoldsFails() throws {
        let excuse = KnownDifferences.Excuse(bug: .ambDisposesWinner, rxAnatomy: ["> main: 200:n1"])
        let known = KnownDifferences(rxSwiftBugs: ["g0": excuse], pending: ["g1": .zip, "g9": .traitFlatMap])
        let report = compare(
            rxSwift: try Self.output(Self.g0, Self.g1), rxAnatomy: try Self.output(Self.g0, Self.g1), known: known)
        #expect(!report.passed)
        #expect(report.stale.count == 3)
        #expect(report.summary().contains("g1: listed as pending, but identical to RxSwift now"))
    }

    @Test func aPendingDifferenceIsCountedApart() throws {
        let ours = Self.g1.replacingOccurrences(of: "250:c\n> hot0", with: "240:c\n> hot0")
        let known = KnownDifferences(pending: ["g1": .zip])
        let report = compare(
            rxSwift: try Self.output(Self.g0, Self.g1), rxAnatomy: try Self.output(Self.g0, ours), known: known)
        #expect(report.passed)
        #expect(report.pending.map(\.1) == [.zip])
        #expect(report.summary().contains("1 pending fixes"))
    }

    @Test func anotherPipelineOrAMissingOneIsNotCompared() throws {
        let described = Self.g1.replacingOccurrences(of: "$0 + 1", with: "$0 + 2")
        let report = compare(
            rxSwift: try Self.output(Self.g0, Self.g1), rxAnatomy: try Self.output(described), known: .init())
        #expect(!report.passed)
        #expect(report.mismatched.count == 2)
        #expect(report.summary().contains("g0: RxAnatomy's output has no such pipeline"))
        #expect(report.summary().contains("g1: not the pipeline the golden data describes"))
    }

    @Test func textThatIsNotTheProgramsIsAnError() {
        #expect(throws: ConformanceOutput.FormatError.self) {
            try ConformanceOutput(parsing: Self.header + "\n⚠️ Reentrancy anomaly was detected.\n" + Self.g0)
        }
        #expect(throws: ConformanceOutput.FormatError.self) {
            try ConformanceOutput(parsing: Self.header + "\n" + Self.g0 + "\nUnhandled error happened\n")
        }
        #expect(throws: ConformanceOutput.FormatError.self) { try ConformanceOutput(parsing: Self.g0) }
    }
}
