import Foundation

extension TraceDocument {
    /// The document as JSON (keys sorted, so the same trace always gives the same bytes).
    public func jsonData(pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Writes the trace to `url` in `format` (`AtomicFile`): a reader never sees half a trace,
    /// and an existing file is replaced whole or not at all. The error says why in one line.
    public func write(to url: URL, format: TraceFormat = .v2) throws {
        let data = try data(format: format)
        do {
            try AtomicFile.write(data, to: url)
        } catch {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSFilePathErrorKey: url.path,
                    NSLocalizedDescriptionKey: "cannot write \(url.path): \(error.reason)",
                ])
        }
    }
}
