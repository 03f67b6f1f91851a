import Foundation
import Testing

/// The workbook's pages send a reader to files and symbols of this repository: a README writes
/// `` `Sources/RxCore/Core/Producer.swift` (`Producer.subscribe`, `Producer.run`) `` and the
/// reading guides of chapters 02 and 03 map each step of the articles to such citations. These
/// tests hold every citation to the tree, so that renaming a file or a method breaks them loudly
/// instead of leaving a reader looking for something that moved.
///
/// The rules, which the failure messages repeat:
/// - a link `[text](target)` points at a file that exists, and at an anchor that exists in it;
/// - a code span holding a path from the repository root (`Sources/…`, `Tests/…`, `Chapters/…`,
///   `docs/…`, `Benchmarks/…`) names a file or folder that exists; a `.swift` path is written
///   from the root;
/// - backticked names in the parentheses right after a `.swift` path are declared in that
///   file: `Type` (a class, struct, enum, protocol, extension or typealias), `member` (a func,
///   var, let, case, init, associated type or nested type) or `Type.member` (both);
/// - a document number (000–004) in the prose of a page links to its entry in
///   `docs/sources.md` (from a Chinese page, `docs/sources.zh.md`).
@Suite struct CitationTests {
    static let root = ChapterTranscriptTests.packageRoot

    /// The pages whose citations are checked: every chapter README in both languages, the top
    /// README in both languages (links and document numbers only: it names generated paths such
    /// as `out/demo/graph.svg`), and the docs that belong to the workbook.
    static var pages: [String] {
        let chapters = ChapterTranscriptTests.chapterNumbers.compactMap { number -> String? in
            let folders =
                (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Chapters").path))
                ?? []
            return folders.first { $0.hasPrefix(number + "-") }.map { "Chapters/\($0)" }
        }
        var pages: [String] = []
        for folder in chapters {
            for name in ["README.md", "README.zh.md"] where exists("\(folder)/\(name)") {
                pages.append("\(folder)/\(name)")
            }
        }
        let documents = ["chapters", "sources", "glossary", "rxtrace", "schedulers", "debug", "compatibility"]
        return pages + documents.flatMap { ["docs/\($0).md", "docs/\($0).zh.md"] }
    }

    static var topReadmes: [String] {
        ["README.md", "README.zh.md"].filter { exists($0) }
    }

    /// The chapters' Swift files, whose comments cite files too.
    static var chapterSources: [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent("Chapters").path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append("Chapters/\(path)") }
        }
        return files.sorted()
    }

    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: - The tests

    @Test func everyPageExists() {
        let readmes = Self.pages.filter { $0.hasSuffix("/README.md") }
        #expect(readmes.count == ChapterTranscriptTests.chapterNumbers.count, "chapter READMEs: \(readmes)")
        for page in Self.pages + Self.topReadmes {
            #expect(Self.exists(page), "\(page) is missing")
        }
    }

    @Test(arguments: pages + topReadmes)
    func linksResolve(_ page: String) throws {
        let text = Markdown.prose(of: try Self.read(page))
        let folder = (page as NSString).deletingLastPathComponent
        for link in Markdown.links(in: text) {
            let target = link.target
            if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let file = parts[0].isEmpty ? page : Self.normalize((folder as NSString).appendingPathComponent(parts[0]))
            guard Self.exists(file) else {
                Issue.record("\(page): the link [\(link.text)](\(target)) points at \(file), which does not exist")
                continue
            }
            if parts.count == 2, file.hasSuffix(".md") {
                let anchors = Markdown.anchors(in: try Self.read(file))
                #expect(
                    anchors.contains(parts[1]),
                    """
                    \(page): the link [\(link.text)](\(target)) names the anchor #\(parts[1]), \
                    which \(file) does not have
                    """
                )
            }
        }
    }

    @Test(arguments: pages)
    func citedFilesAndSymbolsExist(_ page: String) throws {
        let text = Markdown.prose(of: try Self.read(page))
        for citation in Markdown.citations(in: text) {
            let path = citation.path
            if path.hasSuffix(".swift"), !Self.rooted(path) {
                Issue.record(
                    """
                    \(page) cites `\(path)`: write a Swift file's path from the repository root \
                    (Sources/…, Chapters/…)
                    """
                )
                continue
            }
            guard Self.rooted(path) else { continue }
            guard Self.exists(path) else {
                Issue.record(
                    "\(page) cites `\(path)`, which does not exist: point the citation at the file's new place")
                continue
            }
            guard !citation.symbols.isEmpty else { continue }
            let source = try Self.read(path)
            for symbol in citation.symbols {
                if let problem = SwiftSource.problem(with: symbol, in: source) {
                    let fix = "point the citation at the file that declares it now, or write the new name"
                    Issue.record("\(page) cites `\(symbol)` in \(path), but \(problem): \(fix)")
                }
            }
        }
    }

    @Test(arguments: chapterSources)
    func pathsInChapterCommentsExist(_ file: String) throws {
        let source = try Self.read(file)
        let pattern = try NSRegularExpression(
            pattern: #"(?<![A-Za-z0-9_/.])(?:Sources|Tests|Chapters|docs)/[A-Za-z0-9_+./-]*[A-Za-z0-9_]"#)
        for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
            let path = String(source[Range(match.range, in: source)!])
            #expect(Self.exists(path), "\(file) mentions \(path), which does not exist")
        }
    }

    @Test(arguments: pages.filter { !$0.hasPrefix("docs/sources.") } + topReadmes)
    func documentNumbersLinkToSources(_ page: String) throws {
        let text = Markdown.prose(of: try Self.read(page))
        // A Chinese page sends its reader to the Chinese page of the sources.
        let sources = page.hasSuffix(".zh.md") ? "sources.zh.md" : "sources.md"
        var rest = text
        for link in Markdown.links(in: text)
        where link.text.range(of: #"^00[0-4]$"#, options: .regularExpression) != nil {
            #expect(
                link.target.hasSuffix("\(sources)#\(link.text)"),
                "\(page): [\(link.text)](\(link.target)) should point at docs/\(sources)#\(link.text)")
            rest = rest.replacingOccurrences(of: "[\(link.text)](\(link.target))", with: "")
        }
        let bare = try NSRegularExpression(pattern: #"(?<![0-9A-Za-z_./#\[-])(?<!\d,)00[0-4](?![0-9A-Za-z_./\]-]|,\d)"#)
        for match in bare.matches(in: rest, range: NSRange(rest.startIndex..., in: rest)) {
            let number = String(rest[Range(match.range, in: rest)!])
            let to = (page.hasPrefix("Chapters/") ? "../../docs/" : page.hasPrefix("docs/") ? "" : "docs/") + sources
            Issue.record("\(page) names document \(number) without a link: write [\(number)](\(to)#\(number))")
        }
    }

    // MARK: - The checks, tested on their own

    @Test func aSymbolIsFoundOnlyWhereItIsDeclared() {
        let source = """
            open class Producer<Element>: Observable<Element> {
                open override func subscribe<O>(_ observer: O) -> Disposable { run(observer) }
                func `catch`() {}
                init(counter: Int) {}
                let source: Int
            }
            extension ObservableType { public func map() {} }
            """
        #expect(SwiftSource.problem(with: "Producer", in: source) == nil)
        #expect(SwiftSource.problem(with: "Producer.subscribe", in: source) == nil)
        #expect(SwiftSource.problem(with: "Producer.init", in: source) == nil)
        #expect(SwiftSource.problem(with: "catch", in: source) == nil)
        #expect(SwiftSource.problem(with: "ObservableType.map", in: source) == nil)
        #expect(SwiftSource.problem(with: "source", in: source) == nil)
        // `run` is called here, not declared: a citation of it would be stale.
        #expect(SwiftSource.problem(with: "Producer.run", in: source) != nil)
        #expect(SwiftSource.problem(with: "Sink", in: source) != nil)
        #expect(SwiftSource.problem(with: "two words", in: source) != nil)
    }

    @Test func citationsAreReadFromTheProse() {
        let text = Markdown.prose(
            of: """
                - `Sources/RxCore/Core/Producer.swift` (`Producer.subscribe`, `run`), `Sources/RxCore/Core/Sink.swift`
                  (`Sink.forwardOn`: step9) and `docs/sources.md`
                ```swift
                // `Sources/Nowhere.swift` (`Ignored`)
                ```
                """)
        let citations = Markdown.citations(in: text)
        #expect(
            citations.map(\.path) == [
                "Sources/RxCore/Core/Producer.swift", "Sources/RxCore/Core/Sink.swift", "docs/sources.md",
            ])
        #expect(citations.map(\.symbols) == [["Producer.subscribe", "run"], ["Sink.forwardOn"], []])
    }

    @Test func anchorsAreIdsAndHeadings() {
        let anchors = Markdown.anchors(in: "<a id=\"003\"></a>\n## 003 — a GitBook in seven parts\n# Glossary · 术语表\n")
        #expect(anchors.contains("003"))
        #expect(anchors.contains("003--a-gitbook-in-seven-parts"))
        #expect(anchors.contains("glossary--术语表"))
    }

    static func rooted(_ path: String) -> Bool {
        ["Sources/", "Tests/", "Chapters/", "docs/", "Benchmarks/", "Examples/"].contains { path.hasPrefix($0) }
    }

    /// `Chapters/02-X/../../docs/sources.md` → `docs/sources.md`.
    static func normalize(_ path: String) -> String {
        var parts: [String] = []
        for part in path.split(separator: "/") {
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
            } else if part != "." {
                parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}

/// Just enough Markdown for the citation rules.
enum Markdown {
    struct Link: Equatable {
        var text: String
        var target: String
    }

    struct Citation {
        var path: String
        var symbols: [String]
    }

    /// The text outside fenced code blocks.
    static func prose(of text: String) -> String {
        var kept: [Substring] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if !fenced { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    /// `[text](target)` and `![text](target)`: the text, then the target.
    static let link = try! NSRegularExpression(pattern: #"!?\[([^\]]*)\]\(([^)\s]+)\)"#)
    /// A code span, which may run over one line break (not over a blank line): its content.
    static let codeSpan = try! NSRegularExpression(pattern: #"`((?:[^`\n]|\n(?!\n))+)`"#)

    static func links(in text: String) -> [Link] {
        link.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            Link(
                text: String(text[Range(match.range(at: 1), in: text)!]),
                target: String(text[Range(match.range(at: 2), in: text)!]))
        }
    }

    /// Code spans that hold a path (a `/` and no spaces), each with the backticked names in the
    /// parentheses that follow it, if any.
    static func citations(in text: String) -> [Citation] {
        let chars = Array(text)
        var citations: [Citation] = []
        var i = 0
        while i < chars.count {
            guard chars[i] == "`", let end = closingBacktick(chars, from: i + 1) else {
                i += 1
                continue
            }
            let span = String(chars[(i + 1)..<end])
            i = end + 1
            guard span.contains("/"), !span.contains(" "), !span.contains("<"), !span.contains("*") else { continue }
            var symbols: [String] = []
            var j = i
            while j < chars.count, chars[j] == " " || chars[j] == "\n" { j += 1 }
            if j < chars.count, chars[j] == "(" {
                var depth = 0
                var k = j
                scan: while k < chars.count {
                    switch chars[k] {
                    case "`":
                        guard let close = closingBacktick(chars, from: k + 1) else { break scan }
                        if depth == 1 { symbols.append(String(chars[(k + 1)..<close])) }
                        k = close
                    case "(": depth += 1
                    case ")":
                        depth -= 1
                        if depth == 0 { break scan }
                    default: break
                    }
                    k += 1
                }
                i = k
            }
            citations.append(Citation(path: span, symbols: symbols))
        }
        return citations
    }

    private static func closingBacktick(_ chars: [Character], from start: Int) -> Int? {
        var k = start
        while k < chars.count {
            if chars[k] == "`" { return k }
            if chars[k] == "\n", k + 1 < chars.count, chars[k + 1] == "\n" { return nil }
            k += 1
        }
        return nil
    }

    /// `id="…"` anchors and GitHub's heading slugs.
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        let ids = try! NSRegularExpression(pattern: #"id="([^"]+)""#)
        for match in ids.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            anchors.insert(String(text[Range(match.range(at: 1), in: text)!]))
        }
        for line in prose(of: text).split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = title.lowercased().compactMap { character -> String? in
                if character == " " { return "-" }
                if character == "-" || character == "_" { return String(character) }
                return character.isLetter || character.isNumber ? String(character) : nil
            }
            anchors.insert(slug.joined())
        }
        return anchors
    }
}

/// Just enough Swift for the citation rules: is a name declared in a file?
enum SwiftSource {
    /// Nil when `symbol` (`Type`, `member` or `Type.member`) is declared in `source`; otherwise
    /// what is missing.
    static func problem(with symbol: String, in source: String) -> String? {
        let name = symbol.split(separator: "(", maxSplits: 1).first.map(String.init) ?? symbol
        let parts = name.split(separator: ".").map(String.init)
        let identifier = #"^[A-Za-z_][A-Za-z0-9_]*$"#
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ $0.range(of: identifier, options: .regularExpression) != nil })
        else { return "`\(symbol)` is not a symbol (write `Type`, `member` or `Type.member`)" }
        if parts.count == 2 {
            if !declaresType(parts[0], in: source) { return "that file declares no type `\(parts[0])`" }
            if !declaresMember(parts[1], in: source) { return "that file declares no `\(parts[1])`" }
            return nil
        }
        if declaresType(parts[0], in: source) || declaresMember(parts[0], in: source) { return nil }
        return "that file declares no `\(parts[0])`"
    }

    static func declaresType(_ name: String, in source: String) -> Bool {
        matches(#"\b(class|struct|enum|protocol|extension|actor|typealias)\s+\#(name)\b"#, source)
    }

    static func declaresMember(_ name: String, in source: String) -> Bool {
        if name == "init" { return matches(#"\binit[?!]?\s*[(<]"#, source) }
        return matches(
            #"\b(func|var|let|case|typealias|associatedtype|class|struct|enum|protocol)\s+`?\#(name)`?\b"#, source)
    }

    private static func matches(_ pattern: String, _ source: String) -> Bool {
        source.range(of: pattern, options: .regularExpression) != nil
    }
}
