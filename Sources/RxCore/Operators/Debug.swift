import Foundation
import Synchronization

extension ObservableType {
    /// Prints every subscription, event and disposal, as RxSwift's `debug` does, with a
    /// subscription number so that lines of concurrent subscriptions can be told apart.
    ///
    /// Each line is `<time>: <identifier> #<subscription> -> <what>`:
    ///
    /// ```text
    /// 2026-11-21 20:15:03.120: main.swift:12 (main) #1 -> subscribed
    /// 2026-11-21 20:15:03.121: main.swift:12 (main) #1 -> Event next(1)
    /// 2026-11-21 20:15:03.121: main.swift:12 (main) #1 -> Event completed
    /// 2026-11-21 20:15:03.121: main.swift:12 (main) #1 -> isDisposed
    /// ```
    ///
    /// - `<time>` is local time, `yyyy-MM-dd HH:mm:ss.SSS`.
    /// - `<identifier>` is `identifier`, or `<file>:<line> (<function>)` of the call.
    /// - `#<subscription>` counts the subscriptions of every `debug` in the process, from 1.
    /// - While tracing is on, the sink's trace node follows: `#1 node:14 -> …`, the id that
    ///   `rxtrace render` shows for the `DebugSink`.
    /// - With `trimOutput`, an event text over 40 characters keeps its first and last 20 around
    ///   `...`.
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function
    ) -> Observable<Element> {
        let name = identifier ?? "\(CallSite(file, line).description) (\(function))"
        return Debug(source: asObservable(), identifier: name, trimOutput: trimOutput, callSite: CallSite(file, line))
    }
}

/// Where `debug` lines go: standard output, unless a test redirects them.
enum DebugOutput {
    private static let sink = Mutex<(@Sendable (String) -> Void)?>(nil)
    private static let nextSubscription = Atomic<Int>(1)

    static func write(_ line: String) {
        if let redirect = sink.withLock({ $0 }) { redirect(line) } else { print(line) }
    }

    /// Sends lines to `redirect` instead of standard output (nil: back to standard output).
    static func redirect(_ redirect: (@Sendable (String) -> Void)?) {
        sink.withLock { $0 = redirect }
    }

    static func subscriptionNumber() -> Int {
        nextSubscription.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}

final class DebugSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private static var maxEventTextLength: Int { 40 }

    private let prefix: String
    private let trimOutput: Bool
    private let formatter: DateFormatter

    init(identifier: String, trimOutput: Bool, observer: Observer, cancel: SinkDisposer) {
        self.trimOutput = trimOutput
        formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        let number = DebugOutput.subscriptionNumber()
        prefix = "\(identifier) #\(number)"
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("DebugSink"))
        log("subscribed")
    }

    private func log(_ content: String) {
        let node = traceID != 0 ? " node:\(Tracing.displayID(traceID))" : "" // the id a trace file shows
        DebugOutput.write("\(formatter.string(from: Date())): \(prefix)\(node) -> \(content)")
    }

    func on(_ event: Event<Element>) {
        let text = event.debugDescription
        let shown =
            trimOutput && text.count > Self.maxEventTextLength
            ? String(text.prefix(Self.maxEventTextLength / 2)) + "..."
                + String(text.suffix(Self.maxEventTextLength / 2))
            : text
        log("Event \(shown)")
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }

    override func dispose() {
        if !isDisposed { log("isDisposed") }
        super.dispose()
    }
}

final class Debug<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let identifier: String
    private let trimOutput: Bool

    init(source: Observable<Element>, identifier: String, trimOutput: Bool, callSite: CallSite?) {
        self.source = source
        self.identifier = identifier
        self.trimOutput = trimOutput
        super.init(counter: ResourceCounter.named("Debug"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = DebugSink(identifier: identifier, trimOutput: trimOutput, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
