import Foundation
import Logging
import OTel
import RxDistributedTracing
import ServiceLifecycle
import Testing
import Tracing

/// A service's request, its Rx pipeline and a span made in `onNext`, exported by swift-otel over
/// OTLP/HTTP to a real receiver on loopback, and read back from it: names, parent links,
/// attributes, the recorded error.
@Suite struct OTelE2ETests {
    struct SoldOut: Error, CustomStringConvertible {
        var description: String { "sold out" }
    }

    @Test(.timeLimit(.minutes(2))) func spansReachAnOTLPReceiverWithTheirParentsAndAttributes() async throws {
        let receiver = try Receiver.start()
        defer { receiver.stop() }

        var configuration = OTel.Configuration.default
        configuration.serviceName = "rxanatomy-e2e"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.sampler = .alwaysOn
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        configuration.traces.otlpExporter.endpoint = "http://127.0.0.1:\(receiver.port)/v1/traces"
        configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(100)
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        let group = ServiceGroup(services: [backend.service], logger: Logger(label: "otel-e2e"))
        let running = Task { try await group.run() }

        // The service: RxDistributedTracing installed, one request subscribing two pipelines.
        RxDistributedTracing.install()
        let finished = DispatchSemaphore(value: 0)
        let line: UInt = #line + 5
        let subscriptions = withSpan("GET /orders/42", ofKind: .server) { _ in
            [
                Observable.of("espresso", "milk").observe(on: SerialDispatchQueueScheduler(qos: .default))
                    .map { $0.uppercased() }
                    .subscribe(
                        onNext: { item in withSpan("brew \(item)") { _ in } },
                        onCompleted: { finished.signal() }),
                Observable<Int>.error(SoldOut()).subscribe(onError: { _ in }),
            ]
        }
        #expect(finished.wait(timeout: .now() + 10) == .success, "the pipeline did not complete within 10 s")
        subscriptions.forEach { $0.dispose() }
        RxDistributedTracing.uninstall()

        // Graceful shutdown exports what the batch processor holds.
        await group.triggerGracefulShutdown()
        try await running.value

        let names = ["GET /orders/42", "brew ESPRESSO", "brew MILK"]
        let spans = try receiver.spans(within: 30) { spans in
            names.allSatisfy { name in spans.contains { $0.name == name } } && spans.count >= 5
        }
        let request = try #require(spans.first { $0.name == "GET /orders/42" }, "spans received: \(spans.map(\.name))")
        #expect(request.parentSpanID.isEmpty)
        #expect(request.service == "rxanatomy-e2e")

        let site = "OTelE2ETests.swift:\(line)"
        let pipeline = try #require(
            spans.first { $0.name == "ObservableSequence → ObserveOn → Map @ \(site)" },
            "spans received: \(spans.map(\.name))")
        #expect(pipeline.traceID == request.traceID && pipeline.parentSpanID == request.spanID)
        #expect(pipeline.attributes["rx.elements"] as? Int == 2)
        #expect(pipeline.attributes["rx.end"] as? String == "completed")
        #expect(pipeline.attributes["rx.operators"] as? String == "ObservableSequence → ObserveOn → Map")
        #expect(pipeline.attributes["rx.call_site"] as? String == site)
        #expect(pipeline.attributes["code.line.number"] as? Int == Int(line))
        #expect(pipeline.status == "UNSET")

        // Made in `onNext` on the scheduler's thread: children of the request.
        for name in ["brew ESPRESSO", "brew MILK"] {
            let brew = try #require(spans.first { $0.name == name })
            #expect(brew.traceID == request.traceID && brew.parentSpanID == request.spanID, "\(name)")
        }

        let failed = try #require(spans.first { $0.name.hasPrefix("Error @ OTelE2ETests.swift:") })
        #expect(failed.parentSpanID == request.spanID)
        #expect(failed.status == "ERROR")
        #expect(failed.attributes["rx.end"] as? String == "error")
        let exception = try #require(failed.events.first { $0.name == "exception" })
        #expect((exception.attributes["exception.message"] as? String)?.contains("sold out") == true)
    }
}

/// A span as the receiver wrote it.
struct ReceivedSpan {
    let name: String
    let service: String?
    let traceID: String
    let spanID: String
    let parentSpanID: String
    let status: String
    let attributes: [String: Any]
    let events: [(name: String, attributes: [String: Any])]

    init?(json line: Substring) {
        guard let data = line.data(using: .utf8),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let name = object["name"] as? String, let traceID = object["trace_id"] as? String,
            let spanID = object["span_id"] as? String
        else { return nil }
        self.name = name
        self.service = object["service"] as? String
        self.traceID = traceID
        self.spanID = spanID
        self.parentSpanID = object["parent_span_id"] as? String ?? ""
        self.status = object["status"] as? String ?? ""
        self.attributes = object["attributes"] as? [String: Any] ?? [:]
        self.events = (object["events"] as? [[String: Any]] ?? []).map {
            (name: $0["name"] as? String ?? "", attributes: $0["attributes"] as? [String: Any] ?? [:])
        }
    }
}

/// receiver.py, started on a free loopback port for one test.
struct Receiver {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let process: Process
    let port: Int
    let output: URL

    static func start() throws -> Receiver {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("receiver.py")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "otel-e2e-\(UUID().uuidString).jsonl")
        // `make otel-e2e` names the python that has opentelemetry-proto (its own venv when the
        // system's has not).
        let python = ProcessInfo.processInfo.environment["RXANATOMY_OTEL_PYTHON"] ?? "python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script.path, "--out", output.path]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Its first line says where it listens; a bounded wait for it.
        let firstLine = Locked<String?>(nil)
        let said = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var bytes = Data()
            let handle = stdout.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                bytes.append(chunk)
                if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                    firstLine.set(String(decoding: bytes[..<newline], as: UTF8.self))
                    break
                }
            }
            said.signal()
        }
        guard said.wait(timeout: .now() + 15) == .success, let line = firstLine.get(),
            let port = line.split(separator: ":").last.flatMap({ Int($0) })
        else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let problem = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure(
                description: "receiver.py (\(python)) did not start within 15 s "
                    + "(make otel-e2e installs what it needs): \(problem)")
        }
        return Receiver(process: process, port: port, output: output)
    }

    /// The spans received so far, polled until `enough` holds or `seconds` pass.
    func spans(within seconds: Double, until enough: ([ReceivedSpan]) -> Bool) throws -> [ReceivedSpan] {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while true {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            let spans = text.split(separator: "\n").compactMap(ReceivedSpan.init(json:))
            if enough(spans) { return spans }
            if Date() >= deadline {
                throw Failure(description: "after \(seconds) s the receiver has \(spans.map(\.name))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// SIGTERM, then SIGKILL if it has not ended within five seconds: never a hang.
    func stop() {
        process.terminate()
        let deadline = Date(timeIntervalSinceNow: 5)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: output)
    }
}

final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
