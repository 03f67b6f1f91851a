import Foundation

/// Why a trace file could not be read: each case says what is wrong in one line.
public enum TraceFileError: Error, Equatable, CustomStringConvertible {
    case missing(path: String)
    case unreadable(path: String, reason: String)
    case empty(path: String)
    case notJSON(path: String, reason: String)
    case unknownFormat(path: String, found: String?)
    case invalid(path: String, reason: String)
    /// A complete line of an `rxtrace/2` file that is not a record.
    case malformed(path: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case .missing(let path): return "\(path): no such file"
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .empty(let path): return "\(path): the file is empty"
        case .notJSON(let path, let reason): return "\(path): not a trace (malformed or truncated JSON: \(reason))"
        case .unknownFormat(let path, let found):
            if let found {
                return
                    "\(path): unknown trace format \"\(found)\" (this rxtrace reads "
                    + "\"\(TraceDocument.currentFormat)\", \"\(TraceRecordReader.formatName)\" and "
                    + "\"\(TraceFormat.v3.rawValue)\")"
            }
            return "\(path): not a trace (no \"format\" field)"
        case .invalid(let path, let reason): return "\(path): invalid trace: \(reason)"
        case .malformed(let path, let line, let reason): return "\(path):\(line): malformed record: \(reason)"
        }
    }
}

extension TraceDocument {
    /// Reads and checks a trace file, `rxtrace/1`, `rxtrace/2` or `rxtrace/3`. A cut-short streamed file
    /// (no `end` record) reads as what it holds, with `meta["cut"] = "seq N"`.
    public static func read(from url: URL) throws(TraceFileError) -> TraceDocument {
        try readWithStatus(from: url).document
    }

    /// Reads and checks a trace file, and says what the reading found (format, cut short…).
    public static func readWithStatus(
        from url: URL, progress: ((Int, Int) -> Void)? = nil
    ) throws(TraceFileError) -> (document: TraceDocument, status: TraceReadStatus) {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        if try startsFormat2(url) {
            var builder = TraceDocumentBuilder()
            let status = try TraceRecordReader.read(from: url, progress: progress) { (record) throws(TraceFileError) in
                try builder.add(record, path: path)
            }
            return (try builder.document(status, path: path), status)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        let document = try decode(data, path: path)
        return (document, v1Status(document))
    }

    static func v1Status(_ document: TraceDocument) -> TraceReadStatus {
        var status = TraceReadStatus(format: TraceDocument.currentFormat)
        status.meta = document.meta
        status.endReason = document.meta["cut"] == nil ? "exit" : nil
        status.dropped = TraceDrop(
            steps: document.dropped.steps, events: document.dropped.events, resources: document.dropped.resources)
        status.lastSeq = TraceSummary.lastSeq(of: document)
        return status
    }

    /// Whether the file's first bytes are the header of a streamed trace (`rxtrace/2` or `rxtrace/3`).
    static func startsFormat2(_ url: URL) throws(TraceFileError) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .unreadable(path: url.path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        let head: Data
        do {
            head = try handle.read(upToCount: 256) ?? Data()
        } catch {
            throw .unreadable(path: url.path, reason: error.localizedDescription)
        }
        return head.withUnsafeBytes { TraceRecordReader.isStreamedFormat($0) }
    }

    /// Decodes and checks trace JSON; `path` only names the source in errors.
    public static func decode(_ data: Data, path: String = "<data>") throws(TraceFileError) -> TraceDocument {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw .empty(path: path) }
        if data.prefix(256).withUnsafeBytes({ TraceRecordReader.isStreamedFormat($0) }) {
            var builder = TraceDocumentBuilder()
            let status = try TraceRecordReader.read(data, path: path) { (record) throws(TraceFileError) in
                try builder.add(record, path: path)
            }
            return try builder.document(status, path: path)
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .notJSON(path: path, reason: shortReason(error))
        }
        guard let dictionary = object as? [String: Any] else {
            throw .unknownFormat(path: path, found: nil)
        }
        guard let format = dictionary["format"] as? String else { throw .unknownFormat(path: path, found: nil) }
        guard format == currentFormat else { throw .unknownFormat(path: path, found: format) }
        let document: TraceDocument
        do {
            document = try JSONDecoder().decode(TraceDocument.self, from: data)
        } catch {
            throw .invalid(path: path, reason: shortReason(error))
        }
        try document.validate(path: path)
        return document
    }

    /// Edges, steps and events must name nodes that exist (0 stands for user code).
    func validate(path: String) throws(TraceFileError) {
        var ids = Set<UInt64>()
        for node in nodes {
            guard node.id != 0 else { throw .invalid(path: path, reason: "node id 0") }
            guard ids.insert(node.id).inserted else {
                throw .invalid(path: path, reason: "node \(node.id) appears twice")
            }
        }
        for edge in edges where !ids.contains(edge.from) || !ids.contains(edge.to) {
            throw .invalid(
                path: path, reason: "edge \(edge.from) -\(edge.relation.rawValue)-> \(edge.to) names a missing node")
        }
        for event in events where !ids.contains(event.node) {
            throw .invalid(path: path, reason: "event \(event.seq) names missing node \(event.node)")
        }
    }
}

private func shortReason(_ error: Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context):
        return context.debugDescription + codingPathSuffix(context.codingPath)
    case DecodingError.keyNotFound(let key, let context):
        return "missing \"\(key.stringValue)\"" + codingPathSuffix(context.codingPath)
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
        return context.debugDescription + codingPathSuffix(context.codingPath)
    default:
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        return text.split(separator: "\n").first.map(String.init) ?? text
    }
}

private func codingPathSuffix(_ path: [CodingKey]) -> String {
    guard !path.isEmpty else { return "" }
    return " at " + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
}
