import ArgumentParser
import Foundation
import RxTrace

extension RxTraceCommand.Convert {
    /// `--to perfetto`: the trace as a timeline in the JSON Trace Event Format
    /// (`TimelineExport`), streamed to stdout or through a temporary file renamed over `-o`.
    func convertToTimeline() throws {
        let url = URL(fileURLWithPath: trace)
        var output = try TimelineOutput(output)
        defer { output.discard() }
        var progress = (pass: 0, line: ReadProgress?.none)
        let stats: TimelineExport.Stats
        do {
            stats = try TimelineExport.write(
                from: url,
                progress: { pass, read, total in
                    if pass != progress.pass {
                        progress.line?.done()
                        progress = (pass, ReadProgress(trace, verb: pass == 1 ? "reading" : "converting"))
                    }
                    progress.line?.report(read, total)
                }
            ) { chunk in try output.write(chunk) }
            progress.line?.done()
        } catch let error as TraceFileError {
            progress.line?.done()
            throw CLIError.badInput(error.description)
        }
        try output.commit()
        if stats.openSpans > 0 {
            Console.error(
                "rxtrace: note: \(stats.openSpans) subscription\(stats.openSpans == 1 ? " was" : "s were") "
                    + "still open at the end of \(trace); their spans end there, marked \"open\"")
        }
    }
}

/// Where `convert --to perfetto` writes: stdout, or a temporary file beside `-o` renamed into
/// place once everything is written (a failure leaves no file).
struct TimelineOutput {
    let path: String?
    var temporary: String?
    var descriptor: Int32 = STDOUT_FILENO

    init(_ path: String?) throws {
        self.path = path
        guard let path else { return }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw CLIError.rendering("\(path): cannot write: no directory \(directory)")
        }
        let temporary =
            url.deletingLastPathComponent().appendingPathComponent(
                ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp"
            ).path
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw CLIError.rendering("\(path): cannot write: \(String(cString: strerror(errno)))")
        }
        self.temporary = temporary
    }

    func write(_ bytes: [UInt8]) throws {
        guard let failure = bytes.withUnsafeBytes({ Console.writeAll($0, to: descriptor) }) else { return }
        // A closed pipe on stdout ends the output quietly, as elsewhere in rxtrace.
        if path == nil && failure == EPIPE { throw ExitCode.success }
        throw CLIError.rendering("\(path ?? "stdout"): cannot write: \(String(cString: strerror(failure)))")
    }

    /// Renames the finished file into place.
    mutating func commit() throws {
        guard let path, let temporary else { return }
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            self.temporary = nil
            throw CLIError.rendering("\(path): cannot write: \(reason)")
        }
        self.temporary = nil
    }

    /// Removes the temporary file of a conversion that did not finish.
    mutating func discard() {
        guard let temporary else { return }
        if descriptor >= 0 { close(descriptor) }
        unlink(temporary)
        self.temporary = nil
    }
}
