import Foundation
import Testing

/// The shape the code keeps: the base classes read like the articles' excerpts, with tracing in
/// `Sources/RxCore/Trace/*+Trace.swift` (at most ten lines that mention it in each of `Sink.swift`,
/// `Producer.swift` and `ObserverBase.swift`), and no Swift line over 120 columns anywhere
/// (`.swift-format`'s line length, which the formatter cannot enforce on long string literals
/// and comments).
@Suite struct SourceShapeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: ["Core/Sink.swift", "Core/Producer.swift", "Observers/ObserverBase.swift"])
    func baseClassesKeepTracingOut(file: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Sources/RxCore/\(file)"), encoding: .utf8)
        let tracing = text.split(separator: "\n").filter { $0.lowercased().contains("trac") }
        #expect(
            tracing.count <= 10, "\(file): \(tracing.count) lines mention tracing:\n\(tracing.joined(separator: "\n"))")
    }

    @Test func noLineIsOver120Columns() throws {
        let folders = [
            "Sources", "Tests", "Chapters", "Benchmarks/Sources", "Examples/Sources", "Examples/Tests", "Fuzz/Sources",
        ]
        var files = ["Package.swift", "Benchmarks/Package.swift", "Examples/Package.swift", "Fuzz/Package.swift"]
        for folder in folders {
            let url = Self.root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: url.path) else { continue }
            for case let path as String in walker where path.hasSuffix(".swift") { files.append("\(folder)/\(path)") }
        }
        #expect(files.count > 100)
        var long: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8) else {
                continue
            }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.count > 120 {
                long.append("\(file):\(number + 1): \(line.count) columns")
            }
        }
        #expect(long.isEmpty, "\(long.count) lines over 120 columns:\n\(long.joined(separator: "\n"))")
    }
}
