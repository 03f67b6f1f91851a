import ArgumentParser
import Foundation
import RxGraphviz
import RxTrace

extension RxTraceCommand {
    /// `rxtrace run EXECUTABLE-OR-CHAPTER [--out DIR]`
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a program with RXTRACE set, then draw every view of its trace.",
            discussion: """
                Runs the program with RXTRACE=DIR/trace.rxt, then writes graph.svg, flow.svg, \
                marbles.svg and resources.svg into DIR (a view that does not fit the trace is \
                skipped with a note), and report.html, the page that replays the run (see rxtrace \
                report; --lang as there). A chapter name such as 02 or chapter02 means the built \
                chapter executable next to rxtrace. Arguments after -- go to the program.

                Examples:
                  rxtrace run 02 --out diagrams/
                  rxtrace run .build/debug/MyDemo --out /tmp/demo -- --verbose
                """
        )

        @Argument(help: "A path to an executable, or a chapter (02, chapter02).")
        var program: String

        @Option(help: "Where to write trace.rxt and the diagrams (default: ./rxtrace-NAME).")
        var out: String?

        @OptionGroup var language: ReportLanguageOption

        @Argument(parsing: .postTerminator, help: "Arguments for the program.")
        var arguments: [String] = []

        func resolveProgram() throws -> URL {
            let manager = FileManager.default
            if program.contains("/") || manager.isExecutableFile(atPath: program) {
                guard manager.isExecutableFile(atPath: program) else {
                    throw CLIError.badInput("\(program): no such executable")
                }
                return URL(fileURLWithPath: program)
            }
            let digits =
                program.lowercased().hasPrefix("chapter") ? String(program.dropFirst("chapter".count)) : program
            guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let number = Int(digits) else {
                throw CLIError.badInput("\(program): not an executable and not a chapter name (like 02 or chapter02)")
            }
            let name = "chapter" + (number < 10 ? "0\(number)" : "\(number)")
            let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent()
            let candidate = here.appendingPathComponent(name)
            guard manager.isExecutableFile(atPath: candidate.path) else {
                throw CLIError.badInput(
                    "\(name): not built next to rxtrace in \(here.path) (swift build --product \(name))")
            }
            return candidate
        }

        func run() throws {
            let strings = try language.language().strings
            let executable = try resolveProgram()
            let manager = FileManager.default
            let directory = URL(fileURLWithPath: out ?? "rxtrace-\(executable.lastPathComponent)", isDirectory: true)
            do {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw CLIError.rendering("\(directory.path): cannot create: \((error as NSError).localizedDescription)")
            }
            let traceURL = directory.appendingPathComponent("trace.rxt").standardizedFileURL
            try? manager.removeItem(at: traceURL)

            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["RXTRACE"] = traceURL.path
            process.environment = environment
            do {
                try process.run()
            } catch {
                throw CLIError.run("\(executable.path): cannot start: \((error as NSError).localizedDescription)")
            }
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal {
                Console.error(
                    "rxtrace: note: \(executable.lastPathComponent) was killed by signal \(process.terminationStatus)")
            } else if process.terminationStatus != 0 {
                Console.error(
                    "rxtrace: note: \(executable.lastPathComponent) exited with status \(process.terminationStatus)")
            }
            guard manager.fileExists(atPath: traceURL.path) else {
                throw CLIError.run(
                    "\(executable.lastPathComponent) wrote no trace to \(traceURL.path) "
                        + "(does it record when RXTRACE is set?)"
                )
            }
            let document = try readTrace(traceURL.path)

            var written: [String] = []
            var renderingFailed: CLIError? = nil
            for view in RenderView.allCases {
                let path = directory.appendingPathComponent("\(view.rawValue).svg").path
                do {
                    let data = try TraceRenderer.render(document, view: view, format: .svg)
                    try writeAtomically(data, to: path)
                    written.append(path)
                } catch let error as RenderError {
                    if case .viewDoesNotFit(let message) = error {
                        Console.error("rxtrace: skipped \(view.rawValue): \(message)")
                    } else {
                        Console.error("rxtrace: \(error.description)")
                        renderingFailed = CLIError(error)
                    }
                } catch let error as CLIError {
                    Console.error("rxtrace: \(error.message)")
                    renderingFailed = error
                }
            }
            let report = directory.appendingPathComponent("report.html").path
            do {
                let model = ReportModel(document, words: strings)
                if let note = model.graphNote { Console.error("rxtrace: note: the report has no graph: \(note)") }
                try writeAtomically(try ReportPage.html(model), to: report)
                written.insert(report, at: 0)
            } catch let error as CLIError {
                Console.error("rxtrace: \(error.message)")
                renderingFailed = error
            }
            Console.out("trace: \(traceURL.path)\n" + written.map { "wrote \($0)\n" }.joined())
            if let renderingFailed { throw ExitCode(renderingFailed.status) }
        }
    }
}
