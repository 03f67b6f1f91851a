import Foundation

/// Follows an `rxtrace/2` file while its program writes it (`rxtrace top`): each `poll` hands over
/// the records appended since the last one, parsed by the streamed reader (`TraceRecordReader`).
///
/// A file bounded by `RXTRACE_MAX_MB` is replaced by each new segment (a file renamed over it):
/// the follower reads the old one to its end, then the new one from its start, with its own
/// strings (`segments` counts them). The nodes still alive come again at the start of a segment,
/// with the ids they had.
///
/// ```swift
/// let follower = try TraceFollower(path: "trace.rxt")
/// while follower.ended == nil {
///     try follower.poll { record in … }
///     Thread.sleep(forTimeInterval: 1)
/// }
/// ```
public final class TraceFollower {
    public let path: String
    /// The header's `meta` (of the newest segment), once the header line is read.
    public private(set) var meta: [String: String] = [:]
    /// The segments read after the first (`RXTRACE_MAX_MB`).
    public private(set) var segments = 0
    /// The `end` record's reason and `seq`, once read: the program finished its trace.
    public private(set) var ended: (reason: String, seq: UInt64)?
    /// The highest `seq` read.
    public var lastSeq: UInt64 { max(parser.status.lastSeq, previousSeq) }
    /// The bytes read, over all segments.
    public private(set) var bytesRead = 0

    private var descriptor: Int32
    private var parser: TraceRecordReader.Parser
    private var offset = 0
    private var pending = Data()
    private var previousSeq: UInt64 = 0
    private var sawHeader = false

    /// Opens the file; `TraceFileError.missing` when it does not exist (yet).
    public init(path: String) throws(TraceFileError) {
        self.path = path
        descriptor = try Self.open(path)
        parser = TraceRecordReader.Parser(path: path)
    }

    deinit { close(descriptor) }

    /// Reads what was appended since the last call (complete lines only) and calls `visit` for
    /// each record; true when anything was read. `newSegment` is called before the records of a
    /// new segment, whose first records are the nodes still alive (a node not among them was
    /// released meanwhile). Throws, with a one-line reason, when the file is not an `rxtrace/2`
    /// trace, holds a malformed line, or shrank while being followed.
    @discardableResult
    public func poll(
        _ visit: (TraceFileRecord) throws(TraceFileError) -> Void, newSegment: () -> Void = {}
    ) throws(TraceFileError) -> Bool {
        var progressed = try readAppended(visit)
        // A new segment was renamed over the path: the old file is read to its end above, the
        // new one from its start.
        while ended == nil, let replaced = replacement() {
            newSegment()
            close(descriptor)
            descriptor = replaced
            previousSeq = lastSeq
            parser = TraceRecordReader.Parser(path: path)
            offset = 0
            pending = Data()
            sawHeader = false
            segments += 1
            progressed = try readAppended(visit) || progressed
        }
        return progressed
    }

    /// The most read at once: a large file already written when following starts is parsed in
    /// pieces, in bounded memory.
    static let chunkSize = 1 << 20

    private func readAppended(_ visit: (TraceFileRecord) throws(TraceFileError) -> Void) throws(TraceFileError) -> Bool
    {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        let size = Int(info.st_size)
        if size < offset {
            throw .invalid(path: path, reason: "the file shrank from \(offset) to \(size) bytes while being followed")
        }
        var progressed = false
        while offset < size, ended == nil {
            var chunk = Data(count: min(size - offset, Self.chunkSize))
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            guard count >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            guard count > 0 else { break }
            chunk.removeSubrange(count...)
            offset += count
            bytesRead += count
            progressed = true
            pending.append(chunk)
            if !sawHeader { try checkHeader() }
            let result: Result<Int, TraceFileError> = pending.withUnsafeBytes { bytes in
                do throws(TraceFileError) {
                    return .success(
                        try parser.consume(bytes, final: false) { (record) throws(TraceFileError) in
                            if case .end(let reason, let seq) = record { ended = (reason, seq) }
                            try visit(record)
                        })
                } catch {
                    return .failure(error)
                }
            }
            pending.removeFirst(try result.get())
            if sawHeader { meta = parser.status.meta }
        }
        return progressed
    }

    /// Once the first line is complete: it must be an `rxtrace/2` or `rxtrace/3` header.
    private func checkHeader() throws(TraceFileError) {
        guard let newline = pending.firstIndex(of: 0x0A) else {
            if pending.count > 1 << 20 { throw .invalid(path: path, reason: "no header line in the first megabyte") }
            return
        }
        let head = pending[pending.startIndex..<newline]
        if head.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { throw .empty(path: path) }
        guard head.withUnsafeBytes({ TraceRecordReader.isStreamedFormat($0) }) else {
            if head.first == UInt8(ascii: "{") {
                throw .invalid(
                    path: path,
                    reason:
                        "not a streamed trace: only a streamed trace (rxtrace/3 or rxtrace/2: what RXTRACE writes "
                        + "unless RXTRACE_FORMAT=1) can be followed")
            }
            throw .unknownFormat(path: path, found: nil)
        }
        sawHeader = true
    }

    /// The path's file, opened, when it is no longer the one being read.
    private func replacement() -> Int32? {
        var current = stat()
        var named = stat()
        guard fstat(descriptor, &current) == 0, stat(path, &named) == 0 else { return nil }
        guard current.st_ino != named.st_ino || current.st_dev != named.st_dev else { return nil }
        return try? Self.open(path)
    }

    private static func open(_ path: String) throws(TraceFileError) -> Int32 {
        let descriptor = Foundation.open(path, O_RDONLY)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .missing(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        return descriptor
    }
}
