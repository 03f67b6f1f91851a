import Foundation
import InMemoryTracing
import RxDistributedTracing
import RxTesting
import Testing
import Tracing

/// The `ServiceContext` current at `subscribe` is bound around every delivery of the
/// subscription, wherever the delivery comes from: a scheduler's thread, a timer, a subject fed
/// under another request, a callback. Each test subscribes inside request A and makes the
/// elements arrive outside it (or inside another request B), then reads which span is bound in
/// `onNext`.
@Suite(.serialized, .noLeaks) struct ContextTests {
    /// `delay` and `interval` on a `TestScheduler`: the subscription is made inside request A, the
    /// clock is then run outside it. Whole histories, as RxTest records them.
    @Test func delayAndTimersOnVirtualTime() {
        withSpans { memory, _ in
            let scheduler = TestScheduler(initialClock: 0)
            let request = memory.startSpan("A")
            let seen = Locked<[Recorded<Event<String>>]>([])
            let record: (Int) -> Void = { _ in seen.withLock { $0.append(.next(scheduler.clock, boundSpanID)) } }
            let subscriptions = ServiceContext.withValue(request.context) {
                [
                    Observable.of(1, 2).delay(.seconds(100), scheduler: scheduler).subscribe(onNext: record),
                    Observable<Int>.interval(.seconds(300), scheduler: scheduler).take(2).subscribe(onNext: record),
                    Observable<Int>.timer(.seconds(50), scheduler: scheduler).subscribe(onNext: record),
                ]
            }
            request.end()
            #expect(boundSpanID == "-")
            scheduler.advanceTo(1000)
            let a = request.spanID
            #expect(seen.current == [.next(50, a), .next(100, a), .next(101, a), .next(300, a), .next(600, a)])
            subscriptions.forEach { $0.dispose() }
        }
    }

    /// A subject fed under request B (and under none) delivers to A's subscriber with A bound,
    /// and to B's with B: each subscriber's own context, not the sender's.
    @Test func subjectsDeliverInTheSubscribersContext() {
        withSpans { memory, _ in
            let subject = PublishSubject<Int>()
            let a = memory.startSpan("A")
            let b = memory.startSpan("B")
            let seen = Locked<[String]>([])
            let first = ServiceContext.withValue(a.context) {
                subject.map { $0 + 1 }.subscribe(onNext: { value in
                    seen.withLock { $0.append("A \(value) in \(boundSpanID)") }
                })
            }
            let second = ServiceContext.withValue(b.context) {
                subject.subscribe(onNext: { value in seen.withLock { $0.append("B \(value) in \(boundSpanID)") } })
            }
            ServiceContext.withValue(b.context) { subject.onNext(1) }
            subject.onNext(2)
            #expect(
                seen.current == [
                    "A 2 in \(a.spanID)", "B 1 in \(b.spanID)", "A 3 in \(a.spanID)", "B 2 in \(b.spanID)",
                ])
            first.dispose()
            second.dispose()
            a.end()
            b.end()
        }
    }

    /// Real threads: `observe(on:)`, `subscribe(on:)`, `delay` and `interval` on dispatch queues, and
    /// a `create` whose callback comes from another thread.
    @Test(arguments: Route.allCases) func deliveriesOnOtherThreads(_ route: Route) {
        withSpans { memory, _ in
            let request = memory.startSpan("A")
            let seen = Locked<[String]>([])
            let finished = Countdown()
            let subscription = ServiceContext.withValue(request.context) {
                route.observable().subscribe(
                    onNext: { value in seen.withLock { $0.append("\(value) \(boundSpanID)") } },
                    onCompleted: { finished.done() })
            }
            request.end()
            #expect(finished.wait(for: 1), "\(route): not completed within 5 s")
            let a = request.spanID
            #expect(seen.current == ["1 \(a)", "2 \(a)", "3 \(a)"], "\(route)")
            subscription.dispose()
            // The span of the subscription itself is the request's child.
            let span = memory.finishedSpans.first { $0.operationName != "A" }
            #expect(span?.parentSpanID == a, "\(route)")
            #expect(span?.attribute("rx.elements") == "3", "\(route)")
        }
    }

    enum Route: String, CaseIterable, CustomTestStringConvertible {
        case observeOn, subscribeOn, delay, interval, callback, subjectFromAnotherThread
        var testDescription: String { rawValue }

        func observable() -> Observable<Int> {
            let serial = SerialDispatchQueueScheduler(qos: .default)
            let concurrent = ConcurrentDispatchQueueScheduler(
                queue: DispatchQueue(label: "rx", attributes: .concurrent))
            switch self {
            case .observeOn:
                return Observable.of(1, 2, 3).observe(on: serial)
            case .subscribeOn:
                // `create`'s handler itself runs on the scheduler's thread with the context bound.
                return Observable<Int>.create { observer in
                    let bound = boundSpanID
                    for value in 1...3 { observer.onNext(bound == "-" ? -value : value) }
                    observer.onCompleted()
                    return Disposables.create()
                }
                .subscribe(on: concurrent)
            case .delay:
                return Observable.of(1, 2, 3).delay(.milliseconds(5), scheduler: serial)
            case .interval:
                return Observable<Int>.interval(.milliseconds(2), scheduler: serial).map { $0 + 1 }.take(3)
            case .callback:
                return Observable<Int>.create { observer in
                    DispatchQueue.global().async {
                        for value in 1...3 { observer.onNext(value) }
                        observer.onCompleted()
                    }
                    return Disposables.create()
                }
            case .subjectFromAnotherThread:
                let subject = ReplaySubject<Int>.create(bufferSize: 3)
                return Observable.deferred {
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
                        for value in 1...3 { subject.onNext(value) }
                        subject.onCompleted()
                    }
                    return subject.asObservable()
                }
            }
        }
    }

    /// A span a user makes in `onNext` is a child of the request that subscribed, though the
    /// element arrives on another thread (`withSpan`, the global one, through a `withTracer` scope
    /// would not reach that thread: the in-memory tracer is named).
    @Test func spansMadeInOnNextAreChildrenOfTheRequest() throws {
        try withSpans { memory, _ in
            let request = memory.startSpan("A")
            let finished = Countdown()
            let subscription = ServiceContext.withValue(request.context) {
                Observable.of("lime", "mint").observe(on: SerialDispatchQueueScheduler(qos: .default))
                    .subscribe(
                        onNext: { name in memory.withSpan("muddle \(name)") { _ in } },
                        onCompleted: { finished.done() })
            }
            request.end()
            #expect(finished.wait(for: 1))
            subscription.dispose()
            for name in ["muddle lime", "muddle mint"] {
                let span = try #require(memory.finishedSpans.first { $0.operationName == name })
                #expect(span.traceID == request.traceID)
                #expect(span.parentSpanID == request.spanID)
            }
        }
    }

    /// Many requests at once, each subscribing on a concurrent queue and receiving through
    /// `observe(on:)` on a shared serial one: each `onNext` sees its own request.
    @Test func concurrentRequestsKeepTheirOwnContexts() {
        withSpans { memory, _ in
            let shared = SerialDispatchQueueScheduler(qos: .default)
            let mismatches = Locked<[String]>([])
            let finished = Countdown()
            let subscriptions = Locked<[Disposable]>([])
            let requests = (0..<40).map { memory.startSpan("request \($0)") }
            DispatchQueue.concurrentPerform(iterations: requests.count) { index in
                let request = requests[index]
                let subscription = ServiceContext.withValue(request.context) {
                    Observable.of(1, 2, 3).observe(on: shared).map { $0 * index }
                        .subscribe(
                            onNext: { _ in
                                if boundSpanID != request.spanID {
                                    mismatches.withLock { $0.append("\(index): \(boundSpanID)") }
                                }
                            },
                            onCompleted: { finished.done() })
                }
                subscriptions.withLock { $0.append(subscription) }
            }
            #expect(finished.wait(for: requests.count))
            #expect(mismatches.current.isEmpty)
            subscriptions.current.forEach { $0.dispose() }
            requests.forEach { $0.end() }
            #expect(memory.finishedSpans.filter { $0.operationName.contains("ObserveOn") }.count == requests.count)
        }
    }
}
