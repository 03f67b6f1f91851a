import ChildProcess
import Foundation
import RxTrace
import Testing

/// `make install` puts `rxtrace` on the PATH, and README's commands then work as typed.
///
/// `make install` builds in release first; a test cannot run SwiftPM while `swift test` holds
/// the build folder, so it installs the built debug binary with the same copy step
/// (`make install-bin`), and holds the recipe to building the release one.
@Suite(.serialized) struct InstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func installBuildsARelease() throws {
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let recipe = try #require(makefile.components(separatedBy: "\ninstall: ").dropFirst().first)
        #expect(recipe.contains("build -c release $(SWIFT_BUILD_FLAGS) --product rxtrace"))
        #expect(makefile.contains("PREFIX ?= /usr/local"))
    }

    @Test func readmeCommandsWorkAsTypedOnceInstalled() throws {
        let binary = try #require(CLI.binary)
        let scratch = try Scratch()
        let prefix = scratch.url.appendingPathComponent("prefix")
        let make = try Child.run(
            URL(fileURLWithPath: "/usr/bin/make"),
            arguments: ["--no-print-directory", "install-bin", "PREFIX=\(prefix.path)", "RXTRACE_BIN=\(binary.path)"],
            environment: ["MAKEFLAGS": nil, "MAKELEVEL": nil], directory: Self.root, timeLimit: 60)
        #expect(make.status == 0, "\(make.out)\(make.stderr)")
        let installed = prefix.appendingPathComponent("bin/rxtrace")
        #expect(FileManager.default.isExecutableFile(atPath: installed.path))
        #expect(make.out.contains("==> installed \(installed.path)\n"))
        #expect(make.out.contains("is not on your PATH; add it: export PATH=\"\(prefix.path)/bin:$PATH\""))

        // A program to trace, as README's `swift run MyApp` / `.build/debug/MyApp` would be.
        let child = binary.deletingLastPathComponent().appendingPathComponent("tracechild")
        let app = scratch.url.appendingPathComponent(".build/debug/MyApp")
        try FileManager.default.createDirectory(at: app.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "#!/bin/sh\nexec '\(child.path)' run 100\n".write(to: app, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: app.path)

        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        // It says how rxtrace gets on the PATH, next to the commands.
        #expect(readme.contains("\nmake install "))
        let commands = readme.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("rxtrace ") || $0.hasPrefix("RXTRACE=")
        }
        #expect(
            commands.contains { $0.hasPrefix("rxtrace render ") }
                && commands.contains { $0.hasPrefix("rxtrace leaks ") })
        let path = "\(prefix.path)/bin:/usr/bin:/bin"
        for line in commands {
            // `swift run App` is the user's program: here it is MyApp.
            let command = line.replacingOccurrences(
                of: #"swift run \w+"#, with: ".build/debug/MyApp", options: .regularExpression)
            let result = try Child.run(
                URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", command],
                environment: ["PATH": path, "RXTRACE": nil, "RXTRACE_FORMAT": nil], directory: scratch.url,
                timeLimit: 60)
            // `leaks` exits 1: MyApp leaves a subscription open.
            let expected: Int32 = line.hasPrefix("rxtrace leaks ") ? 1 : 0
            #expect(result.status == expected, "\(line): \(result.ending)\n\(result.stderr)")
        }
        for file in ["trace.rxt", "graph.svg"] {
            #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent(file).path))
        }
    }
}
