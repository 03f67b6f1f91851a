// Measures that need a process of their own, taken by running `Probe` (a plain release
// executable, without package-benchmark's malloc interposer) as a child:
//
//   instructions   valgrind's callgrind counts the instructions of a run of `n` and of `3n` units
//                  (after a warm-up); the difference over `2n` is the cost of one unit, one-off
//                  costs cancelled out (repeatable whatever the machine's load)
//   live bytes     resident memory and malloc's in-use bytes before and after making `n` live
//                  subscriptions, over `n` (Probe measures itself: no interposer header per block)
//   live blocks    valgrind's DHAT counts the heap blocks live at the peak of `Probe live` for two
//                  counts of subscriptions; their difference over the difference of the counts
//   RXTRACE        a program run untraced and then under RXTRACE (streamed, as users run it):
//                  the process's CPU time (user + system, every thread: the trace writer's too)
//                  traced over untraced, and the trace's bytes and records (lines) per unit

import Foundation
import RxTrace

#if canImport(Glibc)
import Glibc
#endif

public enum ChildError: Error, CustomStringConvertible {
    case missing(String)
    case failed(String)

    public var description: String {
        switch self {
        case .missing(let what): what
        case .failed(let what): what
        }
    }
}

/// Where `Probe` is: `RXBENCH_PROBE`, else beside the running executable (both are built into
/// the same `.build/release` by `make bench`).
public func probePath() throws -> String {
    if let path = ProcessInfo.processInfo.environment["RXBENCH_PROBE"], !path.isEmpty { return path }
    let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    let path = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Probe").path
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ChildError.missing(
            "no Probe executable at \(path): build it with `swift build -c release --product Probe` in Benchmarks/")
    }
    return path
}

/// What a child run left: its standard output, and the processor time it used.
public struct ChildRun {
    public var output: String
    /// User + system seconds of the child and every thread it ran.
    public var cpuSeconds: Double
}

private func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Runs `executable arguments…` with `environment` added (and RXTRACE removed unless given);
/// fails unless it exits 0.
public func runChild(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:]
) throws
    -> ChildRun
{
    var env = ProcessInfo.processInfo.environment
    env["RXTRACE"] = nil
    // package-benchmark runs its suite with its malloc interposer preloaded (LD_PRELOAD): a
    // child must not inherit it, or every block grows by the interposer's header and every
    // allocation by its instructions.
    if let preload = env["LD_PRELOAD"] {
        let kept = preload.split(separator: ":").filter { !$0.contains("Interposer") }
        env["LD_PRELOAD"] = kept.isEmpty ? nil : kept.joined(separator: ":")
    }
    env.merge(environment) { _, new in new }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = env
    // Both streams into one pipe: callgrind writes its summary to standard error.
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    let before = childrenCPUSeconds()
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let cpu = childrenCPUSeconds() - before
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        throw ChildError.failed(
            "\(executable) \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus)):\n\(text)")
    }
    return ChildRun(output: text, cpuSeconds: cpu)
}

/// Probe without its debug information, beside it (made again when Probe is newer): valgrind
/// 3.19 gives up on the DWARF 5 that clang writes for the C targets ("Possibly corrupted
/// debuginfo file"), and counting instructions needs no symbols.
func probeForValgrind() throws -> String {
    let probe = try probePath()
    let stripped = probe + ".nodebug"
    func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
    if let built = modified(probe), let copy = modified(stripped), copy >= built { return stripped }
    _ = try runChild("/usr/bin/env", ["strip", "--strip-debug", "-o", stripped, probe])
    return stripped
}

/// Instructions per unit of each workload, counted by callgrind in one run of `Probe phases`:
/// after a warm-up, each workload runs `n` units and then `3n`, each run a profile of its own
/// (callgrind's client requests); the difference of the two over `2n` is one unit's cost, what a
/// run costs apart from its units (making the subject, the chain) cancelled out.
public func instructionsPerUnit(_ library: Library, _ workloads: [(Workload, n: Int)]) throws -> [Double] {
    let probe = try probeForValgrind()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxbench-callgrind-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("callgrind.out").path
    _ = try runChild(
        "/usr/bin/env",
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=\(out)", probe, "phases", library.rawValue]
            + workloads.map { "\($0.0.rawValue):\($0.n)" })
    // Callgrind numbers the profiles it dumps: callgrind.out.1, .2, … (the one at exit has none).
    func instructions(_ dump: Int) throws -> Int {
        let text = try String(contentsOfFile: "\(out).\(dump)", encoding: .utf8)
        guard
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") || $0.hasPrefix("totals:") }
            ),
            let value = line.split(separator: " ").last.flatMap({ Int($0) })
        else { throw ChildError.failed("no instruction count in callgrind's profile \(out).\(dump)") }
        return value
    }
    return try workloads.indices.map { index in
        let small = try instructions(2 * index + 1)
        let large = try instructions(2 * index + 2)
        return Double(large - small) / Double(2 * workloads[index].n)
    }
}

/// Bytes per live subscription, measured by Probe in a process of its own.
public struct LiveBytes {
    /// Resident memory's growth over the subscriptions (pages touched).
    public var resident: Double
    /// malloc's in-use bytes' growth (`mallinfo2().uordblks`: blocks with their malloc headers).
    public var heap: Double
}

public func liveBytes(_ library: Library, n: Int) throws -> LiveBytes {
    let run = try runChild(try probePath(), ["live", library.rawValue, String(n)])
    let fields = run.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard fields.count >= 2 else { throw ChildError.failed("Probe live printed: \(run.output)") }
    return LiveBytes(resident: fields[0], heap: fields[1])
}

/// Heap blocks each live subscription holds, counted by valgrind's DHAT: `Probe live` with
/// `small` and then `large` subscriptions, and the difference of the blocks live at the heap's
/// peak (all the subscriptions made, none disposed of yet) over `large - small`, so that what a
/// run holds apart from its subscriptions (the subject, the runtime's caches) cancels out.
public func liveBlocks(_ library: Library, small: Int = 1_000, large: Int = 2_000) throws -> Double {
    let probe = try probeForValgrind()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxbench-dhat-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func blocksAtPeak(_ n: Int) throws -> Int {
        let run = try runChild(
            "/usr/bin/env",
            [
                "valgrind", "--tool=dhat", "--dhat-out-file=\(folder.path)/dhat.\(n).json", probe, "live",
                library.rawValue, String(n),
            ])
        // DHAT's summary on standard error: "==pid== At t-gmax: 123,456 bytes in 1,234 blocks".
        guard let line = run.output.split(separator: "\n").first(where: { $0.contains("At t-gmax:") }),
            let range = line.range(of: "bytes in "),
            let blocks = Int(line[range.upperBound...].prefix { $0 != " " }.filter { $0 != "," })
        else { throw ChildError.failed("no peak in DHAT's summary:\n\(run.output)") }
        return blocks
    }
    return Double(try blocksAtPeak(large) - blocksAtPeak(small)) / Double(large - small)
}

/// What tracing a program with RXTRACE (streamed) costs against running it untraced.
public struct StreamedTraceCost {
    public var untracedCPU: Double
    public var tracedCPU: Double
    public var traceBytes: Int
    public var records: Int
    public var units: Int

    public var cpuRatio: Double { tracedCPU / untracedCPU }
    public var bytesPerUnit: Double { Double(traceBytes) / Double(units) }
    public var recordsPerUnit: Double { Double(records) / Double(units) }
}

/// Runs `Probe run rxcore <workload> <units>` untraced (the least CPU time of three runs: a short
/// process's time is mostly its start, which a busy machine stretches), then with `RXTRACE` set to
/// a temporary file (removed afterwards).
public func streamedTraceCost(_ workload: Workload, units: Int) throws -> StreamedTraceCost {
    let probe = try probePath()
    let arguments = ["run", Library.rxCore.rawValue, workload.rawValue, String(units)]
    let untraced = try (0..<3).map { _ in try runChild(probe, arguments) }.min { $0.cpuSeconds < $1.cpuSeconds }!
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("rxbench-\(getpid())-\(workload.rawValue).rxt").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let traced = try runChild(probe, arguments, environment: ["RXTRACE": path])
    let (bytes, records) = try byteAndRecordCount(path)
    return StreamedTraceCost(
        untracedCPU: untraced.cpuSeconds, tracedCPU: traced.cpuSeconds, traceBytes: bytes, records: records,
        units: units)
}

/// The file's size and its number of records after the header: `rxtrace/3`'s binary records
/// (a traced call is one), or `rxtrace/2`'s lines.
public func byteAndRecordCount(_ path: String) throws -> (bytes: Int, records: Int) {
    let url = URL(fileURLWithPath: path)
    let status = try TraceRecordReader.read(from: url) { _ in }
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    return (size, max(0, status.lines - 1))
}
