import Foundation
import RxCore
import RxTrace
import Testing
import TraceFixtures

/// `rxtrace report --lang en|zh`, and the locale's choice without it: the page's `<html lang>`,
/// its table of strings, and every string the page and its script use found in that table.
@Suite(.serialized) struct ReportLanguageTests {
    /// The page's table of strings (`T` in report.js).
    private func table(_ html: String) throws -> [String: Any] {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"ui-strings\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = Data(html[start.upperBound..<end.lowerBound].utf8)
        return try #require(JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    private func page(_ arguments: [String] = [], environment: [String: String?]) throws -> String {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        let result = try CLI.run(["report", trace] + arguments, in: scratch.url, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return result.out
    }

    /// The locale as POSIX resolves it for messages: LC_ALL, then LC_MESSAGES, then LANG, the
    /// first set and not empty deciding; `zh…` is Chinese, anything else English.
    @Test(
        arguments: [
            (["LANG": "zh_CN.UTF-8"], "zh"),
            (["LANG": "zh_TW"], "zh"),
            (["LANG": "zh"], "zh"),
            (["LANG": "zh_HK.Big5@stroke"], "zh"),
            (["LANG": "en_US.UTF-8"], "en"),
            (["LANG": "C"], "en"),
            ([:], "en"),
            (["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"], "zh"),
            (["LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"], "en"),
            (["LANG": "en_US.UTF-8", "LC_MESSAGES": "en_US.UTF-8", "LC_ALL": "zh_CN.UTF-8"], "zh"),
            (["LANG": "zh_CN.UTF-8", "LC_ALL": "C"], "en"),
            (["LANG": "zh_CN.UTF-8", "LC_ALL": ""], "zh"),
            (["LANG": "zhuang"], "en"),
        ] as [([String: String], String)])
    func theLocaleChoosesThePagesLanguage(locale: [String: String], lang: String) throws {
        var environment: [String: String?] = ["LC_ALL": nil, "LC_MESSAGES": nil, "LANG": nil]
        for (name, value) in locale { environment[name] = value }
        let html = try page(environment: environment)
        #expect(html.contains("<html lang=\"\(lang)\">"), "\(locale)")
        #expect(try table(html)["lang"] as? String == lang)
    }

    @Test func langOverridesTheLocale() throws {
        let english = try page(["--lang", "en"], environment: ["LC_ALL": "zh_CN.UTF-8"])
        #expect(english.contains("<html lang=\"en\">"))
        #expect(english.contains("<title>reference — rxtrace report</title>"))
        let chinese = try page(["--lang", "zh"], environment: ["LC_ALL": "C", "LANG": "en_US.UTF-8"])
        #expect(chinese.contains("<html lang=\"zh\">"))
        #expect(chinese.contains("<title>reference — rxtrace report 回放</title>"))
        #expect(chinese.contains("<button type=\"button\" id=\"play\" title=\"播放 / 暂停（空格）\""))
        #expect(chinese.contains("<option value=\"2\" selected>每秒 2 步</option>"))
    }

    @Test(arguments: [["--lang", "fr"], ["--lang", ""], ["--lang", "ZH"], ["--lang", "zh_CN"]])
    func aLanguageItDoesNotHaveIsOneLineAndStatus2(arguments: [String]) throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        let result = try CLI.run(["report", trace, "-o", "report.html"] + arguments, in: scratch.url)
        #expect(result.status == 2)
        #expect(result.stderr == "rxtrace: --lang \(arguments[1]): no such language (use en or zh)\n")
        #expect(scratch.files == ["trace.json"], "a page was written")
        let run = try CLI.run(["run", "02", "--out", "diagrams"] + arguments, in: scratch.url)
        #expect(run.status == 2, "rxtrace run took \(arguments): \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("diagrams").path))
    }

    /// Every `T.NAME` of report.js and every `<!--rxtrace:t.NAME-->` of report.html is a string
    /// of both tables, and the two tables have the same names: a string missing in one language
    /// fails here (or does not compile).
    @Test func everyStringThePageUsesIsInBothTables() throws {
        let english = try table(page(["--lang", "en"], environment: [:]))
        let chinese = try table(page(["--lang", "zh"], environment: [:]))
        #expect(Self.names(english) == Self.names(chinese))
        for (key, value) in english where key != "lang" {
            if let text = value as? String, let other = chinese[key] as? String {
                #expect(Self.placeholders(text) == Self.placeholders(other), "\(key): \(text) / \(other)")
            }
        }
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/rxtrace/Report")
        let script = try String(contentsOf: sources.appendingPathComponent("report.js"), encoding: .utf8)
        let template = try String(contentsOf: sources.appendingPathComponent("report.html"), encoding: .utf8)
        let used = Self.matches(#"\bT\.([a-z][A-Za-z]*)"#, in: script).union(
            Self.matches(#"<!--rxtrace:t\.([A-Za-z]+)-->"#, in: template))
        #expect(used.count > 100, "found only \(used.count) strings in use: \(used.sorted())")
        for name in used.sorted() {
            #expect(english[name] != nil, "report uses T.\(name), which the tables lack")
        }
        // The script looks these up by a name from the trace: every node kind and leak cause.
        let kinds = try #require(english["kinds"] as? [String: Any])
        #expect(Set(kinds.keys) == Set(TraceNodeKind.allCases.map(\.rawValue)))
        let causes = try #require(english["causes"] as? [String: Any])
        #expect(Set(causes.keys) == Set(TraceLeakReport.Root.Cause.allCases.map(\.rawValue)))
    }

    /// The names of `table`'s strings, a nested table's as `outer.inner`.
    static func names(_ table: [String: Any], prefix: String = "") -> Set<String> {
        table.reduce(into: Set<String>()) { names, entry in
            if let nested = entry.value as? [String: Any] {
                names.formUnion(Self.names(nested, prefix: "\(prefix)\(entry.key)."))
            } else {
                names.insert(prefix + entry.key)
            }
        }
    }

    static func placeholders(_ text: String) -> Set<String> {
        matches(#"\{([a-z]+)\}"#, in: text)
    }

    static func matches(_ pattern: String, in text: String) -> Set<String> {
        let expression = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            expression.matches(in: text, range: range).compactMap { match in
                Range(match.range(at: 1), in: text).map { String(text[$0]) }
            })
    }
}
