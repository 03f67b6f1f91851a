import Foundation
import InMemoryTracing
import RxDistributedTracing
import RxTesting
import RxTrace
import Testing
import Tracing

/// Each subscription a span: its name, parent, attributes, end and error, checked with
/// swift-distributed-tracing's in-memory tracer.
@Suite(.serialized, .noLeaks) struct SpanTests {
    @Test func aSubscriptionIsASpanNamedByItsChainAndCallSite() throws {
        try withSpans { memory, _ in
            let request = memory.startSpan("GET /drinks")
            var received: [Int] = []
            let line: UInt = #line + 3
            ServiceContext.withValue(request.context) {
                _ = Observable.of(1, 2, 3, 4).map { $0 * 10 }.filter { $0 > 10 }
                    .subscribe(onNext: { received.append($0) })
            }
            request.end()
            #expect(received == [20, 30, 40])

            let spans = memory.finishedSpans
            #expect(spans.map(\.operationName) == ["ObservableSequence → Map → Filter @ \(site(line))", "GET /drinks"])
            let span = try #require(spans.first)
            #expect(span.traceID == request.traceID)
            #expect(span.parentSpanID == request.spanID)
            #expect(span.kind == .internal)
            #expect(span.attribute("rx.elements") == "3")
            #expect(span.attribute("rx.end") == "completed")
            #expect(span.attribute("rx.operators") == "ObservableSequence → Map → Filter")
            #expect(span.attribute("rx.call_site") == site(line))
            #expect(span.attribute("rx.observer") == "AnonymousObserver")
            #expect(span.attribute("code.file.path") == "RxDistributedTracingTests/SpanTests.swift")
            #expect(span.attribute("code.line.number") == "\(line)")
            #expect(span.errors.isEmpty && span.status == nil)
        }
    }

    @Test func aSubscriptionWithoutARequestIsARootSpan() throws {
        try withSpans { memory, _ in
            _ = Observable.just(7).subscribe(onNext: { _ in })
            let span = try #require(memory.finishedSpans.first)
            #expect(span.operationName.hasPrefix("Just @ SpanTests.swift:"))
            #expect(span.parentSpanID == nil)
            #expect(span.attribute("rx.elements") == "1")
        }
    }

    @Test func anErrorIsRecordedOnTheSpan() throws {
        try withSpans { memory, _ in
            let request = memory.startSpan("request")
            var failure: Error?
            ServiceContext.withValue(request.context) {
                _ = Observable<Int>.create { observer in
                    observer.onNext(1)
                    observer.onError(Failure(reason: "sold out"))
                    return Disposables.create()
                }
                .subscribe(onError: { failure = $0 })
            }
            request.end()
            #expect(failure as? Failure == Failure(reason: "sold out"))
            let span = try #require(memory.finishedSpans.first { $0.operationName.hasPrefix("AnonymousObservable") })
            #expect(span.errors.count == 1)
            #expect(span.errors.first?.error as? Failure == Failure(reason: "sold out"))
            #expect(span.status?.code == .error)
            #expect(span.attribute("rx.end") == "error")
            #expect(span.attribute("rx.elements") == "1")
            #expect(span.parentSpanID == request.spanID)
        }
    }

    @Test func aSpanLastsUntilDisposal() throws {
        try withSpans { memory, spans in
            let subject = PublishSubject<String>()
            let request = memory.startSpan("request")
            let subscription = ServiceContext.withValue(request.context) {
                subject.map { $0.uppercased() }.subscribe(onNext: { _ in })
            }
            request.end()
            subject.onNext("mojito")
            subject.onNext("daiquiri")
            #expect(spans.openSpans == 1)
            #expect(memory.activeSpans.map(\.operationName).first?.hasPrefix("PublishSubject → Map @ ") == true)
            subscription.dispose()
            #expect(spans.openSpans == 0)
            let span = try #require(memory.finishedSpans.first { $0.operationName.hasPrefix("PublishSubject") })
            #expect(span.attribute("rx.end") == "disposed")
            #expect(span.attribute("rx.elements") == "2")
            #expect(span.parentSpanID == request.spanID)
        }
    }

    @Test func aSubscriptionToASubjectIsASpan() throws {
        try withSpans { memory, _ in
            let subject = BehaviorSubject(value: 1)
            let subscription = subject.subscribe(onNext: { _ in })
            subject.onNext(2)
            subject.onCompleted()
            subscription.dispose()
            let span = try #require(memory.finishedSpans.first)
            #expect(span.operationName.hasPrefix("BehaviorSubject @ SpanTests.swift:"))
            #expect(span.attribute("rx.elements") == "2")
            #expect(span.attribute("rx.end") == "completed")
        }
    }

    /// `flatMap`'s inner subscriptions are spans of their own, children of the request too (they
    /// are made while an element of the outer one is delivered, with its context bound).
    @Test func innerSubscriptionsAreSpansOfTheRequest() throws {
        try withSpans { memory, _ in
            let request = memory.startSpan("request")
            let source = PublishSubject<Int>()
            let subscription = ServiceContext.withValue(request.context) {
                source.flatMap { value in Observable.of(value, value + 1) }.subscribe(onNext: { _ in })
            }
            request.end()
            source.onNext(10)
            source.onNext(20)
            source.onCompleted()
            subscription.dispose()
            let names = memory.finishedSpans.map(\.operationName)
            #expect(names.filter { $0.hasPrefix("ObservableSequence @ ") }.count == 2)
            let outer = try #require(
                memory.finishedSpans.first { $0.operationName.hasPrefix("PublishSubject → FlatMap") })
            #expect(outer.attribute("rx.elements") == "4")
            #expect(outer.attribute("rx.end") == "completed")
            for span in memory.finishedSpans where span.operationName != "request" {
                #expect(span.traceID == request.traceID && span.parentSpanID == request.spanID, "\(span.operationName)")
            }
            for inner in memory.finishedSpans where inner.operationName.hasPrefix("ObservableSequence @ ") {
                #expect(inner.attribute("rx.observer") == "MergeInnerObserver")
                #expect(inner.attribute("rx.elements") == "2")
            }
        }
    }

    /// So are `concatMap`'s and `flatMapLatest`'s inner subscriptions and `catch`'s fallback, each
    /// made while an event of the subscription is delivered.
    @Test func concatMapSwitchAndCatchMakeSpansOfTheirOwn() throws {
        try withSpans { memory, _ in
            let request = memory.startSpan("request")
            let source = PublishSubject<Int>()
            let line = #line + 3
            let subscriptions = ServiceContext.withValue(request.context) {
                [
                    source.concatMap { Observable.of($0, $0) }.subscribe(onNext: { _ in }),
                    source.flatMapLatest { Observable.of($0) }.subscribe(onNext: { _ in }),
                    Observable<Int>.error(Failure(reason: "no")).catch { _ in .of(1, 2, 3) }.subscribe { _ in },
                ]
            }
            request.end()
            source.onNext(1)
            source.onNext(2)
            source.onCompleted()
            subscriptions.forEach { $0.dispose() }
            let spans = memory.finishedSpans.filter { $0.operationName != "request" }
            let described = spans.map {
                "\($0.operationName) \($0.attribute("rx.observer") ?? "") \($0.attribute("rx.elements") ?? "-")"
            }
            #expect(
                described.sorted() == [
                    "Error → Catch @ \(site(UInt(line + 2))) AnonymousObserver 3",
                    "ObservableSequence @ \(site(UInt(line))) MergeLimitedInnerObserver 2",
                    "ObservableSequence @ \(site(UInt(line))) MergeLimitedInnerObserver 2",
                    "ObservableSequence @ \(site(UInt(line + 1))) SwitchInnerObserver 1",
                    "ObservableSequence @ \(site(UInt(line + 1))) SwitchInnerObserver 1",
                    "ObservableSequence @ \(site(UInt(line + 2))) CatchSinkProxy 3",
                    "PublishSubject → ConcatMap @ \(site(UInt(line))) AnonymousObserver 4",
                    "PublishSubject → FlatMapLatest @ \(site(UInt(line + 1))) AnonymousObserver 2",
                ])
            #expect(spans.allSatisfy { $0.parentSpanID == request.spanID && $0.attribute("rx.end") == "completed" })
        }
    }

    /// What an operator subscribes as its own part of a subscription — `retry`'s second and third
    /// attempts, `concat`'s second source (subscribed by its sink when the first completes, as
    /// RxSwift's `ConcatSink` does), `subscribe(on:)`'s subscription on its scheduler, `zip`'s
    /// sources — is part of the same span.
    @Test func resubscriptionsBelongToTheSubscriptionsSpan() throws {
        try withSpans { memory, _ in
            let scheduler = TestScheduler(initialClock: 0)
            let request = memory.startSpan("request")
            var attempts = 0
            let flaky = Observable<Int>.create { observer in
                attempts += 1
                if attempts < 3 { observer.onError(Failure(reason: "try again")) } else { observer.onNext(7) }
                observer.onCompleted()
                return Disposables.create()
            }
            let relay = PublishRelay<Int>()
            let line = #line + 3
            let subscriptions = ServiceContext.withValue(request.context) {
                [
                    flaky.retry(5).subscribe(onNext: { _ in }),
                    Observable.of(1, 2).concat(Observable.of(3)).subscribe(onNext: { _ in }),
                    Observable.of(1, 2).subscribe(on: scheduler).subscribe(onNext: { _ in }),
                    Observable.zip(Observable.of(1, 2), Observable.of(3, 4)).subscribe(onNext: { _ in }),
                    Observable.of(5, 6).bind(to: relay),
                ]
            }
            scheduler.start()
            request.end()
            subscriptions.forEach { $0.dispose() }
            let spans = memory.finishedSpans.filter { $0.operationName != "request" }
            let described = spans.map {
                "\($0.operationName) \($0.attribute("rx.observer") ?? "") \($0.attribute("rx.elements") ?? "-")"
            }
            #expect(
                described.sorted() == [
                    "AnonymousObservable → Retry @ \(site(UInt(line))) AnonymousObserver 1",
                    "ObservableSequence @ \(site(UInt(line + 4))) AnonymousObserver 2",
                    "ObservableSequence → Concat @ \(site(UInt(line + 1))) AnonymousObserver 3",
                    "ObservableSequence → SubscribeOn @ \(site(UInt(line + 2))) AnonymousObserver 2",
                    "ObservableSequence → Zip @ \(site(UInt(line + 3))) AnonymousObserver 2",
                ])
            #expect(spans.allSatisfy { $0.parentSpanID == request.spanID && $0.attribute("rx.end") == "completed" })
            #expect(attempts == 3)
        }
    }

    /// An observer of the user's own (not one of the core's) gets a node from the core when a
    /// producer takes it, and with it a span counting what it receives.
    @Test func anObserverOfYourOwnIsASpan() throws {
        final class Collector: ObserverType {
            var received: [Int] = []
            func on(_ event: Event<Int>) { if case .next(let value) = event { received.append(value) } }
        }
        try withSpans { memory, _ in
            let collector = Collector()
            let line: UInt = #line
            _ = Observable.of(1, 2, 3).map { $0 * 2 }.subscribe(collector)
            _ = Observable.just(4).subscribe(collector)
            #expect(collector.received == [2, 4, 6, 4])
            let spans = memory.finishedSpans
            #expect(
                spans.map {
                    "\($0.operationName) \($0.attribute("rx.elements") ?? "-") \($0.attribute("rx.end") ?? "-")"
                }
                    == [
                        "ObservableSequence → Map @ \(site(line + 1)) 3 completed",
                        "Just @ \(site(line + 2)) 1 completed",
                    ])
            #expect(spans.allSatisfy { $0.attribute("rx.observer") == "Collector" })
        }
    }

    /// With no tracer given, spans go to `InstrumentationSystem.tracer`, looked up at `subscribe`:
    /// here the task-local one of a `withTracer` scope.
    @Test func spansGoToTheInstrumentationSystemsTracer() throws {
        let memory = InMemoryTracer()
        let spans = RxDistributedTracing.install()
        defer { RxDistributedTracing.uninstall() }
        withTracer(memory) {
            _ = Observable.of(1, 2).subscribe(onNext: { _ in })
        }
        #expect(memory.finishedSpans.map(\.operationName).first?.hasPrefix("ObservableSequence @ ") == true)
        #expect(eventually { spans.retainedNodes == 0 })
    }

    @Test func uninstallingEndsOpenSpans() throws {
        let memory = InMemoryTracer()
        let spans = RxDistributedTracing.install(tracer: memory)
        #expect(RxDistributedTracing.current === spans)
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(onNext: { _ in })
        #expect(memory.activeSpans.count == 1)
        RxDistributedTracing.uninstall()
        #expect(RxDistributedTracing.current == nil)
        #expect(Tracing.tracer == nil)
        #expect(memory.activeSpans.isEmpty)
        #expect(memory.finishedSpans.first?.attribute("rx.end") == "uninstalled")
        subscription.dispose()
    }

    /// Installed over a recorder (as under `RXTRACE`), the span tracer passes every call on: the
    /// recording is the one the recorder makes alone, and the spans are made as well.
    @Test func aRecorderUnderneathRecordsAsBefore() throws {
        func run() {
            let subject = PublishSubject<Int>()
            let subscription = subject.map { $0 * 2 }.filter { $0 > 2 }.subscribe(onNext: { _ in }, onError: { _ in })
            subject.onNext(1)
            subject.onNext(2)
            subject.onError(Failure(reason: "closed"))
            subscription.dispose()
        }
        func recorded(withSpans: Bool) -> TraceDocument {
            let recorder = TraceRecorder()
            Tracing.tracer = recorder
            defer { Tracing.tracer = nil }
            if withSpans { RxDistributedTracing.install(tracer: InMemoryTracer()) }
            run()
            if withSpans {
                #expect(RxDistributedTracing.current?.wrapped === recorder)
                RxDistributedTracing.uninstall()
                #expect(Tracing.tracer === recorder)
            }
            return recorder.snapshot()
        }
        let alone = recorded(withSpans: false)
        let underneath = recorded(withSpans: true)
        #expect(alone.nodes.map(\.type) == underneath.nodes.map(\.type))
        #expect(alone.edges.count == underneath.edges.count)
        #expect(alone.steps.map(\.call) == underneath.steps.map(\.call))
        #expect(
            alone.events.map { "\($0.node) \($0.kind) \($0.value ?? "")" }
                == underneath.events.map { "\($0.node) \($0.kind) \($0.value ?? "")" })
        #expect(underneath.events.contains { $0.kind == .error && $0.value == "Failure(closed)" })
    }
}
