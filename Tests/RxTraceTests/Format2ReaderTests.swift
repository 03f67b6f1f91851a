import Foundation
import RxTrace
import Testing

/// `rxtrace/2` reading, on hand-written files (docs/trace-format.md's records).
@Suite final class Format2ReaderTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("format2-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A complete little trace: a producer, its sink and observer, a disposer; records out of
    /// `seq` order (two threads' chunks), a lifecycle record before its node's record.
    static let complete = """
        {"format":"rxtrace/2","meta":{"program":"fixture","started":"2026-11-25T16:00:00Z"}}
        ["$",0,"producer"]
        ["$",1,"AnonymousObservable"]
        ["$",2,"main.swift:1"]
        ["$",3,"App/main.swift"]
        ["$",4,"main"]
        ["n",1,0,1,2,3,1,4]
        ["n",2,"observer","AnonymousObserver",2,3,2,4]
        ["$",5,"subscribe"]
        ["c",3,0,1,5,"subscribe(2)",4]
        ["x",3,19]
        ["n",3,"disposable","SinkDisposer",null,null,3]
        ["e",1,2,"subscribes"]
        ["e",3,2,"owns"]
        ["c",5,1,2,"on","next(\\"mojito\\") \\u00e9 \\ud83c\\udf79","worker 1"]
        ["v",4,2,"next","mojito",0.000134,0,4]
        ["v",6,2,"completed",null,1.5e-3,1]
        ["t",2,6]
        ["d",3,15]
        ["a",2,"eventAfterTermination",7,"next after completed"]
        ["r",8,3,{"AnonymousObserver":1,"SinkDisposer":2}]
        ["drop",{"steps":2,"events":1,"resources":0,"nodes":0,"bytes":120,"reason":"ring"}]
        ["drop",{"steps":1,"events":0}]
        ["end",{"reason":"exit","seq":20}]

        """

    static func data(_ text: String) -> Data { Data(text.utf8) }

    @Test func readsEveryRecordKind() throws {
        let document = try TraceDocument.decode(Self.data(Self.complete))
        #expect(document.meta == ["program": "fixture", "started": "2026-11-25T16:00:00Z"])
        #expect(document.nodes.map(\.id) == [1, 2, 3])
        #expect(
            document.nodes[0]
                == TraceNode(
                    id: 1, kind: .producer, type: "AnonymousObservable", callSite: "main.swift:1",
                    fileID: "App/main.swift", created: 1, thread: "main"))
        #expect(document.nodes[1].terminated == 6)
        #expect(
            document.nodes[1].anomalies == [
                TraceAnomalyRecord(kind: .eventAfterTermination, seq: 7, detail: "next after completed")
            ])
        #expect(document.nodes[2].callSite == nil && document.nodes[2].thread == nil)
        #expect(document.nodes[2].disposed == 15 && document.nodes[2].deinitialized == 19)
        #expect(
            document.edges == [
                TraceEdge(from: 1, to: 2, relation: .subscribes), TraceEdge(from: 3, to: 2, relation: .owns),
            ])
        #expect(document.steps.map(\.seq) == [3, 5])
        #expect(document.steps[1].detail == "next(\"mojito\") é 🍹")
        #expect(document.steps[1].thread == "worker 1")
        #expect(document.events.map(\.seq) == [4, 6])
        #expect(
            document.events[0]
                == TraceEvent(seq: 4, node: 2, kind: .next, value: "mojito", time: 0.000134, thread: "main"))
        #expect(document.events[1].value == nil && document.events[1].time == 0.0015 && document.events[1].virtualTime)
        #expect(
            document.resources == [
                ResourceSample(seq: 8, total: 3, byType: ["AnonymousObserver": 1, "SinkDisposer": 2])
            ])
        #expect(document.dropped == DroppedCounts(steps: 3, events: 1, resources: 0))
    }

    @Test func statusOfACompleteFile() throws {
        var kinds: [String] = []
        let status = try TraceRecordReader.read(Self.data(Self.complete)) { record in
            kinds.append("\(record)".prefix { $0 != "(" }.description)
        }
        #expect(!status.cutShort)
        #expect(status.endReason == "exit")
        #expect(status.lastSeq == 20)
        #expect(status.lines == 24)
        #expect(status.dropped == TraceDrop(steps: 3, events: 1, bytes: 120, reason: "ring"))
        #expect(kinds.filter { $0 == "node" }.count == 3)
        #expect(kinds.last == "end")
    }

    @Test func noEndRecordIsCutShort() throws {
        let text = Self.complete.components(separatedBy: "\n").filter { !$0.hasPrefix("[\"end\"") }.joined(
            separator: "\n")
        let url = try temporaryFile(text)
        let (document, status) = try TraceDocument.readWithStatus(from: url)
        #expect(status.cutShort && !status.incompleteLastLine)
        #expect(status.lastSeq == 19)
        #expect(document.meta["cut"] == "seq 19")
        #expect(document.nodes.count == 3)
    }

    @Test func incompleteLastLineIsIgnored() throws {
        let cut = Self.complete.components(separatedBy: "[\"r\",")[0] + "[\"r\",8,3,{\"Anony"
        let url = try temporaryFile(cut)
        let (document, status) = try TraceDocument.readWithStatus(from: url)
        #expect(status.cutShort && status.incompleteLastLine)
        #expect(document.resources.isEmpty)
        #expect(document.nodes[1].anomalies.count == 1)
        #expect(document.meta["cut"] == "seq 19")
    }

    @Test func cutShortFileToleratesNodesNeverWritten() throws {
        // Another thread's chunk, holding node 9, was never written.
        let text = """
            {"format":"rxtrace/2","meta":{}}
            ["n",1,"sink","MapSink",null,null,1]
            ["e",9,1,"forward"]
            ["v",2,9,"next","1",0.1,0]
            ["d",9,3]

            """
        let (document, status) = try TraceDocument.readWithStatus(from: try temporaryFile(text))
        #expect(status.cutShort)
        #expect(document.edges.isEmpty && document.events.isEmpty)
        #expect(document.meta["dangling"] == "3")
        // The same file ended cleanly names a missing node: invalid.
        #expect(throws: TraceFileError.self) {
            try TraceDocument.decode(Self.data(text + "[\"end\",{\"reason\":\"exit\",\"seq\":3}]\n"))
        }
    }

    @Test func malformedLineInTheMiddleNamesItsLine() throws {
        var lines = Self.complete.components(separatedBy: "\n")
        lines[9] = "[\"c\",3,0,1,5,\"subscribe(2)\"" // line 10, cut inside
        let url = try temporaryFile(lines.joined(separator: "\n"))
        do {
            _ = try TraceDocument.read(from: url)
            Issue.record("read a malformed file")
        } catch {
            #expect(
                error == .malformed(path: url.path, line: 10, reason: "expected ',' or ']', found the end of the line"))
            #expect(
                error.description == "\(url.path):10: malformed record: expected ',' or ']', found the end of the line")
        }
    }

    @Test(arguments: [
        ("[\"n\",1,\"sink\",7,null,null,1]", "string 7 is used before it is defined"),
        ("[\"n\",1,\"nonsense\",\"T\",null,null,1]", "unknown node kind \"nonsense\""),
        ("[\"c\",-1,0,1,\"on\"]", "expected a non-negative integer, found '-'"),
        ("[\"v\",1,1,\"next\",null,1.5.5,0]", "malformed number"),
        ("[\"v\",1,1,\"next\",null,0.5,2]", "virtual must be 0 or 1"),
        ("[\"c\",99999999999999999999,0,1,\"on\"]", "number too large"),
        ("[\"$\",1,\"a\u{01}\"]", "control character in a string"),
        ("{\"n\":1}", "expected '[', found '{'"),
        ("[1,2]", "a record must start with its tag string, found '1'"),
        ("[\"d\",1]", "a field is missing"),
        ("[\"$\",99999999,\"x\"]", "interned string id 99999999 is too large"),
    ])
    func malformedRecords(line: String, reason: String) throws {
        let text = "{\"format\":\"rxtrace/2\",\"meta\":{}}\n\(line)\n[\"end\",{\"reason\":\"exit\",\"seq\":0}]\n"
        #expect(throws: TraceFileError.malformed(path: "<data>", line: 2, reason: reason)) {
            try TraceDocument.decode(Self.data(text))
        }
    }

    @Test func unknownTagsAndTrailingFieldsAreSkipped() throws {
        let text = """
            {"format":"rxtrace/2","meta":{"a":"b"},"future":[1,{"x":null}]}
            ["zz",1,2,{"anything":[true,false]}]
            ["$\\u0041",1]
            ["n",1,"sink","MapSink"]
            ["n", 2, "observer", "AnonymousObserver", null, null, 3, null, "a field of a later version"]
            [ "v" , 4 , 2 , "next" ]
            ["end",{"reason":"SIGINT","seq":4,"more":"x"}]

            """
        let (document, status) = try TraceDocument.readWithStatus(from: try temporaryFile(text))
        #expect(!status.cutShort && status.endReason == "SIGINT")
        #expect(document.nodes.map(\.type) == ["MapSink", "AnonymousObserver"])
        #expect(document.nodes[0].created == 0 && document.nodes[1].created == 3)
        #expect(document.events == [TraceEvent(seq: 4, node: 2, kind: .next, value: nil, time: 0)])
    }

    /// Nodes out of id order (several writer threads' chunks) are put in order in place, ids far
    /// above the count among them (kept by the builder's index apart from the array by id, and
    /// one may be below ids the array reached later); records after `document` still find their
    /// nodes.
    @Test func builderPutsNodesInIDOrder() throws {
        var builder = TraceDocumentBuilder()
        var ids: [UInt64] = [70_000]
        ids += (1...20_000).reversed()
        ids += [80_000, 5_000_000_000]
        for id in ids { try builder.add(.node(TraceNode(id: id, kind: .disposable, type: "D"))) }
        try builder.add(.disposed(node: 70_000, seq: 7))
        var status = TraceReadStatus(format: TraceRecordReader.formatName)
        status.endReason = "exit"
        let document = try builder.document(status)
        #expect(document.nodes.map(\.id) == ids.sorted())
        #expect(document.nodes.first { $0.id == 70_000 }?.disposed == 7)
        try builder.add(.disposed(node: 80_000, seq: 9))
        try builder.add(.deinitialized(node: 1, seq: 10))
        let later = try builder.document(status)
        #expect(later.nodes.map(\.id) == ids.sorted())
        #expect(later.nodes.first { $0.id == 80_000 }?.disposed == 9)
        #expect(later.nodes[0].deinitialized == 10)
        #expect(document.nodes[0].deinitialized == nil)
    }

    @Test func chunkBoundariesDoNotMatter() throws {
        let url = try temporaryFile(Self.complete)
        let whole = try TraceDocument.decode(Self.data(Self.complete))
        for chunk in [1, 7, 64, 100] {
            var builder = TraceDocumentBuilder()
            var reports: [Int] = []
            let status = try TraceRecordReader.read(
                from: url, progress: { read, _ in reports.append(read) }, chunkSize: chunk
            ) {
                (record) throws(TraceFileError) in try builder.add(record)
            }
            #expect(try builder.document(status) == whole, "chunk \(chunk)")
            #expect(reports.last == Self.complete.utf8.count)
        }
    }

    @Test func emptyHeaderOnlyAndForeignFiles() throws {
        #expect(throws: TraceFileError.empty(path: "<data>")) { try TraceDocument.decode(Self.data("\n\n")) }
        let headerOnly = try TraceDocument.readWithStatus(
            from: try temporaryFile("{\"format\":\"rxtrace/2\",\"meta\":{}}\n"))
        #expect(headerOnly.status.cutShort && headerOnly.document.nodes.isEmpty)
        #expect(throws: TraceFileError.self) { try TraceDocument.decode(Self.data("{\"format\":\"rxtrace/2\",\"me")) }
        // A v1 document still reads, whatever order its keys are in.
        let v1 = try TraceDocument(nodes: [TraceNode(id: 1, kind: .sink, type: "MapSink")]).jsonData()
        let read = try TraceDocument.readWithStatus(from: try temporaryFile(String(decoding: v1, as: UTF8.self)))
        #expect(read.document.nodes.count == 1 && read.status.format == "rxtrace/1" && !read.status.cutShort)
    }

    func temporaryFile(_ text: String) throws -> URL {
        let url = directory.appendingPathComponent("\(UUID().uuidString).trace")
        try Data(text.utf8).write(to: url)
        return url
    }
}

/// Inputs the fuzzer found (`make fuzz`), kept as regression tests.
@Suite struct Format2FuzzFindingTests {
    /// Found 2026-11-25: a record with text glued after its `]` was read as if the text were not
    /// there; now the line is malformed.
    @Test func textAfterARecordIsMalformed() throws {
        let text = """
            {"format":"rxtrace/2","meta":{}}
            ["n",1,"sink","MapSink",null,null,1]
            ["x",1,173]{"dropped":{"events":0}}
            ["end",{"reason":"exit","seq":173}]

            """
        #expect(throws: TraceFileError.malformed(path: "<data>", line: 3, reason: "unexpected '{' after the value")) {
            try TraceDocument.decode(Data(text.utf8))
        }
        let unclosed = text.replacingOccurrences(of: "[\"x\",1,173]{\"dropped\":{\"events\":0}}", with: "[\"x\",1,173")
        #expect(
            throws: TraceFileError.malformed(
                path: "<data>", line: 3, reason: "expected ',' or ']', found the end of the line")
        ) {
            try TraceDocument.decode(Data(unclosed.utf8))
        }
    }
}
