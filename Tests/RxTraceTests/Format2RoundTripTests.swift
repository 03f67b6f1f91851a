import Foundation
import RxTrace
import Testing

/// Real chapter traces (the fuzzer's seeds `ch*.json`, `rxtrace/1`) written as `rxtrace/2` and read back.
@Suite struct Format2RoundTripTests {
    static let seeds: [URL] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = root.appendingPathComponent("Fuzz/Seeds")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("ch") && $0.hasSuffix(".json") }.sorted().map {
            directory.appendingPathComponent($0)
        }
    }()

    @Test func everyChapterTraceReadsBackTheSame() throws {
        #expect(Self.seeds.count >= 8)
        for url in Self.seeds {
            let v1 = try TraceDocument.read(from: url)
            let v2 = v1.jsonLinesData()
            let back = try TraceDocument.decode(v2, path: url.lastPathComponent)
            #expect(back == v1, "\(url.lastPathComponent)")
            #expect(TraceSummary(back).description == TraceSummary(v1).description)
            #expect(TraceLeakReport(back) == TraceLeakReport(v1))
            #expect(Trace.subscriptions(in: back) == Trace.subscriptions(in: v1))
        }
    }

    /// Cut anywhere, a v2 file reads as what it holds up to the cut (or, cut inside the header
    /// line, is refused in one line); it never traps.
    @Test func cutAtAnyByteReadsOrFailsCleanly() throws {
        let url = try #require(Self.seeds.first { $0.lastPathComponent.hasPrefix("ch06") })
        let document = try TraceDocument.read(from: url)
        let data = document.jsonLinesData()
        let headerEnd = try #require(data.firstIndex(of: 0x0A))
        var readable = 0
        for cut in stride(from: 1, to: data.count, by: 7) {
            do {
                var builder = TraceDocumentBuilder()
                let status = try TraceRecordReader.read(data.prefix(cut)) { (record) throws(TraceFileError) in
                    try builder.add(record)
                }
                let part = try builder.document(status)
                #expect(status.cutShort)
                #expect(part.meta["cut"] == "seq \(status.lastSeq)")
                #expect(part.nodes.count <= document.nodes.count)
                #expect(part.steps.allSatisfy { document.steps.contains($0) })
                readable += 1
            } catch {
                #expect(cut <= headerEnd, "cut at \(cut): \(error)")
            }
        }
        #expect(readable > data.count / 8)
    }
}
