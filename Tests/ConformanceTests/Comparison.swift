import Foundation

/// One pipeline of the `conformance` program's output: `== ID`, the lines that describe it, then
/// its outcome (the lines starting with "> ").
struct PipelineOutput: Equatable {
    var id: String
    var description: [String] = []
    var outcome: [String] = []
}

/// The `conformance` program's output: its header line (how it was run) and its pipelines.
struct ConformanceOutput {
    var header: String
    var pipelines: [PipelineOutput]

    /// Reads the text the program printed; anything that is not the program's own line (a
    /// library printing on standard output) is an error, as it would hide in the comparison.
    init(parsing text: String) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first, first.hasPrefix("# conformance ") else {
            throw FormatError(message: "the first line is not the program's header (# conformance …)")
        }
        header = first
        pipelines = []
        for (number, line) in lines.enumerated().dropFirst() {
            if line.hasPrefix("== ") {
                pipelines.append(PipelineOutput(id: String(line.dropFirst(3))))
            } else if pipelines.isEmpty {
                throw FormatError(message: "line \(number + 1) comes before the first pipeline: \(line)")
            } else if line.hasPrefix("> ") {
                pipelines[pipelines.count - 1].outcome.append(line)
            } else if pipelines[pipelines.count - 1].outcome.isEmpty {
                pipelines[pipelines.count - 1].description.append(line)
            } else {
                throw FormatError(message: "line \(number + 1) is no line of the program's: \(line)")
            }
        }
    }

    /// The arguments the header names (`--seed 2026 --count 4000 --focused 600`).
    var arguments: [String] { header.split(separator: " ").dropFirst(2).map(String.init) }

    struct FormatError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// A pipeline whose outcome differs from RxSwift's: the lines at the same place in each.
struct Difference: Equatable {
    var pipeline: PipelineOutput
    /// RxSwift's line and RxAnatomy's, for each line that differs.
    var lines: [(rxSwift: String, rxAnatomy: String)]

    static func == (a: Difference, b: Difference) -> Bool {
        a.pipeline == b.pipeline && a.lines.map(\.rxSwift) == b.lines.map(\.rxSwift)
            && a.lines.map(\.rxAnatomy) == b.lines.map(\.rxAnatomy)
    }

    /// The pipeline and, under it, each line that differs as RxSwift and RxAnatomy print it.
    var report: String {
        var text = "\(pipeline.id):\n"
        for line in pipeline.description { text += "    \(line)\n" }
        for (rxSwift, rxAnatomy) in lines {
            text += "  RxSwift:   \(rxSwift)\n  RxAnatomy: \(rxAnatomy)\n"
        }
        return text
    }
}

/// What comparing RxAnatomy's output with RxSwift's found.
struct ComparisonReport {
    /// Pipelines whose outcome is RxSwift's.
    var identical = 0
    /// Differences that a known difference does not account for: each fails the check.
    var unexpected: [Difference] = []
    /// Differences accounted for by one of RxSwift's own bugs.
    var excused: [(Difference, RxSwiftBug)] = []
    /// Differences the drop-in is still to fix (temporary).
    var pending: [(Difference, PendingFix)] = []
    /// Known differences for pipelines that no longer differ, or that differ otherwise than
    /// listed: the list is out of date.
    var stale: [String] = []
    /// The two outputs are not of the same pipelines: the golden data is out of date, or the
    /// program stopped early.
    var mismatched: [String] = []

    var passed: Bool { unexpected.isEmpty && stale.isEmpty && mismatched.isEmpty }

    /// Every problem, each pipeline with the lines that differ; `limit` differences in full.
    func summary(limit: Int = 25) -> String {
        var text =
            "\(identical) pipelines identical to RxSwift's, \(unexpected.count) different, "
            + "\(excused.count) different by RxSwift's own bugs, \(pending.count) pending fixes"
        if !mismatched.isEmpty {
            text +=
                "\n\nthe outputs do not hold the same pipelines:\n" + mismatched.prefix(limit).joined(separator: "\n")
        }
        if !stale.isEmpty {
            text += "\n\nknown differences that no longer hold (remove them from KnownDifferences.swift):\n"
            text += stale.joined(separator: "\n")
        }
        if !unexpected.isEmpty {
            text += "\n\npipelines whose outcome differs from RxSwift's:\n"
            text += unexpected.prefix(limit).map(\.report).joined(separator: "\n")
            if unexpected.count > limit { text += "\n… and \(unexpected.count - limit) more" }
        }
        return text
    }
}

/// Compares RxAnatomy's output with RxSwift's, pipeline by pipeline.
///
/// A difference passes only when `known` names its pipeline: as one of RxSwift's own bugs, with
/// the very lines RxAnatomy prints instead (so a further change on that pipeline is caught), or,
/// for now, as a pending fix. A known difference whose pipeline matches RxSwift, or differs
/// otherwise than listed, is reported as stale.
func compare(rxSwift: ConformanceOutput, rxAnatomy: ConformanceOutput, known: KnownDifferences) -> ComparisonReport {
    var report = ComparisonReport()
    if rxSwift.header != rxAnatomy.header {
        report.mismatched.append("headers: RxSwift's \(rxSwift.header), RxAnatomy's \(rxAnatomy.header)")
    }
    let ours = Dictionary(rxAnatomy.pipelines.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var seen = Set<String>()
    for expected in rxSwift.pipelines {
        seen.insert(expected.id)
        guard let actual = ours[expected.id] else {
            report.mismatched.append("\(expected.id): RxAnatomy's output has no such pipeline (did the program stop?)")
            continue
        }
        guard actual.description == expected.description, actual.outcome.count == expected.outcome.count else {
            report.mismatched.append(
                "\(expected.id): not the pipeline the golden data describes (the generator changed: regenerate it)")
            continue
        }
        let lines = zip(expected.outcome, actual.outcome).filter { $0 != $1 }
        let bug = known.rxSwiftBugs[expected.id]
        let fix = known.pending[expected.id]
        if lines.isEmpty {
            report.identical += 1
            if bug != nil { report.stale.append("\(expected.id): listed as RxSwift's bug, but identical to RxSwift") }
            if fix != nil { report.stale.append("\(expected.id): listed as pending, but identical to RxSwift now") }
            continue
        }
        let difference = Difference(pipeline: expected, lines: lines.map { (rxSwift: $0.0, rxAnatomy: $0.1) })
        if let bug {
            if bug.rxAnatomy == lines.map(\.1) {
                report.excused.append((difference, bug.bug))
            } else {
                report.unexpected.append(difference)
                report.stale.append("\(expected.id): listed as RxSwift's bug with other lines than RxAnatomy prints")
            }
        } else if let fix {
            report.pending.append((difference, fix))
        } else {
            report.unexpected.append(difference)
        }
    }
    for pipeline in rxAnatomy.pipelines where !seen.contains(pipeline.id) {
        report.mismatched.append("\(pipeline.id): not in RxSwift's output")
    }
    for id in known.rxSwiftBugs.keys.sorted() where !seen.contains(id) {
        report.stale.append("\(id): listed as RxSwift's bug, but there is no such pipeline")
    }
    for id in known.pending.keys.sorted() where !seen.contains(id) {
        report.stale.append("\(id): listed as pending, but there is no such pipeline")
    }
    return report
}
