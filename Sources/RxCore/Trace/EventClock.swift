import CRxThreads
import Foundation
import Synchronization

/// The clock of a recording's event times (RxCore's trace layer; RxSwift has none).
///
/// A traced pipeline reads the time once an element (see `TraceRecorder.eventTime`), and
/// `clock_gettime(CLOCK_MONOTONIC)` costs about 24 ns there on a virtual machine, a quarter of
/// what tracing adds to an element. The CPU's counter (x86_64 `rdtsc`, aarch64 `cntvct_el0`)
/// costs about 10 ns, and the vDSO reads that same counter to answer `clock_gettime`. So a
/// record keeps the counter's raw reading, and the reading becomes nanoseconds since the
/// recording started only where times are read (`Line`): the ring's `snapshot`, and a
/// streamed recording's batches (`absorb`). docs/performance.md has the figures.
///
/// The counter is a clock only where the kernel keeps `CLOCK_MONOTONIC` on it
/// (`counterIsSound`): a kernel that chose another clocksource found the counter unfit (not
/// the same on every CPU, stopping in deep sleep, or a hypervisor that does not keep it
/// steady), and a recorder there reads `clock_gettime` at every delivery as before.
/// Nodes' births, disposals and deinits read `clock_gettime` (`TraceRecorder.elapsed()`): they
/// are rarer than elements, and a traced subscription takes a lock for them anyway.
struct EventClock: Sendable {
    /// A counter reading and the `CLOCK_MONOTONIC` nanoseconds read with it.
    struct Pair: Sendable {
        var count: UInt64
        var nanoseconds: UInt64
    }

    /// Whether readings are the CPU's counter (else `CLOCK_MONOTONIC` nanoseconds).
    let usesCounter: Bool
    /// Taken when the recording started: the origin of its times.
    let start: Pair

    /// A clock starting now: the CPU's counter where it is sound and `forcesMonotonic` is off.
    init() {
        usesCounter = Self.counterIsSound && !Self.forcesMonotonic.load(ordering: .relaxed)
        start = usesCounter ? Self.pair() : Pair(count: 0, nanoseconds: Self.monotonicNanoseconds())
    }

    /// A reading: the counter's raw count, or `CLOCK_MONOTONIC` nanoseconds.
    @inline(__always)
    func now() -> UInt64 {
        usesCounter ? crx_cycle_counter() : Self.monotonicNanoseconds()
    }

    /// A line from `from` (a pair taken before, or the start) to a pair read now.
    func line(from: Pair) -> Line {
        guard usesCounter else { return Line(origin: start.nanoseconds) }
        return Line(origin: start.nanoseconds, from: from, to: Self.pair())
    }

    /// Readings made nanoseconds since the start, along the line through two pairs.
    ///
    /// The counter and `CLOCK_MONOTONIC` run at one rate (the kernel derives the one from the
    /// other; NTP may slew it by some parts per million), so a reading taken between the two
    /// pairs lands within their own error of what `clock_gettime` would have said: a few
    /// nanoseconds each (`pair()`). A reading before `from` is carried along the same line.
    /// Integer arithmetic, to a 2⁻⁶⁴ of a nanosecond a tick: a streamed recording's writer
    /// converts every record (through `Double`, the conversion and its range checks took
    /// about 36 instructions a record; this takes about a dozen).
    struct Line: Sendable {
        let from: Pair
        let to: Pair
        /// `from`'s nanoseconds since the start.
        let offset: UInt64
        /// Nanoseconds a tick, from `from` to `to`: its whole part, and its fraction in 2⁻⁶⁴.
        let whole: UInt64
        let fraction: UInt64

        /// The line of a clock that reads nanoseconds already: a reading less the start.
        init(origin: UInt64) {
            from = Pair(count: origin, nanoseconds: origin)
            to = from
            offset = 0
            whole = 1
            fraction = 0
        }

        init(origin: UInt64, from: Pair, to: Pair) {
            self.from = from
            self.to = to
            offset = from.nanoseconds &- origin
            // Never a falling line (two pairs read in the same tick, or a clock that stepped
            // back): times stay in the readings' order.
            guard to.count > from.count, to.nanoseconds > from.nanoseconds else {
                whole = 0
                fraction = 0
                return
            }
            let nanoseconds = to.nanoseconds &- from.nanoseconds, ticks = to.count &- from.count
            whole = nanoseconds / ticks
            // Rounded up, so that a whole number of nanoseconds comes out whole (three ticks of a
            // third are one nanosecond, not 0.999…); below a nanosecond too much over 2⁶⁴ ticks.
            let (quotient, remainder) = ticks.dividingFullWidth((high: nanoseconds % ticks, low: 0))
            fraction = remainder > 0 ? quotient + 1 : quotient
        }

        /// Nanoseconds since the start (0 for a reading before it).
        @inline(__always)
        func nanoseconds(_ reading: UInt64) -> UInt64 {
            if reading >= from.count {
                let ticks = reading &- from.count
                return offset &+ ticks &* whole &+ ticks.multipliedFullWidth(by: fraction).high
            }
            let ticks = from.count &- reading
            let (back, overflow) = ticks.multipliedReportingOverflow(by: whole)
            let before = back &+ ticks.multipliedFullWidth(by: fraction).high
            return !overflow && before < offset ? offset &- before : 0
        }
    }

    /// Readings made nanoseconds along lines joined end to end, each from the pair that ended
    /// the one before to a pair read when it was added (`extend`): a conversion reads the line
    /// that holds the reading, so a reading converts to the same time at every later
    /// conversion (a snapshot and a nested scope's agree), and times keep the readings' order.
    struct Lines: Sendable {
        private(set) var lines: [Line] = []
        /// Most lines kept: past that, the older half goes (a reading before the oldest kept is
        /// carried along it). A line is 56 bytes, added at each snapshot or batch.
        static let most = 1024

        /// Adds a line from the last one's end (or the start) to a pair read now.
        mutating func extend(_ clock: EventClock) {
            let line = clock.line(from: lines.last?.to ?? clock.start)
            if lines.count >= Self.most { lines.removeFirst(Self.most / 2) }
            lines.append(line)
        }

        /// Nanoseconds since the start: along the last line that starts at or before the
        /// reading (the newest, nearly always), else the oldest.
        @inline(__always)
        func nanoseconds(_ reading: UInt64) -> UInt64 {
            guard let last = lines.last else { return 0 }
            if reading >= last.from.count { return last.nanoseconds(reading) }
            return lines[line(before: reading)].nanoseconds(reading)
        }

        private func line(before reading: UInt64) -> Int {
            var low = 0, high = lines.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lines[middle].from.count <= reading { low = middle } else { high = middle - 1 }
            }
            return low
        }
    }

    // MARK: Reading the clocks

    /// A counter reading and the `CLOCK_MONOTONIC` read between two counter readings, the
    /// middle of the two taken as its count: the narrowest of a few tries, so that a thread
    /// preempted between the reads (a loaded machine) does not skew every time converted
    /// along a line through it. About 200 ns, at a recording's start and each conversion.
    static func pair() -> Pair {
        var best = Pair(count: 0, nanoseconds: 0)
        var narrowest = UInt64.max
        for _ in 0..<5 {
            let before = crx_cycle_counter()
            let nanoseconds = monotonicNanoseconds()
            let after = crx_cycle_counter()
            guard after >= before else { continue }
            if after &- before < narrowest {
                narrowest = after &- before
                best = Pair(count: before &+ narrowest / 2, nanoseconds: nanoseconds)
            }
        }
        return best
    }

    @inline(__always)
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Whether the CPU's counter is a clock here: the kernel's own clocksource is that counter
    /// (`tsc` on x86_64, which Linux picks only when the counter is invariant and in step
    /// across CPUs; `arch_sys_counter` on aarch64). Read once per process.
    static let counterIsSound: Bool = {
        guard crx_has_cycle_counter() != 0 else { return false }
        #if arch(x86_64)
        let expected = "tsc"
        #elseif arch(arm64)
        let expected = "arch_sys_counter"
        #else
        let expected = ""
        #endif
        return !expected.isEmpty && currentClocksource() == expected
    }()

    /// The kernel's clocksource (nil: not known).
    static func currentClocksource() -> String? {
        let descriptor = open("/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self).split(whereSeparator: \.isWhitespace).first
            .map(String.init)
    }

    /// Recorders made while this is set read `clock_gettime` at every delivery, as on a machine
    /// whose counter is not sound (for tests of that path).
    static let forcesMonotonic = Atomic<Bool>(false)
}
