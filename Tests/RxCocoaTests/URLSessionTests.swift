import Foundation
import RxCocoa
import RxTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSession.rx` against a real HTTP server on loopback (`LoopbackHTTPServer`, started by the
/// test in-process): real sockets and FoundationNetworking's real HTTP stack, no mock protocol.
/// Every wait is bounded (`toBlocking(timeout:)`, request timeouts of 5 s).
@Suite(.serialized, .noLeaks)
struct URLSessionTests {
    /// Runs `body` with a started server and an ephemeral session; stops both after, and keeps
    /// RxCocoa's request logging (on in debug builds) off the test output.
    private func withServer(_ body: (LoopbackHTTPServer, URLSession) throws -> Void) throws {
        let server = try LoopbackHTTPServer()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        configuration.timeoutIntervalForResource = 5
        let session = URLSession(configuration: configuration)
        let logging = URLSession.rx.shouldLogRequest
        URLSession.rx.shouldLogRequest = { _ in false }
        defer {
            URLSession.rx.shouldLogRequest = logging
            session.invalidateAndCancel()
            server.stop()
        }
        try body(server, session)
    }

    @Test func dataOfASuccessfulRequest() throws {
        try withServer { server, session in
            let data = try session.rx.data(request: URLRequest(url: server.url("/text"))).toBlocking(timeout: 5)
                .toArray()
            #expect(data.map { String(decoding: $0, as: UTF8.self) } == ["hello"])
            #expect(server.requests == ["/text"])
        }
    }

    /// `response` passes any status on, with the body; `data` fails on one outside 200..<300.
    @Test func responseAndDataOfAFailingStatus() throws {
        try withServer { server, session in
            let request = URLRequest(url: server.url("/missing"))
            let responses = try session.rx.response(request: request).toBlocking(timeout: 5).toArray()
            #expect(responses.map(\.response.statusCode) == [404])
            #expect(responses.map { String(decoding: $0.data, as: UTF8.self) } == ["nope"])
            let result = session.rx.data(request: request).toBlocking(timeout: 5).materialize()
            guard case .failed(let elements, let error) = result else {
                Issue.record("expected a failure, got \(result)")
                return
            }
            #expect(elements.isEmpty)
            guard case .httpRequestFailed(let response, let data)? = error as? RxCocoaURLError else {
                Issue.record("expected httpRequestFailed, got \(error)")
                return
            }
            #expect(response.statusCode == 404)
            #expect(data.map { String(decoding: $0, as: UTF8.self) } == "nope")
            #expect((error as? RxCocoaURLError)?.debugDescription == "HTTP request failed with `404`.")
        }
    }

    @Test func jsonOfAURL() throws {
        try withServer { server, session in
            let json = try session.rx.json(url: server.url("/json")).toBlocking(timeout: 5).single()
            let object = json as? [String: Any]
            #expect(object?["name"] as? String == "rx")
            #expect(object?["stars"] as? Int == 5)
        }
    }

    @Test func jsonOfABodyThatIsNotJSON() throws {
        try withServer { server, session in
            let result = session.rx.json(request: URLRequest(url: server.url("/text"))).toBlocking(timeout: 5)
                .materialize()
            guard case .failed(_, let error) = result, case .deserializationError? = error as? RxCocoaURLError else {
                Issue.record("expected a deserialization error, got \(result)")
                return
            }
        }
    }

    /// The request goes out at subscription, once per subscription, not when the observable is
    /// made; method, headers and body are the request's.
    @Test func oneRequestPerSubscription() throws {
        try withServer { server, session in
            var request = URLRequest(url: server.url("/echo"))
            request.httpMethod = "POST"
            request.setValue("yes", forHTTPHeaderField: "X-Test")
            request.httpBody = Data("payload".utf8)
            let echo = session.rx.data(request: request).map { String(decoding: $0, as: UTF8.self) }
            #expect(server.requests == [])
            let first = try echo.toBlocking(timeout: 5).toArray()
            let second = try echo.toBlocking(timeout: 5).toArray()
            #expect(first == ["POST yes payload"])
            #expect(second == ["POST yes payload"])
            #expect(server.requests == ["/echo", "/echo"])
        }
    }

    /// Disposing the subscription cancels the task: the server sees the connection close, and
    /// nothing reaches the observer.
    @Test func disposingCancelsTheRequest() async throws {
        let server = try LoopbackHTTPServer()
        let session = URLSession(configuration: .ephemeral)
        let logging = URLSession.rx.shouldLogRequest
        URLSession.rx.shouldLogRequest = { _ in false }
        defer {
            URLSession.rx.shouldLogRequest = logging
            session.invalidateAndCancel()
            server.stop()
        }
        let events = Collected<String>()
        let subscription = session.rx.data(request: URLRequest(url: server.url("/slow"))).subscribe(
            onNext: { _ in events.append("next") }, onError: { _ in events.append("error") },
            onCompleted: { events.append("completed") })
        #expect(await eventually { server.requests == ["/slow"] })
        subscription.dispose()
        #expect(await eventually { server.requests == ["/slow", "/slow closed by client"] })
        #expect(events.all == [])
    }

    @Test func aRefusedConnectionFails() throws {
        let server = try LoopbackHTTPServer()
        let url = server.url("/text")
        server.stop()
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let logging = URLSession.rx.shouldLogRequest
        URLSession.rx.shouldLogRequest = { _ in false }
        defer { URLSession.rx.shouldLogRequest = logging }
        let result = session.rx.data(request: URLRequest(url: url)).toBlocking(timeout: 5).materialize()
        guard case .failed(let elements, let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(elements.isEmpty)
        #expect((error as? URLError)?.code == .cannotConnectToHost)
    }

    /// `shouldLogRequest` is asked about each request (and, when it says yes, the request is
    /// printed as a curl command with its outcome, as RxCocoa does).
    @Test func loggingIsAskedAboutEachRequest() throws {
        try withServer { server, session in
            let asked = Collected<String>()
            URLSession.rx.shouldLogRequest = { request in
                asked.append(request.url?.path ?? "")
                return false
            }
            _ = try session.rx.data(request: URLRequest(url: server.url("/text"))).toBlocking(timeout: 5).toArray()
            #expect(asked.all.first == "/text")
            #expect(asked.all.allSatisfy { $0 == "/text" })
        }
    }
}
