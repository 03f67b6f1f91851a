import Foundation
import RxTrace
import Testing

/// `rxtrace/2` as written: every line parsed on its own by JSONSerialization and put back
/// together into a document here (a decoder written from the format's table, independent of
/// the encoder), which must be the document encoded.
@Suite struct Format2EncoderTests {
    @Test func aRecordedRunRoundTrips() throws {
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<String>()
                let d = subject.map { $0 + "!" }.filter { !$0.isEmpty }.subscribe(onNext: { _ in })
                for value in ["mojito", "mojito", "a\"quote", "tab\there"] { subject.onNext(value) }
                subject.onCompleted()
                d.dispose()
                let e = Observable.of(1, 2, 3).map { $0 * 10 }.subscribe(onNext: { _ in })
                e.dispose()
            }
        }
        #expect(trace.steps.count > 10 && trace.events.count > 10)
        let data = trace.jsonLinesData()
        let decoded = try LinesDecoder.decode(data)
        #expect(decoded.document == trace)
        #expect(decoded.ended == "snapshot")
        // Type names and call sites are interned: each is defined once.
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("[\"$\",") && $0.hasSuffix(",\"MapSink\"]") }.count == 1)
        #expect(lines.filter { $0.hasPrefix("[\"n\",") }.allSatisfy { $0.dropFirst(5).allSatisfy { $0 != "\"" } })
        #expect(text.hasPrefix("{\"format\":\"rxtrace/2\",\"meta\":{"))
        #expect(text.hasSuffix("\n"))
        // Well under rxtrace/1's bytes per step or event.
        let records = trace.steps.count + trace.events.count
        let v1 = try trace.jsonData()
        #expect(data.count < v1.count / 2, "v2 \(data.count) bytes, v1 \(v1.count) bytes, \(records) records")
    }

    @Test func anyTextIsEscaped() throws {
        let invalid = String(decoding: [0x41, 0xFF, 0xC3, 0x28, 0x42] as [UInt8], as: UTF8.self)
        let control = String(decoding: Array(0..<0x20) as [UInt8], as: UTF8.self)
        let texts = [
            "", "plain", "quote\" backslash\\ slash/", control, "\u{7F}", "混合 text 🍹", "\u{2028}\u{2029}", invalid,
            "\r\n\t\u{8}\u{C}",
        ]
        var nodes: [TraceNode] = []
        var events: [TraceEvent] = []
        var steps: [TraceStep] = []
        for (index, text) in texts.enumerated() {
            let id = UInt64(index + 1)
            nodes.append(
                TraceNode(
                    id: id, kind: .sink, type: "T" + text, callSite: text, fileID: nil, created: id, disposed: 100 + id,
                    thread: text,
                    anomalies: [TraceAnomalyRecord(kind: .concurrentOn, seq: 200 + id, detail: text)]))
            steps.append(TraceStep(seq: 300 + id, from: id, to: 0, call: .schedule, detail: text, thread: nil))
            // Each value twice: inline the first time, interned the second.
            for repeatIndex in 0..<2 {
                events.append(
                    TraceEvent(
                        seq: 400 + 2 * id + UInt64(repeatIndex), node: id, kind: .next, value: text,
                        time: Double(index) * 0.1 + 1e-7, virtualTime: repeatIndex == 1, thread: "main"))
            }
        }
        let document = TraceDocument(
            meta: ["program": "escapes", "weird\nkey": control], nodes: nodes,
            edges: [TraceEdge(from: 1, to: 2, relation: .forward)], steps: steps, events: events,
            resources: [ResourceSample(seq: 1, total: 3, byType: ["A\"": 1, "B": 2])],
            dropped: DroppedCounts(steps: 4, events: 5, resources: 6))
        let data = document.jsonLinesData()
        // JSON never holds a raw control character, and the bytes are valid UTF-8.
        #expect(!data.contains { $0 < 0x20 && $0 != 0x0A })
        #expect(String(data: data, encoding: .utf8) != nil)
        let decoded = try LinesDecoder.decode(data)
        #expect(decoded.document == document)
        #expect(decoded.document.nodes[7].type == "T" + invalid)
    }

    @Test func numbersAreExact() throws {
        let times: [Double] = [0, 1, 0.000134, 1e-9, 123_456.789_012_345, 5e-324, 1.7976931348623157e308, 2.5e15]
        let events = times.enumerated().map { index, time in
            TraceEvent(seq: UInt64.max - UInt64(index), node: 1, kind: .completed, value: nil, time: time)
        }
        let document = TraceDocument(
            nodes: [TraceNode(id: 1, kind: .observer, type: "O", created: 0)], events: events)
        let decoded = try LinesDecoder.decode(document.jsonLinesData())
        #expect(decoded.document == document)

        // The recorder's times: nanoseconds written as exact decimal seconds.
        for nanoseconds: UInt64 in [0, 1, 999_999_999, 1_000_000_000, 1_234_500_000, 18_446_744_073_709_551_615] {
            var encoder = TraceLineEncoder()
            encoder.event(seq: 1, node: 1, kind: .next, value: nil, nanoseconds: nanoseconds, thread: nil)
            let line = try JSONDecoder().decode([LinesDecoder.Value].self, from: Data(encoder.takeBytes()))
            #expect(try line[5].double() == Double(nanoseconds) / 1e9, "\(nanoseconds)")
        }
    }

    @Test func writesEitherFormat() throws {
        let directory = FileManager.default.temporaryDirectory
        let url = directory.appendingPathComponent("format2-\(UUID().uuidString).trace")
        defer { try? FileManager.default.removeItem(at: url) }
        let document = TraceDocument(meta: ["a": "b"], nodes: [TraceNode(id: 1, kind: .producer, type: "Just")])
        try document.write(to: url, format: .v2)
        #expect(try LinesDecoder.decode(Data(contentsOf: url)).document == document)
        try document.write(to: url, format: .v1)
        #expect(try TraceDocument.read(from: url) == document)
    }
}

/// A reader of `rxtrace/2` written from docs/trace-format.md's records table, for these tests
/// (each line decoded on its own by JSONDecoder, which reads numbers exactly).
enum LinesDecoder {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Any JSON value; a number kept as its text.
    enum Value: Decodable {
        case null, bool(Bool), number(String), string(String), array([Value]), object([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(UInt64.self) {
                self = .number(String(value))
            } else if let value = try? container.decode(Int.self) {
                self = .number(String(value))
            } else if let value = try? container.decode(Double.self) {
                self = .number(String(value))
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([Value].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        func uint() throws -> UInt64 {
            guard case .number(let text) = self, let value = UInt64(text) else { throw Failure(description: "\(self)") }
            return value
        }
        func int() throws -> Int {
            guard case .number(let text) = self, let value = Int(text) else { throw Failure(description: "\(self)") }
            return value
        }
        func double() throws -> Double {
            guard case .number(let text) = self, let value = Double(text) else { throw Failure(description: "\(self)") }
            return value
        }
    }

    /// A value JSONSerialization gave (faster in debug builds than JSONDecoder; its numbers
    /// are not always the nearest `Double`, so exact tests use JSONDecoder).
    static func value(_ object: Any) -> Value {
        switch object {
        case is NSNull: return .null
        case let text as String: return .string(text)
        case let array as [Any]: return .array(array.map(value))
        case let object as [String: Any]: return .object(object.mapValues(value))
        case let number as NSNumber: return .number(number.stringValue)
        default: return .null
        }
    }

    static func decode(_ data: Data, exactNumbers: Bool = true) throws -> (document: TraceDocument, ended: String?) {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.last?.isEmpty == true else { throw Failure(description: "last line not terminated") }
        lines.removeLast()
        struct Header: Decodable {
            var format: String
            var meta: [String: String]
        }
        guard let first = lines.first else { throw Failure(description: "empty") }
        let header = try JSONDecoder().decode(Header.self, from: Data(first))
        guard header.format == "rxtrace/2" else { throw Failure(description: "bad header") }
        var document = TraceDocument(meta: header.meta)
        var strings: [Int: String] = [:]
        var nodeIndex: [UInt64: Int] = [:]
        var ended: String?
        func string(_ value: Value) throws -> String {
            if case .string(let text) = value { return text }
            guard let text = strings[try value.int()] else { throw Failure(description: "undefined string \(value)") }
            return text
        }
        func optional(_ value: Value) throws -> String? {
            if case .null = value { return nil }
            return try string(value)
        }
        /// A record's trailing time field (seconds), nil when the record has none.
        func time(_ record: [Value], _ position: Int) throws -> Double? {
            guard position < record.count else { return nil }
            if case .null = record[position] { return nil }
            return try record[position].double()
        }
        func node(_ value: Value) throws -> Int {
            guard let index = nodeIndex[try value.uint()] else { throw Failure(description: "unknown node \(value)") }
            return index
        }
        func object(_ value: Value) throws -> [String: Value] {
            guard case .object(let object) = value else { throw Failure(description: "not an object: \(value)") }
            return object
        }
        for line in lines.dropFirst() {
            let record =
                exactNumbers
                ? try JSONDecoder().decode([Value].self, from: Data(line))
                : ((try JSONSerialization.jsonObject(with: Data(line)) as? [Any]) ?? []).map(value)
            guard !record.isEmpty else { throw Failure(description: "not a record") }
            guard case .string(let tag) = record[0] else { throw Failure(description: "no tag") }
            switch tag {
            case "$":
                let id = try record[1].int()
                guard strings[id] == nil else { throw Failure(description: "string \(id) defined twice") }
                strings[id] = try string(record[2])
            case "n":
                nodeIndex[try record[1].uint()] = document.nodes.count
                document.nodes.append(
                    TraceNode(
                        id: try record[1].uint(), kind: TraceNodeKind(rawValue: try string(record[2]))!,
                        type: try string(record[3]), callSite: try optional(record[4]),
                        fileID: try optional(record[5]), created: try record[6].uint(),
                        thread: try optional(record[7]), createdAt: try time(record, 8)))
            case "e":
                document.edges.append(
                    TraceEdge(
                        from: try record[1].uint(), to: try record[2].uint(),
                        relation: TraceRelation(rawValue: try string(record[3]))!))
            case "c":
                document.steps.append(
                    TraceStep(
                        seq: try record[1].uint(), from: try record[2].uint(), to: try record[3].uint(),
                        call: TraceCall(rawValue: try string(record[4]))!, detail: try optional(record[5]),
                        thread: try optional(record[6])))
            case "v":
                document.events.append(
                    TraceEvent(
                        seq: try record[1].uint(), node: try record[2].uint(),
                        kind: TraceEventKind(rawValue: try string(record[3]))!, value: try optional(record[4]),
                        time: try record[5].double(), virtualTime: try record[6].uint() == 1,
                        thread: try optional(record[7])))
            case "d":
                document.nodes[try node(record[1])].disposed = try record[2].uint()
                document.nodes[try node(record[1])].disposedAt = try time(record, 3)
            case "x":
                document.nodes[try node(record[1])].deinitialized = try record[2].uint()
                document.nodes[try node(record[1])].deinitializedAt = try time(record, 3)
            case "t":
                document.nodes[try node(record[1])].terminated = try record[2].uint()
                document.nodes[try node(record[1])].terminatedAt = try time(record, 3)
            case "a":
                document.nodes[try node(record[1])].anomalies.append(
                    TraceAnomalyRecord(
                        kind: TraceAnomaly(rawValue: try string(record[2]))!, seq: try record[3].uint(),
                        detail: try string(record[4])))
            case "r":
                let byType = try object(record[3]).mapValues { try $0.int() }
                document.resources.append(
                    ResourceSample(seq: try record[1].uint(), total: try record[2].int(), byType: byType))
            case "drop":
                let counts = try object(record[1])
                document.dropped.steps += try counts["steps"]!.int()
                document.dropped.events += try counts["events"]!.int()
                document.dropped.resources += try counts["resources"]!.int()
            case "end":
                ended = try string(object(record[1])["reason"]!)
            default:
                break
            }
        }
        return (document, ended)
    }
}
