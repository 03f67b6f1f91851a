import Foundation
import Testing

/// Every chapter's README shows pictures its own run draws: SVG files under
/// `docs/images/NN-Topic/`, committed so that a reader sees them without building anything, and
/// written by `make diagrams` (which runs `chapterNN --diagrams DIR` and copies the files the
/// README shows). These tests hold the committed pictures to what the chapter draws today: each
/// chapter runs again with `--diagrams` and every picture its README shows is compared with the
/// file just drawn.
///
/// The comparison leaves out what depends on the fonts of the machine that drew it: Graphviz
/// measures each label with the fonts installed, so coordinates and sizes differ from one machine
/// to another while the picture says the same. What is compared is everything else, in order:
/// every element, every label, every colour and shape. A node, edge, event or label that changed
/// fails the test.
@Suite struct ChapterDiagramTests {
    static let root = ChapterTranscriptTests.packageRoot

    /// `Chapters/02-AnatomyOfASubscription` for `02`.
    static func folder(_ number: String) throws -> String {
        try ExerciseTests.folder(number)
    }

    /// The pictures a page shows from `docs/images/<chapter folder>/`, as repository paths.
    static func pictures(in page: String, folder: String) -> Set<String> {
        let name = (folder as NSString).lastPathComponent
        let base = (page as NSString).deletingLastPathComponent
        var found: Set<String> = []
        for link in Markdown.links(in: Markdown.prose(of: (try? CitationTests.read(page)) ?? "")) {
            let path = CitationTests.normalize((base as NSString).appendingPathComponent(link.target))
            if path.hasPrefix("docs/images/\(name)/") { found.insert(path) }
        }
        return found
    }

    /// An SVG with the measurements taken out: comments (Graphviz's version line), and the values
    /// of the attributes that place and size things.
    static func withoutMeasurements(_ svg: String) -> String {
        var text = svg.replacingOccurrences(of: #"<!--[\s\S]*?-->"#, with: "", options: .regularExpression)
        let geometry = #"\b(x|y|cx|cy|rx|ry|x1|y1|x2|y2|dx|dy|width|height|points|d|transform|viewBox)="[^"]*""#
        text = text.replacingOccurrences(of: geometry, with: "$1=\"…\"", options: .regularExpression)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return Self.clustersInNameOrder(lines).joined(separator: "\n")
    }

    /// The cluster groups (`<g id="clustN" class="cluster">` … `</g>`) sorted by what they hold,
    /// their `clustN` numbers left out. libgvc writes clusters in the order of its subgraph
    /// dictionary, which orders named subgraphs by the address of their interned names: from one
    /// run to the next the same DOT comes out with its clusters in another order (chapter 21's
    /// graph did, one run in two). Which clusters there are and what each holds is still compared.
    static func clustersInNameOrder(_ lines: [String]) -> [String] {
        var result: [String] = []
        var clusters: [String] = []
        var firstCluster: Int?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("<g id=\"clust"), line.contains("class=\"cluster\"") else {
                result.append(line)
                index += 1
                continue
            }
            var block = ["<g class=\"cluster\">"]
            index += 1
            while index < lines.count && lines[index] != "</g>" {
                block.append(lines[index])
                index += 1
            }
            block.append("</g>")
            index += 1
            if firstCluster == nil { firstCluster = result.count }
            clusters.append(block.joined(separator: "\n"))
        }
        if let firstCluster { result.insert(contentsOf: clusters.sorted(), at: firstCluster) }
        return result
    }

    @Test(arguments: ChapterTranscriptTests.chapterNumbers)
    func everyReadmeShowsItsChaptersPictures(_ number: String) throws {
        let folder = try Self.folder(number)
        let name = (folder as NSString).lastPathComponent
        let english = Self.pictures(in: "\(folder)/README.md", folder: folder)
        let chinese = Self.pictures(in: "\(folder)/README.zh.md", folder: folder)
        #expect(!english.isEmpty, "\(folder)/README.md shows no picture from docs/images/\(name)/")
        #expect(chinese == english, "README.zh.md shows \(chinese.sorted()), README.md \(english.sorted())")
        for picture in english {
            #expect(picture.hasSuffix(".svg"), "\(picture): the chapters' pictures are SVG, drawn by make diagrams")
            #expect(CitationTests.exists(picture), "\(picture) is not committed: run make diagrams")
        }
        // Nothing in the chapter's folder that no page shows.
        let committed =
            (try? FileManager.default.contentsOfDirectory(
                atPath: Self.root.appendingPathComponent("docs/images/\(name)").path)) ?? []
        for file in committed where !english.contains("docs/images/\(name)/\(file)") {
            Issue.record("docs/images/\(name)/\(file) is shown by no page: remove it, or show it in the README")
        }
    }

    @Test(arguments: ChapterTranscriptTests.chapterNumbers)
    func picturesAreWhatTheChapterDrawsToday(_ number: String) throws {
        let folder = try Self.folder(number)
        let pictures = Self.pictures(in: "\(folder)/README.md", folder: folder)
        try #require(!pictures.isEmpty)
        let executable = ChapterTranscriptTests.productsDirectory.appendingPathComponent("chapter\(number)")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "chapter\(number) is not built")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chapter\(number)-pictures-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ChapterTranscriptTests.run(executable, arguments: ["--diagrams", directory.path])
        #expect(run.status == 0, "chapter\(number) --diagrams ended with \(run.ending): \(run.stderr)")
        for picture in pictures.sorted() {
            let file = (picture as NSString).lastPathComponent
            guard let today = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) else {
                Issue.record("chapter\(number) no longer draws \(file), which \(picture) shows")
                continue
            }
            let committed = try CitationTests.read(picture)
            let (a, b) = (Self.withoutMeasurements(committed), Self.withoutMeasurements(today))
            if a != b {
                let old = a.split(separator: "\n"), new = b.split(separator: "\n")
                let first = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
                Issue.record(
                    """
                    \(picture) is not what chapter\(number) draws today (run make diagrams); first difference:
                      committed: \(first < old.count ? String(old[first]) : "<end>")
                      today:     \(first < new.count ? String(new[first]) : "<end>")
                    """)
            }
        }
    }

    @Test func measurementsAreLeftOut() {
        let a =
            ##"<!-- Generated by graphviz version 2.42.2 -->"## + "\n"
            + ##"<svg width="120pt" height="44pt" viewBox="0 0 120 44"><g id="node1"><title>n1</title>"##
            + ##"<polygon fill="#e8f0fe" points="1,2 3,4"/><text x="10.5" y="20">MapSink</text></g></svg>"##
        let b =
            ##"<svg width="131pt" height="44pt" viewBox="0 0 131 44"><g id="node1"><title>n1</title>"##
            + ##"<polygon fill="#e8f0fe" points="1,2 5,4"/><text x="11.25" y="20">MapSink</text></g></svg>"##
        #expect(Self.withoutMeasurements(a) == Self.withoutMeasurements(b))
        let c = b.replacingOccurrences(of: ">MapSink<", with: ">FilterSink<")
        #expect(Self.withoutMeasurements(b) != Self.withoutMeasurements(c))
        let d = b.replacingOccurrences(of: "#e8f0fe", with: "#cccccc")
        #expect(Self.withoutMeasurements(b) != Self.withoutMeasurements(d))
    }

    @Test func clustersCompareInAnyOrder() {
        func svg(_ clusters: [(Int, String, String)]) -> String {
            let groups = clusters.map { number, title, label in
                "<g id=\"clust\(number)\" class=\"cluster\">\n<title>\(title)</title>\n"
                    + "<text x=\"1\">\(label)</text>\n</g>"
            }
            return
                (["<svg>", "<g id=\"graph0\" class=\"graph\">"] + groups + [
                    "<g id=\"node1\"><title>n1</title></g>", "</g>", "</svg>",
                ])
                .joined(separator: "\n")
        }
        let drawn = svg([(1, "cluster_s1", "subscription 1"), (2, "cluster_s1_i132", "inner")])
        let again = svg([(1, "cluster_s1_i132", "inner"), (2, "cluster_s1", "subscription 1")])
        #expect(Self.withoutMeasurements(drawn) == Self.withoutMeasurements(again))
        let relabelled = svg([(1, "cluster_s1", "subscription 1"), (2, "cluster_s1_i132", "inner 2")])
        #expect(Self.withoutMeasurements(drawn) != Self.withoutMeasurements(relabelled))
        let missing = svg([(1, "cluster_s1", "subscription 1")])
        #expect(Self.withoutMeasurements(drawn) != Self.withoutMeasurements(missing))
    }
}
