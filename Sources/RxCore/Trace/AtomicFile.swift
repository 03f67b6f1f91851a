import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way RxAnatomy writes a file (the `RXTRACE` trace at exit, `rxtrace`'s outputs):
/// through a temporary file in the same directory renamed into place, so a reader never sees
/// half a file, an existing file is replaced whole or not at all, and a failure leaves nothing
/// behind.
package enum AtomicFile {
    /// Why a write failed, in a few words (`no directory out`, `Permission denied`).
    package struct Failure: Error {
        package let reason: String
    }

    package static func write(_ data: Data, to url: URL) throws(Failure) {
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw Failure(reason: "no directory \(directory.path)")
        }
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw Failure(reason: (error as NSError).localizedDescription)
        }
        // POSIX rename replaces the target atomically (Foundation's replaceItemAt does not on Linux).
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw Failure(reason: reason)
        }
    }
}
