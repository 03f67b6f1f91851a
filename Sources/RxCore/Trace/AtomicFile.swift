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
///
/// A path that is not a regular file is not replaced: a symbolic link is followed (the file it
/// points to is replaced, the link stays), a directory is refused, and a device or a pipe
/// (`-o /dev/stdout`, a FIFO) is written in place, as `cp` would, since renaming over it would
/// put a plain file where the device was.
package enum AtomicFile {
    /// Why a write failed, in a few words (`no directory out`, `Permission denied`).
    package struct Failure: Error {
        package let reason: String
    }

    package static func write(_ data: Data, to url: URL) throws(Failure) {
        var info = stat()
        if stat(url.path, &info) == 0 { // follows links: what is there in the end
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw Failure(reason: "is a directory")
            default: return try writeInPlace(data, to: url.path)
            }
        }
        let url = followingLinks(url)
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

    /// Where a chain of symbolic links at `url` ends (the last one may point to no file yet).
    private static func followingLinks(_ url: URL) -> URL {
        var url = url
        for _ in 0..<40 { // as many as the kernel follows
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else { break }
            url =
                target.hasPrefix("/")
                ? URL(fileURLWithPath: target) : url.deletingLastPathComponent().appendingPathComponent(target)
        }
        return url
    }

    /// Writes `data` to a device or a pipe that exists already, with write(2) until all of it is
    /// taken (a pipe takes it in pieces).
    private static func writeInPlace(_ data: Data, to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw Failure(reason: String(cString: strerror(failure))) }
    }
}

/// write(2), named apart from `AtomicFile.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
