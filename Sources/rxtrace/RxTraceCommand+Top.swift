import ArgumentParser
import Foundation
import RxTrace
import Synchronization

extension RxTraceCommand {
    /// `rxtrace top TRACE`
    struct Top: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Watch a running program's streamed trace: live subscriptions by call site, refreshed every second.",
            discussion: """
                Follows TRACE (rxtrace/2, what RXTRACE=TRACE writes) while the program runs. Each \
                refresh shows one row per call site: its live subscriptions (observers subscribed and \
                not yet disposed, terminated or released), their growth since the last refresh and \
                since top started, events per second, and the types of the nodes alive there; then \
                the anomalies. A row that keeps growing is a subscription that is never disposed.

                Ends with the trace's end record, or on Ctrl-C, printing the final state. In a \
                terminal the table is redrawn in place; otherwise each refresh is printed as plain \
                lines.

                Exit status: 0 at the end record or on Ctrl-C; 2 when the file does not appear \
                within --wait seconds, is not a streamed trace, holds a malformed line, shrinks, or \
                is cut short (its program ended without the end record).

                Example:
                  RXTRACE=trace.rxt swift run MyApp &
                  rxtrace top trace.rxt
                """
        )

        @Argument(help: "The trace file (rxtrace/2), written while the program runs.")
        var trace: String

        @Option(help: "Seconds between refreshes.")
        var interval: Double = 1

        @Option(help: "Seconds to wait for the file to appear.")
        var wait: Double = 10

        @Option(help: "At most this many call sites (default: what fits the terminal, or 20).")
        var rows: Int?

        func validate() throws {
            guard interval >= 0.05, interval <= 3600 else {
                throw ValidationError("--interval must be between 0.05 and 3600 seconds")
            }
            guard wait >= 0 else { throw ValidationError("--wait must not be negative") }
            if let rows, rows < 1 { throw ValidationError("--rows must be at least 1") }
        }

        func run() throws {
            TopSignals.install()
            let follower = try open()
            let screen = TopScreen(rows: rows)
            var state = TopState()
            defer { screen.leave() }
            var failure: CLIError?
            var lastRefresh = Date()
            while true {
                do {
                    try follower.poll({ record in state.add(record) }, newSegment: { state.segmentStarted() })
                    state.pollEnded()
                } catch {
                    failure = CLIError.badInput(error.description)
                    break
                }
                let now = Date()
                if follower.ended != nil || TopSignals.stopped { break }
                if let pid = writerGone(follower) {
                    failure = CLIError.badInput(
                        "\(trace): cut short at seq \(follower.lastSeq): the program (pid \(pid)) ended "
                            + "without its end record")
                    break
                }
                if now.timeIntervalSince(lastRefresh) >= interval || state.refreshes == 0 {
                    screen.show(state.snapshot(follower, now: now, trace: trace))
                    lastRefresh = now
                }
                TopSignals.sleep(min(0.05, interval))
            }
            screen.leave()
            var final = state.snapshot(follower, now: Date(), trace: trace)
            final.final = follower.ended.map { "ended (\($0.reason)) at seq \($0.seq)" } ?? "stopped"
            screen.showFinal(final)
            if let failure { throw failure }
        }

        /// The follower, once the file exists (waiting up to `wait` seconds for it).
        private func open() throws -> TraceFollower {
            let deadline = Date(timeIntervalSinceNow: wait)
            var said = false
            while true {
                do {
                    return try TraceFollower(path: trace)
                } catch .missing {
                    if Date() >= deadline || TopSignals.stopped {
                        throw CLIError.badInput("\(trace): no such file (waited \(Self.seconds(wait)))")
                    }
                    if !said, isatty(STDERR_FILENO) != 0 {
                        Console.error("waiting for \(trace) (up to \(Self.seconds(wait)))…")
                        said = true
                    }
                    TopSignals.sleep(0.05)
                } catch {
                    throw CLIError.badInput(error.description)
                }
            }
        }

        /// The writing program's pid when the header names it, it ran on this host and it is gone.
        private func writerGone(_ follower: TraceFollower) -> Int32? {
            guard let pid = follower.meta["pid"].flatMap({ Int32($0) }), pid > 0,
                follower.meta["host"] == ProcessInfo.processInfo.hostName
            else { return nil }
            guard kill(pid, 0) != 0, errno == ESRCH else { return nil }
            // It may have written its last lines just before it went: read them first.
            _ = try? follower.poll { _ in }
            return follower.ended == nil ? pid : nil
        }

        static func seconds(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
        }
    }
}

/// SIGINT and SIGTERM end `top` (after the final state), not the process.
enum TopSignals {
    private static let flag = Atomic<Bool>(false)

    static var stopped: Bool { flag.load(ordering: .relaxed) }

    static func install() {
        for number in [SIGINT, SIGTERM] {
            signal(number) { _ in TopSignals.flag.store(true, ordering: .relaxed) }
        }
    }

    /// Sleeps `seconds`, or less when a signal asks to stop.
    static func sleep(_ seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !stopped, Date() < deadline { usleep(10_000) }
    }
}

/// What `top` keeps of the trace: the nodes alive, and per call site the counts it shows.
struct TopState {
    struct Node {
        var site: String
        var type: String
        /// An observer still subscribed: counted in its site's `live`.
        var subscribed: Bool
    }

    struct Site {
        var live = 0
        var nodes = 0
        var types: [String: Int] = [:]
        var events = 0
        /// `live` at top's first refresh (0 for a site that appeared later), and at the last one.
        var liveAtStart: Int?
        var liveAtRefresh = 0
        var eventsAtRefresh = 0
    }

    struct Anomaly {
        var seq: UInt64
        var kind: String
        var node: String
        var detail: String
    }

    private(set) var nodes: [UInt64: Node] = [:]
    private(set) var sites: [String: Site] = [:]
    private(set) var anomalyCounts: [String: Int] = [:]
    private(set) var recentAnomalies: [Anomaly] = []
    private(set) var events = 0
    private(set) var dropped = TraceDrop()
    private(set) var refreshes = 0
    private var eventsAtRefresh = 0
    private var lastRefresh: Date?
    private var started: Date?

    /// While a new segment is read: the nodes it carried over (`RXTRACE_MAX_MB`).
    private var carried: Set<UInt64>?

    static let noSite = "(no call site)"

    /// A new segment starts with the nodes still alive, with their ids: the others were released
    /// while the segment before ended.
    mutating func segmentStarted() {
        pollEnded()
        carried = []
    }

    mutating func pollEnded() {
        guard let carried else { return }
        self.carried = nil
        for id in nodes.keys where !carried.contains(id) { add(.deinitialized(node: id, seq: 0)) }
    }

    mutating func add(_ record: TraceFileRecord) {
        switch record {
        case .node(let node):
            carried?.insert(node.id)
            // A new segment repeats the nodes still alive, with their ids.
            guard nodes[node.id] == nil else { return }
            let site = node.callSite ?? Self.noSite
            let subscribed = node.kind == .observer
            nodes[node.id] = Node(site: site, type: node.type, subscribed: subscribed)
            sites[site, default: Site()].nodes += 1
            sites[site, default: Site()].types[node.type, default: 0] += 1
            if subscribed { sites[site, default: Site()].live += 1 }
        case .disposed(let id, _, _), .terminated(let id, _, _):
            unsubscribe(id)
        case .deinitialized(let id, _, _):
            unsubscribe(id)
            guard let node = nodes.removeValue(forKey: id) else { return }
            sites[node.site]?.nodes -= 1
            sites[node.site]?.types[node.type, default: 1] -= 1
            if sites[node.site]?.types[node.type] == 0 { sites[node.site]?.types[node.type] = nil }
        case .event(let event):
            events += 1
            if let node = nodes[event.node] { sites[node.site]?.events += 1 }
        case .anomaly(let id, let anomaly):
            anomalyCounts[anomaly.kind.rawValue, default: 0] += 1
            let node = nodes[id].map { "\($0.type) at \($0.site)" } ?? "node \(id)"
            recentAnomalies.append(
                Anomaly(seq: anomaly.seq, kind: anomaly.kind.rawValue, node: node, detail: anomaly.detail))
            if recentAnomalies.count > 5 { recentAnomalies.removeFirst() }
        case .drop(let drop):
            dropped.steps += drop.steps
            dropped.events += drop.events
            dropped.nodes += drop.nodes
        case .edge, .step, .resource, .mark, .end:
            break
        }
    }

    private mutating func unsubscribe(_ id: UInt64) {
        guard let node = nodes[id], node.subscribed else { return }
        nodes[id]?.subscribed = false
        sites[node.site]?.live -= 1
    }

    /// The table as of now; marks a refresh (the baselines of the growth columns).
    mutating func snapshot(_ follower: TraceFollower, now: Date, trace: String) -> TopSnapshot {
        let elapsed = lastRefresh.map { max(now.timeIntervalSince($0), 0.001) }
        var snapshot = TopSnapshot(trace: trace, program: follower.meta["program"], pid: follower.meta["pid"])
        snapshot.seconds = started.map { now.timeIntervalSince($0) } ?? 0
        snapshot.seq = follower.lastSeq
        snapshot.bytes = follower.bytesRead
        snapshot.segments = follower.segments
        snapshot.nodes = nodes.count
        snapshot.eventsPerSecond = elapsed.map { Double(events - eventsAtRefresh) / $0 }
        snapshot.dropped = dropped
        for (name, site) in sites {
            let baseline = site.liveAtStart ?? (refreshes == 0 ? site.live : 0)
            let row = TopSnapshot.Row(
                site: name, live: site.live, sinceRefresh: refreshes == 0 ? 0 : site.live - site.liveAtRefresh,
                sinceStart: site.live - baseline,
                eventsPerSecond: elapsed.map { Double(site.events - site.eventsAtRefresh) / $0 },
                types: site.types.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key))
            snapshot.live += site.live
            // A site with nothing alive and nothing happening is left out.
            if site.nodes > 0 || site.live > 0 || (row.eventsPerSecond ?? 0) > 0 { snapshot.rows.append(row) }
            sites[name]?.liveAtStart = baseline
            sites[name]?.liveAtRefresh = site.live
            sites[name]?.eventsAtRefresh = site.events
        }
        snapshot.rows.sort {
            ($0.sinceStart, $0.live, $0.eventsPerSecond ?? 0, $1.site) > (
                $1.sinceStart, $1.live, $1.eventsPerSecond ?? 0, $0.site
            )
        }
        snapshot.anomalyCounts = anomalyCounts
        snapshot.recentAnomalies = recentAnomalies
        eventsAtRefresh = events
        lastRefresh = now
        if started == nil { started = now }
        refreshes += 1
        return snapshot
    }
}

/// One refresh of the table, as text.
struct TopSnapshot {
    struct Row {
        var site: String
        var live: Int
        var sinceRefresh: Int
        var sinceStart: Int
        var eventsPerSecond: Double?
        var types: [String]
    }

    var trace: String
    var program: String?
    var pid: String?
    var seconds: Double = 0
    var seq: UInt64 = 0
    var bytes = 0
    var segments = 0
    var nodes = 0
    var live = 0
    var eventsPerSecond: Double?
    var dropped = TraceDrop()
    var rows: [Row] = []
    var anomalyCounts: [String: Int] = [:]
    var recentAnomalies: [TopState.Anomaly] = []
    /// Set for the last one: how it ended.
    var final: String?

    /// The lines, at most `width` columns wide, with at most `maxRows` call sites.
    func lines(width: Int, maxRows: Int) -> [String] {
        var head = "rxtrace top \(trace)"
        if let program { head += " · \(program)" + (pid.map { " (pid \($0))" } ?? "") }
        head += " · \(String(format: "%.1f", seconds)) s · seq \(seq) · \(Self.size(bytes))"
        if segments > 0 { head += " · \(segments + 1) segments" }
        var lines = [head]
        var totals = "live subscriptions \(live) · nodes \(nodes)"
        if let eventsPerSecond { totals += " · events \(Self.rate(eventsPerSecond))/s" }
        if dropped.nodes + dropped.events + dropped.steps > 0 {
            totals += " · dropped (RXTRACE_MAX_MB) \(dropped.nodes) nodes, \(dropped.events) events"
        }
        if let final { totals += " · \(final)" }
        lines.append(totals)
        lines.append("")
        let siteWidth = min(max(rows.prefix(maxRows).map(\.site.count).max() ?? 9, 9), max(width / 3, 12))
        lines.append(
            Self.pad("CALL SITE", siteWidth) + "   LIVE  +LAST  +START  EVENTS/S  TYPES")
        for row in rows.prefix(maxRows) {
            let site = row.site.count > siteWidth ? "…" + row.site.suffix(siteWidth - 1) : row.site
            lines.append(
                Self.pad(String(site), siteWidth) + Self.left(String(row.live), 7)
                    + Self.left(Self.signed(row.sinceRefresh), 7) + Self.left(Self.signed(row.sinceStart), 8)
                    + Self.left(row.eventsPerSecond.map(Self.rate) ?? "-", 10) + "  "
                    + row.types.joined(separator: ", "))
        }
        if rows.count > maxRows { lines.append("… \(rows.count - maxRows) more call sites") }
        if rows.isEmpty { lines.append("(nothing alive yet)") }
        lines.append("")
        let anomalyTotal = anomalyCounts.values.reduce(0, +)
        if anomalyTotal == 0 {
            lines.append("ANOMALIES none")
        } else {
            let kinds = anomalyCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("ANOMALIES \(anomalyTotal) (\(kinds))")
            for anomaly in recentAnomalies {
                lines.append("  seq \(anomaly.seq)  \(anomaly.kind)  \(anomaly.node): \(anomaly.detail)")
            }
        }
        return lines.map { $0.count > width ? String($0.prefix(max(width - 1, 1))) + "…" : $0 }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }

    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : String(value) }

    static func rate(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1_000_000
            ? String(format: "%.1f MB", Double(bytes) / 1e6) : String(format: "%.1f kB", Double(bytes) / 1e3)
    }
}

/// Where `top` draws: a terminal redrawn in place (the alternate screen, left at the end), or
/// plain lines, one block per refresh.
final class TopScreen {
    let terminal = isatty(STDOUT_FILENO) != 0
    let rows: Int?
    private var entered = false

    init(rows: Int?) { self.rows = rows }

    /// The terminal's columns and lines (80×24 when it does not say).
    private var size: (columns: Int, lines: Int) {
        var window = winsize()
        guard terminal, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else {
            return (terminal ? 80 : 200, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    func show(_ snapshot: TopSnapshot) {
        let (columns, lines) = size
        guard terminal else {
            let text = snapshot.lines(width: 400, maxRows: rows ?? 20).joined(separator: "\n")
            return Console.out("--- \(String(format: "%.1f", snapshot.seconds)) s\n" + text + "\n\n")
        }
        if !entered {
            Console.out("\u{1B}[?1049h\u{1B}[?25l")
            entered = true
        }
        // Head (3), column titles (1), anomalies (2 + up to 5), one spare line.
        let room = max(lines - 4 - 2 - snapshot.recentAnomalies.count - 1 - 1, 1)
        let text = snapshot.lines(width: columns, maxRows: min(rows ?? room, room))
        Console.out("\u{1B}[H" + text.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J")
    }

    /// Leaves the alternate screen, if it was entered.
    func leave() {
        guard entered else { return }
        entered = false
        Console.out("\u{1B}[?25h\u{1B}[?1049l")
    }

    /// The final state, on the normal screen or as the last block.
    func showFinal(_ snapshot: TopSnapshot) {
        let width = terminal ? size.columns : 400
        let text = snapshot.lines(width: width, maxRows: rows ?? (terminal ? max(size.lines - 12, 5) : 20))
        Console.out((terminal ? "" : "--- final\n") + text.joined(separator: "\n") + "\n")
    }
}
