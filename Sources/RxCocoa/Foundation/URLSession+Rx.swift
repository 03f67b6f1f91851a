import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a request made through `URLSession.rx` failed, besides the transport's own errors.
public enum RxCocoaURLError: Swift.Error {
    /// Neither a response nor an error came back.
    case unknown
    /// The response is not an HTTP response.
    case nonHTTPResponse(response: URLResponse)
    /// The status code is outside `200 ..< 300` (`data` and `json` only).
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The body is not JSON (`json` only).
    case deserializationError(error: Swift.Error)
}

extension RxCocoaURLError: CustomDebugStringConvertible {
    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error has occurred."
        case .nonHTTPResponse(let response): return "Response is not NSHTTPURLResponse `\(response)`."
        case .httpRequestFailed(let response, _): return "HTTP request failed with `\(response.statusCode)`."
        case .deserializationError(let error): return "Error during deserialization of the response: \(error)"
        }
    }
}

extension Reactive where Base: URLSession {
    /// The response and body of `request`: one element, then `completed`. Each subscription
    /// makes the request anew; disposing cancels it. A transport error, or a response that is not
    /// HTTP, fails the sequence; any status code is an element.
    ///
    /// ```swift
    /// URLSession.shared.rx.response(request: URLRequest(url: url))
    ///     .subscribe(onNext: { response, data in print(response.statusCode, data.count) })
    /// ```
    public func response(
        request: URLRequest, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = base
        return Observable.create(
            { observer in
                let started: Date? = URLSession.rx.shouldLogRequest(request) ? Date() : nil
                let task = session.dataTask(with: request) { data, response, error in
                    if let started, URLSession.rx.shouldLogRequest(request) {
                        print(curlCommand(of: request))
                        print(outcome(of: response, error, after: Date().timeIntervalSince(started)))
                    }
                    guard let response, let data else {
                        observer.on(.error(error ?? RxCocoaURLError.unknown))
                        return
                    }
                    guard let httpResponse = response as? HTTPURLResponse else {
                        observer.on(.error(RxCocoaURLError.nonHTTPResponse(response: response)))
                        return
                    }
                    observer.on(.next((httpResponse, data)))
                    observer.on(.completed)
                }
                task.resume()
                return Disposables.create(with: task.cancel)
            }, file: file, line: line)
    }

    /// The body of `request`; a status code outside `200 ..< 300` fails the sequence with
    /// `RxCocoaURLError.httpRequestFailed`.
    public func data(request: URLRequest, file: StaticString = #fileID, line: UInt = #line) -> Observable<Data> {
        response(request: request, file: file, line: line).map(
            { response, data in
                guard 200..<300 ~= response.statusCode else {
                    throw RxCocoaURLError.httpRequestFailed(response: response, data: data)
                }
                return data
            }, file: file, line: line)
    }

    /// The body of `request` read by `JSONSerialization`; a body that is not JSON fails the
    /// sequence with `RxCocoaURLError.deserializationError`.
    public func json(
        request: URLRequest, options: JSONSerialization.ReadingOptions = [], file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Any> {
        data(request: request, file: file, line: line).map(
            { data in
                do {
                    return try JSONSerialization.jsonObject(with: data, options: options)
                } catch {
                    throw RxCocoaURLError.deserializationError(error: error)
                }
            }, file: file, line: line)
    }

    /// The JSON body of a GET of `url`.
    public func json(url: Foundation.URL, file: StaticString = #fileID, line: UInt = #line) -> Observable<Any> {
        json(request: URLRequest(url: url), file: file, line: line)
    }
}

extension Reactive where Base == URLSession {
    /// Whether to print each request made through `rx` as a `curl` command, with its outcome:
    /// every request in debug builds, none in release (as RxCocoa).
    public static var shouldLogRequest: (URLRequest) -> Bool = { _ in
        #if DEBUG
        return true
        #else
        return false
        #endif
    }
}

/// `request` as a `curl` command line.
private func curlCommand(of request: URLRequest) -> String {
    func escaped(_ text: String) -> String { text.replacingOccurrences(of: "\"", with: "\\\"") }
    var command = "curl -X \(request.httpMethod ?? "GET") "
    if let body = request.httpBody.flatMap({ String(data: $0, encoding: .utf8) }) {
        command += "-d \"\(escaped(body))\" "
    }
    for (key, value) in request.allHTTPHeaderFields ?? [:] {
        command += "\n    -H \"\(escaped(key)): \(escaped(value))\" "
    }
    command += "\n\"\(escaped(request.url?.absoluteString ?? "<unknown url>"))\""
    return command + " -i -v"
}

/// One line on how a request ended, and how long it took.
private func outcome(of response: URLResponse?, _ error: Swift.Error?, after interval: TimeInterval) -> String {
    let ms = Int(interval * 1000)
    if let response = response as? HTTPURLResponse {
        let verdict = 200..<300 ~= response.statusCode ? "Success" : "Failure"
        return "\(verdict) (\(ms)ms): Status \(response.statusCode)"
    }
    if let error = error as NSError? {
        if error.domain == NSURLErrorDomain && error.code == NSURLErrorCancelled { return "Canceled (\(ms)ms)" }
        return "Failure (\(ms)ms): NSError > \(error)"
    }
    return "<Unhandled response from server>"
}
