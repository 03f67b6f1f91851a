import Foundation
import Testing

/// The Chinese edition says everything the English pages say. A translation is free in its
/// words, not in its facts: every code span (a command, an identifier, a printed line), every
/// link and every number of `README.md` appears in `README.zh.md` too, so that a fact added to
/// one language and not the other fails here, naming what is missing.
@Suite struct ChineseEditionTests {
    struct Pair: CustomTestStringConvertible, Sendable {
        var english: String
        var chinese: String
        var testDescription: String { chinese }
    }

    /// The documents a learner opens besides the chapters, each with a Chinese edition `X.zh.md`.
    static let documents = [
        "docs/sources.md", "docs/chapters.md", "docs/glossary.md", "docs/rxtrace.md", "docs/schedulers.md",
        "docs/debug.md", "docs/compatibility.md", "docs/distributed-tracing.md", "docs/architecture.md",
        "docs/reliability.md", "docs/trace-format.md", "docs/performance.md",
    ]

    /// Reference documents that stay English only. A Chinese page may link one, marked `（英文）`
    /// after the link so that its reader knows. None today: every document has a Chinese edition.
    static let englishOnly: Set<String> = []

    /// The top README, every chapter's README, and the documents.
    static var pairs: [Pair] {
        let chapters = CitationTests.pages.filter { $0.hasPrefix("Chapters/") && $0.hasSuffix("/README.md") }
        return ([("README.md")] + chapters + documents).map {
            Pair(english: $0, chinese: String($0.dropLast(3)) + ".zh.md")
        }
    }

    /// Every Chinese page: the top README's, the chapters' and the documents'.
    static var chinesePages: [String] { pairs.map(\.chinese) }

    @Test func everyEnglishPageHasAChineseOne() {
        #expect(Self.pairs.count == ChapterTranscriptTests.chapterNumbers.count + 1 + Self.documents.count)
        for pair in Self.pairs {
            #expect(CitationTests.exists(pair.chinese), "\(pair.english) has no Chinese edition \(pair.chinese)")
        }
    }

    @Test(arguments: pairs)
    func thePagesLinkToEachOther(_ pair: Pair) throws {
        let englishName = (pair.english as NSString).lastPathComponent
        let chineseName = (pair.chinese as NSString).lastPathComponent
        #expect(
            Markdown.links(in: try CitationTests.read(pair.english)).contains { $0.target == chineseName },
            "\(pair.english) does not link to \(chineseName)")
        #expect(
            Markdown.links(in: try CitationTests.read(pair.chinese)).contains { $0.target == englishName },
            "\(pair.chinese) does not link to \(englishName)")
    }

    @Test(arguments: pairs)
    func theChinesePageSaysEverythingTheEnglishOneSays(_ pair: Pair) throws {
        let own = (pair.english as NSString).lastPathComponent
        let english = Facts(of: try CitationTests.read(pair.english), edition: own)
        let chinese = Facts(of: try CitationTests.read(pair.chinese), edition: own)
        for span in english.codeSpans.subtracting(chinese.codeSpans).sorted() {
            Issue.record("\(pair.chinese) lacks `\(span)`, which \(pair.english) has")
        }
        for link in english.links.subtracting(chinese.links).sorted() {
            Issue.record("\(pair.chinese) lacks the link to \(link), which \(pair.english) has")
        }
        for number in english.numbers.subtracting(chinese.numbers).sorted() {
            Issue.record("\(pair.chinese) never says \(number), which \(pair.english) says")
        }
    }

    /// A Chinese reader who follows a link lands on a Chinese page: every document a Chinese page
    /// links is a Chinese edition (`X.zh.md`), or the page's own English edition (the link between
    /// the two), or one of the English-only reference documents, marked `（英文）` right after the
    /// link. A link to an English page that has a Chinese edition is always wrong.
    @Test(arguments: chinesePages)
    func everyDocumentLinkedFromAChinesePageIsChinese(_ page: String) throws {
        for problem in Self.englishLinks(in: try CitationTests.read(page), of: page) {
            Issue.record("\(page): \(problem)")
        }
    }

    /// What is wrong with the links of the Chinese page `page` (text `text`), one line each;
    /// `englishOnly`: the English-only documents it may link.
    static func englishLinks(
        in text: String, of page: String, englishOnly: Set<String> = englishOnly
    ) -> [String] {
        let prose = Markdown.prose(of: text)
        let folder = (page as NSString).deletingLastPathComponent
        let ownEnglish = String(page.dropLast(".zh.md".count)) + ".md"
        var problems: [String] = []
        for match in Markdown.link.matches(in: prose, range: NSRange(prose.startIndex..., in: prose)) {
            let target = String(prose[Range(match.range(at: 2), in: prose)!])
            if target.contains("://") || target.hasPrefix("mailto:") { continue }
            let file = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
            guard file.hasSuffix(".md") else { continue }
            let path = CitationTests.normalize((folder as NSString).appendingPathComponent(file))
            if path.hasSuffix(".zh.md") || path == ownEnglish { continue }
            let chinese = String(path.dropLast(3)) + ".zh.md"
            if CitationTests.exists(chinese) {
                problems.append(
                    "links \(file), which has a Chinese edition: link \((chinese as NSString).lastPathComponent)")
            } else if !englishOnly.contains(path) {
                problems.append("links \(file), an English page with no Chinese edition")
            } else {
                let after = prose[Range(match.range, in: prose)!.upperBound...].prefix(4)
                if !after.hasPrefix("（英文）") {
                    problems.append("links \(file), which is English only: mark it （英文） right after the link")
                }
            }
        }
        return problems
    }

    @Test func englishLinksAreFound() {
        let page = "Chapters/01-WhyRx/README.zh.md"
        let text = """
            [English](README.md) [下一章](../02-AnatomyOfASubscription/README.zh.md) [调度器](../../docs/schedulers.zh.md)
            [数字](../../docs/notes.md#figures)（英文） [笔记](../../docs/notes.md) [性能](../../docs/performance.md)
            [术语](../../docs/glossary.md) [草稿](../../docs/draft.md)
            [第 02 章](../02-AnatomyOfASubscription/README.md) [代码](../../Sources/RxCore/Core/Sink.swift)
            ```
            [ignored](../../docs/glossary.md)
            ```
            """
        #expect(
            Self.englishLinks(in: text, of: page, englishOnly: ["docs/notes.md"]) == [
                "links ../../docs/notes.md, which is English only: mark it （英文） right after the link",
                "links ../../docs/performance.md, which has a Chinese edition: link performance.zh.md",
                "links ../../docs/glossary.md, which has a Chinese edition: link glossary.zh.md",
                "links ../../docs/draft.md, an English page with no Chinese edition",
                "links ../02-AnatomyOfASubscription/README.md, which has a Chinese edition: link README.zh.md",
            ])
    }

    @Test func factsAreCodeSpansLinksAndNumbers() {
        let facts = Facts(
            of: """
                [中文](README.zh.md) `make chapter
                N=02` runs it in 0.3 s, see [sources](../../docs/sources.zh.md#003), step1 and 1,000,000.
                ```
                ignored 42
                ```
                """)
        #expect(facts.codeSpans == ["make chapter N=02"])
        #expect(facts.links == ["../../docs/sources.md#003"])
        #expect(facts.numbers == ["0.3", "1,000,000"])
    }

    /// What a page states, in a form both languages share: code spans with their whitespace
    /// collapsed, link targets with `.zh.md` read as `.md` (each language links its own edition)
    /// leaving out the link between the two editions, and the numbers of the prose.
    struct Facts {
        var codeSpans: Set<String> = []
        var links: Set<String> = []
        var numbers: Set<String> = []

        /// `edition`: the page's English file name (`README.md`), whose link between the two
        /// editions is left out.
        init(of page: String, edition: String = "README.md") {
            var text = Markdown.prose(of: page)
            let span = Markdown.codeSpan
            for match in span.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let content = String(text[Range(match.range(at: 1), in: text)!])
                codeSpans.insert(content.split(whereSeparator: \.isWhitespace).joined(separator: " "))
            }
            text = span.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: " ")
            for link in Markdown.links(in: text) {
                let target = link.target.replacingOccurrences(of: ".zh.md", with: ".md")
                if target == edition { continue }
                links.insert(target)
            }
            text = Markdown.link.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: " ")
            let number = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])\d+(?:[.,]\d+)*"#)
            for match in number.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                numbers.insert(String(text[Range(match.range, in: text)!]))
            }
        }
    }
}
