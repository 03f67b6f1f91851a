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

    /// The top README, every chapter's README, the page of the sources and the one of
    /// distributed tracing.
    static var pairs: [Pair] {
        let chapters = CitationTests.pages.filter { $0.hasPrefix("Chapters/") && $0.hasSuffix("/README.md") }
        return ([("README.md")] + chapters + ["docs/sources.md", "docs/distributed-tracing.md"]).map {
            Pair(english: $0, chinese: String($0.dropLast(3)) + ".zh.md")
        }
    }

    @Test func everyEnglishPageHasAChineseOne() {
        #expect(Self.pairs.count == ChapterTranscriptTests.chapterNumbers.count + 3)
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
        let english = Facts(of: try CitationTests.read(pair.english))
        let chinese = Facts(of: try CitationTests.read(pair.chinese))
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

        init(of page: String) {
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
                if ["README.md", "sources.md"].contains(target) { continue }
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
