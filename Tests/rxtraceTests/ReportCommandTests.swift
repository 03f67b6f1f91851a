import Foundation
import RxTrace
import Testing
import TraceFixtures

/// `rxtrace report`: one self-contained page, written like the other outputs.
@Suite(.serialized) struct ReportCommandTests {
    /// The page's data, as its script reads it.
    private func pageData(_ html: String) throws -> [String: Any] {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"trace-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = Data(html[start.upperBound..<end.lowerBound].utf8)
        return try #require(JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    @Test func writesOneSelfContainedPage() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.reference())
        // English whatever the machine's locale (ReportLanguageTests: the locale's choice).
        let result = try CLI.run(["report", trace, "-o", "report.html"], in: scratch.url, environment: ["LC_ALL": "C"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.isEmpty)
        #expect(scratch.files == ["report.html", "trace.json"])
        let html = String(decoding: try scratch.data("report.html"), as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>reference — rxtrace report</title>"))
        // The graph inline, its nodes and edges findable by id.
        #expect(html.contains("<svg"))
        #expect(html.contains("<g id=\"n4\" class=\"node\""))
        #expect(html.contains("<g id=\"n4&#45;forward&#45;n2\" class=\"edge\""))
        // Script, style and data inside; nothing fetched from anywhere.
        #expect(html.contains("window.rxtraceReport"))
        #expect(html.contains("--leak-fill"))
        #expect(!html.contains("<!--rxtrace:"))
        for outside in ["<script src", "<link rel=\"stylesheet\"", "@import", "url(", "<img", "<iframe"] {
            #expect(!html.contains(outside), "the page loads something: \(outside)")
        }
        let namespaces = ["http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"]
        var rest = html[...]
        while let found = rest.range(of: "http") {
            #expect(
                namespaces.contains { rest[found.lowerBound...].hasPrefix($0) },
                "the page names an address: \(rest[found.lowerBound...].prefix(40))")
            rest = rest[found.upperBound...]
        }
        let data = try pageData(html)
        #expect(data["title"] as? String == "reference")
        let steps = try #require(data["steps"] as? [String: Any])
        #expect((steps["seq"] as? [Int])?.count == Fixtures.reference().steps.count)
    }

    @Test func thePageGoesToStdoutWithoutAnOutputFile() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.mapSubject())
        let result = try CLI.run(["report", trace], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.out.hasPrefix("<!DOCTYPE html>"))
        #expect(result.out.hasSuffix("</html>\n"))
        #expect(scratch.files == ["trace.json"])
        // The same trace gives the same page.
        #expect(try CLI.run(["report", trace], in: scratch.url).stdout == result.stdout)
    }

    @Test func repeatedInnerSubscriptionsCollapseUnlessExpanded() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.flatMapJust(count: 30))
        let collapsed = try CLI.run(["report", trace], in: scratch.url)
        #expect(collapsed.status == 0)
        #expect(collapsed.out.contains("×30"))
        let expanded = try CLI.run(["report", trace, "--expand"], in: scratch.url)
        #expect(expanded.status == 0)
        #expect(!expanded.out.contains("×30"))
        #expect(expanded.out.contains("<g id=\"n120\" class=\"node\""))
    }

    @Test func aGraphTooLargeToDrawStillGivesAPage() throws {
        let scratch = try Scratch()
        let trace = try scratch.write(Fixtures.manyChains(count: 1_200), "large.json")
        let result = try CLI.run(["report", trace, "-o", "large.html"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("rxtrace: note: the report has no graph: graph view: 6000 nodes"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        let html = String(decoding: try scratch.data("large.html"), as: UTF8.self)
        #expect(html.contains("<p class=\"note\">No graph: graph view: 6000 nodes"))
        #expect((try pageData(html)["nodes"] as? [String: Any])?["id"].map { ($0 as? [Int])?.count } == 6_000)
    }
}
