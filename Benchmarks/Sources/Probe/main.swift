// Probe: the benchmarks' workloads (Sources/Workloads) in a plain release executable, for what
// needs a process of its own. The package-benchmark suite (Benchmarks/Core) runs it as a child;
// it can be run by hand too (from Benchmarks/, after `make bench` or
// `swift build -c release --product Probe`):
//
//   .build/release/Probe run rxcore chain 100000     run a workload (what callgrind and RXTRACE see)
//   .build/release/Probe live opencombine 100000     bytes per live subscription (resident, heap)
//   .build/release/Probe teardown rxcore 100000      disposing of them, oldest or newest first
//   .build/release/Probe bytes 10000 100000 1000000  bytes and blocks per live subscription, both
//                                                    libraries side by side (make bench-bytes)
//   .build/release/Probe ratio chain 20000 21        OpenCombine's time over RxCore's, paired rounds
//   .build/release/Probe instructions rxcore chain:2000 create:50000
//                                                    instructions per unit (callgrind, `phases`)
//   .build/release/Probe traced create 1000000       RXTRACE (streamed) against untraced
//
// Libraries: rxcore, opencombine. Workloads: chain (subscribe + dispose of subject.map.filter.map),
// flatmap-just, subject, create, range (see Workload in Sources/Workloads).

import CProbe
import Foundation
import RxCore
import Workloads

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(2)
}

let usage = """
    usage: Probe run LIBRARY WORKLOAD COUNT | live LIBRARY COUNT | teardown LIBRARY COUNT | bytes [COUNT…]
           | ratio WORKLOAD COUNT [ROUNDS]
           | instructions LIBRARY WORKLOAD:N… | phases LIBRARY WORKLOAD:N… | traced WORKLOAD COUNT
    libraries: \(Library.allCases.map(\.rawValue).joined(separator: ", "))
    workloads: \(Workload.allCases.map(\.rawValue).joined(separator: ", "))
    """

var arguments = Array(CommandLine.arguments.dropFirst())
func next<T>(_ what: String, _ parse: (String) -> T?) -> T {
    guard !arguments.isEmpty else { fail("missing \(what)\n\(usage)") }
    let text = arguments.removeFirst()
    guard let value = parse(text) else { fail("not a \(what): \(text)\n\(usage)") }
    return value
}
func library() -> Library { next("library", Library.init(rawValue:)) }
func workload() -> Workload { next("workload", Workload.init(rawValue:)) }
func count() -> Int { next("count", { Int($0).flatMap { $0 > 0 ? $0 : nil } }) }
/// The rest of the arguments as WORKLOAD:N.
func workloadCounts() -> [(Workload, n: Int)] {
    guard !arguments.isEmpty else { fail("missing WORKLOAD:N\n\(usage)") }
    defer { arguments = [] }
    return arguments.map { text in
        let parts = text.split(separator: ":")
        guard parts.count == 2, let workload = Workload(rawValue: String(parts[0])), let n = Int(parts[1]), n > 0
        else { fail("not WORKLOAD:N: \(text)\n\(usage)") }
        return (workload, n)
    }
}

/// Resident bytes of this process (`/proc/self/statm`).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

/// CPU time of this thread, in seconds.
func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

switch next("command", { $0 }) {
case "run":
    let (library, workload, count) = (library(), workload(), count())
    print(library.run(workload, count))

case "live":
    let (library, count) = (library(), count())
    var resident = 0
    var heap = 0
    let subscriptions = library.liveSubscriptions(count) {
        resident = residentBytes()
        heap = Int(cprobe_heap_bytes_in_use())
    }
    let residentGrowth = residentBytes() - resident
    let heapGrowth = Int(cprobe_heap_bytes_in_use()) - heap
    // Every subscription is live: one element reaches each (+ 1, even, × 3).
    let delivered = subscriptions.send(1)
    subscriptions.end(true)
    guard delivered == 6 * count else { fail("\(delivered) delivered, expected \(6 * count)") }
    print(
        String(format: "%.1f %.1f", Double(residentGrowth) / Double(count), Double(heapGrowth) / Double(count)),
        "bytes per live subscription (resident, malloc in use) of", library.name, "over", count)

case "bytes":
    // Issue 22's memory measure, one line per count: each library's `live` in a process of its
    // own (resident growth, malloc's bytes in use), and the blocks a subscription holds (DHAT).
    var counts: [Int] = []
    while !arguments.isEmpty { counts.append(count()) }
    if counts.isEmpty { counts = [10_000, 100_000, 1_000_000] }
    let libraries = Library.allCases
    print("bytes per live subject → map → filter → map → subscribe (resident growth / malloc's bytes in use)")
    do {
        for n in counts {
            let bytes = try libraries.map { try liveBytes($0, n: n) }
            let columns = zip(libraries, bytes).map { library, bytes in
                String(format: "%@ %6.0f / %6.0f", library.name, bytes.resident, bytes.heap)
            }
            print(
                String(format: "N = %8d: ", n) + columns.joined(separator: "   ")
                    + String(
                        format: "   RxCore / OpenCombine %.2f× / %.2f×", bytes[0].resident / bytes[1].resident,
                        bytes[0].heap / bytes[1].heap))
        }
        let blocks = try libraries.map { try liveBlocks($0) }
        print(
            "heap blocks per subscription (DHAT, 2,000 against 1,000 live): "
                + zip(libraries, blocks).map { String(format: "%@ %.2f", $0.name, $1) }.joined(separator: ", "))
    } catch { fail("\(error)") }

case "teardown":
    // Disposing of live subscriptions in the order they were made, against the newest first.
    let (library, count) = (library(), count())
    var seconds: [Double] = []
    for newestFirst in [false, true] {
        let subscriptions = library.liveSubscriptions(count)
        let start = threadCPUTime()
        subscriptions.end(newestFirst)
        seconds.append(threadCPUTime() - start)
    }
    print(
        String(
            format: "disposing of %d live subscriptions of %@: oldest first %.3f s, newest first %.3f s", count,
            library.name, seconds[0], seconds[1]))

case "ratio":
    let (workload, units) = (workload(), count())
    let rounds = arguments.isEmpty ? 21 : count()
    var ratios: [Double] = []
    var best = [Double.infinity, Double.infinity]
    var checksum = 0
    for _ in 0..<rounds {
        var times: [Double] = []
        for library in [Library.rxCore, .openCombine] {
            let start = threadCPUTime()
            checksum &+= library.run(workload, units)
            times.append(threadCPUTime() - start)
        }
        best = [min(best[0], times[0]), min(best[1], times[1])]
        ratios.append(times[1] / times[0])
    }
    ratios.sort()
    print(
        String(
            format:
                "%@ ×%d: OpenCombine / RxCore time, median of %d paired rounds %.2f× (%.2f–%.2f), "
                + "ratio of the bests %.2f× (RxCore %.1f ns per %@, OpenCombine %.1f) [%d]",
            workload.rawValue, units, rounds, ratios[rounds / 2], ratios[0], ratios[rounds - 1], best[1] / best[0],
            best[0] / Double(units) * 1e9, workload.unit, best[1] / Double(units) * 1e9, checksum & 0xff))

case "instructions":
    let library = library()
    let workloads = workloadCounts()
    do {
        for (value, (workload, _)) in zip(try instructionsPerUnit(library, workloads), workloads) {
            print(
                String(format: "%.1f", value),
                "instructions per \(workload.unit) of \(workload.rawValue), \(library.name)")
        }
    } catch { fail("\(error)") }

case "phases":
    // Run under callgrind by `instructions`: each workload warms up, then runs n units and 3n,
    // each in a profile of its own.
    let library = library()
    let workloads = workloadCounts()
    guard cprobe_has_callgrind() != 0 else { fail("Probe was built without valgrind's headers (make bench-deps)") }
    var checksum = 0
    for (workload, n) in workloads {
        checksum &+= library.run(workload, max(n / 10, 1))
        cprobe_callgrind_zero()
        checksum &+= library.run(workload, n)
        cprobe_callgrind_dump("\(workload.rawValue) \(n)")
        checksum &+= library.run(workload, 3 * n)
        cprobe_callgrind_dump("\(workload.rawValue) \(3 * n)")
    }
    print(checksum)

case "traced":
    let (workload, units) = (workload(), count())
    do {
        let cost = try streamedTraceCost(workload, units: units)
        print(
            String(
                format:
                    "RXTRACE %@ ×%d: CPU %.3f s traced, %.3f s untraced (%.1f×); "
                    + "%.1f MB, %.1f bytes and %.2f records per %@",
                workload.rawValue, units, cost.tracedCPU, cost.untracedCPU, cost.cpuRatio,
                Double(cost.traceBytes) / 1e6, cost.bytesPerUnit, cost.recordsPerUnit, workload.unit))
    } catch { fail("\(error)") }

default:
    fail(usage)
}
