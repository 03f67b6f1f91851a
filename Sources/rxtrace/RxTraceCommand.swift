import ArgumentParser
import Foundation
import RxGraphviz
import RxTrace

/// `rxtrace`: draw recorded traces and find leaked subscriptions.
///
/// ```
/// rxtrace render trace.rxt --view flow -o flow.svg
/// rxtrace leaks trace.rxt
/// ```
@main
struct RxTraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rxtrace",
        abstract: "Draw RxAnatomy traces with Graphviz and find leaked subscriptions.",
        discussion: """
            A trace is the file a program writes when RXTRACE=FILE is set: rxtrace/2 (JSON lines) or \
            rxtrace/1 (one JSON document); both are read, and a trace cut short by a crash or a kill \
            reads as what it holds. `convert` writes either form.

            Exit status: 0 success; 1 leaks found (leaks; a trace cut short exits 0); 2 bad input or usage \
            (missing, empty, \
            malformed or unknown-format trace, a view that does not fit the trace, bad options); \
            3 rendering or writing the output failed; 4 the program given to `run` could not be \
            started or wrote no trace.
            """,
        subcommands: [Render.self, Report.self, Leaks.self, Summary.self, Convert.self, Run.self, Top.self]
    )

    static func main() {
        // A closed pipe (`rxtrace render … | head`) must end the write, not the process.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CLIError {
            Console.error("rxtrace: \(error.message)")
            Foundation.exit(error.status)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                Console.out(fullMessage(for: error) + "\n")
                Foundation.exit(0)
            }
            Console.error(fullMessage(for: error))
            Foundation.exit(CLIError.usageStatus)
        }
    }
}

/// A failure `rxtrace` reports in one line with a documented status.
struct CLIError: Error {
    static let leaksStatus: Int32 = 1
    static let usageStatus: Int32 = 2
    static let renderStatus: Int32 = 3
    static let runStatus: Int32 = 4

    var message: String
    var status: Int32

    static func badInput(_ message: String) -> CLIError { CLIError(message: message, status: usageStatus) }
    static func rendering(_ message: String) -> CLIError { CLIError(message: message, status: renderStatus) }
    static func run(_ message: String) -> CLIError { CLIError(message: message, status: runStatus) }

    init(message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    init(_ error: RenderError) {
        switch error {
        case .viewDoesNotFit(let message): self.init(message: message, status: Self.usageStatus)
        case .graphviz(let message): self.init(message: message, status: Self.renderStatus)
        }
    }
}

/// Reads a trace or fails with the trace reader's one-line message; progress on stderr when the
/// read takes over a second.
func readTrace(_ path: String) throws -> TraceDocument {
    let progress = ReadProgress(path)
    defer { progress.done() }
    do {
        return try TraceDocument.readWithStatus(from: URL(fileURLWithPath: path), progress: progress.report).document
    } catch {
        throw CLIError.badInput(error.description)
    }
}

/// One line on stderr when `document` was cut short (no end record): what is drawn stops there.
func noteIfCut(_ document: TraceDocument, _ path: String) {
    guard let cut = document.meta["cut"] else { return }
    Console.error(
        "rxtrace: note: \(path) was cut short at \(cut) (no end record: the program crashed, was killed, "
            + "or is still running); drawing what it holds")
}

/// Reads a trace's graph, counting its steps and events without keeping them
/// (`TraceDocument.readGraph`); progress on stderr when the read takes over a second.
func readTraceGraph(_ path: String) throws -> (graph: TraceDocument, counts: TraceFlowCounts, status: TraceReadStatus) {
    let progress = ReadProgress(path)
    defer { progress.done() }
    do {
        return try TraceDocument.readGraph(from: URL(fileURLWithPath: path), progress: progress.report)
    } catch {
        throw CLIError.badInput(error.description)
    }
}

/// `reading trace.rxt: 45% (47 of 104 MB)` on stderr, from the first second of a read on, at most
/// four times a second (on one line rewritten in place when stderr is a terminal).
final class ReadProgress {
    let path: String
    /// What the line says is being done (`reading`, `converting`).
    let verb: String
    let start = Date()
    var last: Date?
    let terminal = isatty(STDERR_FILENO) != 0

    init(_ path: String, verb: String = "reading") {
        self.path = path
        self.verb = verb
    }

    func report(_ read: Int, _ total: Int) {
        let now = Date()
        guard now.timeIntervalSince(start) >= 1,
            last.map({ now.timeIntervalSince($0) >= (terminal ? 0.25 : 1) }) ?? true
        else { return }
        last = now
        let megabytes = { (bytes: Int) in String(format: "%.0f", Double(bytes) / 1_000_000) }
        let percent = total > 0 ? min(100, read * 100 / total) : 0
        let line = "\(verb) \(path): \(percent)% (\(megabytes(read)) of \(megabytes(total)) MB)"
        if terminal {
            Console.errorText("\r" + line)
        } else {
            Console.error(line)
        }
    }

    func done() {
        if terminal && last != nil { Console.errorText("\n") }
    }
}

extension RenderView: ExpressibleByArgument {}
extension RenderFormat: ExpressibleByArgument {}

/// Writes to stdout/stderr with write(2), so a closed pipe is an error we ignore, not a crash.
enum Console {
    static func out(_ text: String) { write(Data(text.utf8), to: STDOUT_FILENO) }
    static func out(_ data: Data) { write(data, to: STDOUT_FILENO) }
    /// Text as is, no newline added (a progress line rewritten in place).
    static func errorText(_ text: String) { write(Data(text.utf8), to: STDERR_FILENO) }
    static func error(_ line: String) {
        write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8), to: STDERR_FILENO)
    }

    private static func write(_ data: Data, to descriptor: Int32) {
        _ = data.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// Writes the whole of `buffer` with write(2), again after a signal interrupts it; the
    /// `errno` of the write that failed, or nil once everything was written.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard var pointer = buffer.baseAddress else { return nil }
        var remaining = buffer.count
        while remaining > 0 {
            let written = Foundation.write(descriptor, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            remaining -= written
            pointer += written
        }
        return nil
    }
}

/// Writes `data` to `path` (`AtomicFile`: a failure never leaves a partial file).
func writeAtomically(_ data: Data, to path: String) throws {
    do {
        try AtomicFile.write(data, to: URL(fileURLWithPath: path))
    } catch {
        throw CLIError.rendering("\(path): cannot write: \(error.reason)")
    }
}
