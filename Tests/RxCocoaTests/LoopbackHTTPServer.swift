import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 that the URLSession tests start in-process: a real
/// socket on a port the kernel picks, one thread accepting connections, one response per
/// connection (`Connection: close`). It answers by path:
///
/// - `/json`: 200 with `{"name":"rx","stars":5}`
/// - `/text`: 200 with `hello`
/// - `/missing`: 404 with `nope`
/// - `/echo`: 200 with the method, the `X-Test` header and the body it received
/// - `/slow`: waits up to 10 s for the client to hang up, and records `/slow closed by client`
///   when it does (what cancelling the task does); answers `late` if it never does
///
/// `stop()` closes the listening socket and waits (bounded) for the accepting thread to end.
final class LoopbackHTTPServer: @unchecked Sendable {
    private let listener: Int32
    let port: UInt16
    private let lock = NSLock()
    private var paths: [String] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    /// The request paths received so far, in order.
    var requests: [String] { lock.withLock { paths } }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket: \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw ServerError("bind/listen: \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LoopbackHTTPServer"
        thread.start()
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Stops accepting and waits up to 5 s for the accepting thread.
    func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        _ = finished.wait(timeout: .now() + 5)
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer { finished.signal() }
        while !isStopped {
            let connection = accept(listener, nil, nil)
            if connection < 0 { return }
            DispatchQueue.global().async { [self] in
                serve(connection)
                close(connection)
            }
        }
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        lock.withLock { paths.append(request.path) }
        switch request.path {
        case "/json": respond(connection, 200, #"{"name":"rx","stars":5}"#, type: "application/json")
        case "/text": respond(connection, 200, "hello")
        case "/echo": respond(connection, 200, "\(request.method) \(request.header("x-test") ?? "-") \(request.body)")
        case "/slow":
            if waitForHangUp(connection, seconds: 10) {
                lock.withLock { paths.append("/slow closed by client") }
            } else {
                respond(connection, 200, "late")
            }
        default: respond(connection, 404, "nope")
        }
    }

    /// Whether the client closes the connection within `seconds` (or the server stops).
    private func waitForHangUp(_ connection: Int32, seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var probe: UInt8 = 0
        while Date() < deadline && !isStopped {
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 10) > 0 && recv(connection, &probe, 1, Int32(MSG_PEEK)) <= 0 { return true }
        }
        return false
    }

    private struct Request {
        let method: String
        let path: String
        let headers: [String: String]
        let body: String
        func header(_ name: String) -> String? { headers[name] }
    }

    /// Reads the head and, by `Content-Length`, the body; nil if the client went away.
    private func readRequest(_ connection: Int32) -> Request? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        while data.range(of: separator) == nil {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return nil }
            data.append(contentsOf: buffer[0..<count])
        }
        let headEnd = data.range(of: separator)!
        let head = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = data[headEnd.upperBound...]
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < length {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { break }
            body.append(contentsOf: buffer[0..<count])
        }
        return Request(
            method: String(requestLine[0]), path: String(requestLine[1]), headers: headers,
            body: String(decoding: body, as: UTF8.self))
    }

    private func respond(_ connection: Int32, _ status: Int, _ body: String, type: String = "text/plain") {
        let reason = status == 200 ? "OK" : "Not Found"
        let bytes = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\n"
            + "Connection: close\r\n\r\n"
        let response = Array(head.utf8) + bytes
        var sent = 0
        while sent < response.count {
            let count = response[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            sent += count
        }
    }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
