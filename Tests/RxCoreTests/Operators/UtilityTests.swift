import Foundation
import RxTesting
import Synchronization
import Testing

@testable import RxCore

private struct Failure: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { "Failure(\(name))" }
}

@Suite(.serialized, .noLeaks)
struct DoTests {
    @Test func callsEachClosureAroundTheEventItWatches() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        var log: [String] = []
        let res = scheduler.start {
            xs.do(
                onNext: { log.append("onNext \($0) @\(scheduler.clock)") },
                afterNext: { log.append("afterNext \($0)") },
                onError: { _ in log.append("onError") },
                onCompleted: { log.append("onCompleted @\(scheduler.clock)") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe @\(scheduler.clock)") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose @\(scheduler.clock)") }
            )
            .do(onNext: { log.append("downstream \($0)") })
        }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(
            log == [
                "onSubscribe @200", "onSubscribed",
                "onNext 1 @210", "downstream 1", "afterNext 1",
                "onNext 2 @220", "downstream 2", "afterNext 2",
                // As in RxSwift: the downstream sink disposes the chain on completion, before
                // control returns here for `afterCompleted`.
                "onCompleted @230", "onDispose @230", "afterCompleted",
            ])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func errorClosuresSeeTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, Failure())])
        var log: [String] = []
        let res = scheduler.start {
            xs.do(
                onError: { log.append("onError \($0)") }, afterError: { log.append("afterError \($0)") },
                onDispose: { log.append("onDispose") })
        }
        #expect(res.events == [.next(210, 1), .error(230, Failure())])
        #expect(log == ["onError Failure(boom)", "afterError Failure(boom)", "onDispose"])
    }

    @Test func aThrowingClosureBecomesAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.do(onNext: { if $0 == 2 { throw Failure("do") } }) }
        #expect(res.events == [.next(210, 1), .error(220, Failure("do"))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func onDisposeRunsOnEarlyDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(320, 2)])
        var disposedAt: [Int] = []
        let res = scheduler.start(disposed: 300) { xs.do(onDispose: { disposedAt.append(scheduler.clock) }) }
        #expect(res.events == [.next(210, 1)])
        #expect(disposedAt == [300])
    }
}

/// Collects `debug` lines while `body` runs.
private func debugLines(_ body: () -> Void) -> [String] {
    let lines = Mutex<[String]>([])
    let collect: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    DebugOutput.redirect(collect)
    defer { DebugOutput.redirect(nil) }
    body()
    return lines.withLock { $0 }
}

/// `2026-11-21 20:15:03.120: ` → the rest of the line.
private func withoutTimestamp(_ line: String) -> String {
    let parts = line.split(separator: ": ", maxSplits: 1)
    return parts.count == 2 ? String(parts[1]) : line
}

@Suite(.serialized, .noLeaks)
struct DebugTests {
    @Test func printsRxSwiftsShapeWithASubscriptionNumber() throws {
        let lines = debugLines {
            _ = Observable.of(1, 2).debug("numbers").subscribe()
        }
        #expect(lines.count == 5)
        let stamp = try #require(lines.first?.split(separator: ": ").first)
        // yyyy-MM-dd HH:mm:ss.SSS
        #expect(stamp.count == 23)
        #expect(stamp.contains("-") && stamp.contains(":") && stamp.contains("."))
        let bodies = lines.map(withoutTimestamp)
        let number = try #require(bodies.first?.split(separator: " ")[1])
        #expect(number.hasPrefix("#"))
        #expect(
            bodies == [
                "numbers \(number) -> subscribed",
                "numbers \(number) -> Event next(1)",
                "numbers \(number) -> Event next(2)",
                "numbers \(number) -> Event completed",
                "numbers \(number) -> isDisposed",
            ])
    }

    @Test func theDefaultIdentifierIsTheCallSiteAndFunction() {
        let lines = debugLines {
            _ = Observable.just(1).debug().subscribe()
        }
        let line = #line - 2
        #expect(
            lines.first.map(withoutTimestamp)?.hasPrefix(
                "UtilityTests.swift:\(line) (theDefaultIdentifierIsTheCallSiteAndFunction()) #") == true)
    }

    @Test func concurrentSubscriptionsGetDistinctNumbers() {
        let lines = debugLines {
            let subject = PublishSubject<Int>()
            let debugged = subject.debug("shared")
            let a = debugged.subscribe()
            let b = debugged.subscribe()
            subject.onNext(7)
            a.dispose()
            b.dispose()
        }
        let numbers = lines.map { withoutTimestamp($0).split(separator: " ")[1] }
        let subscribed = lines.filter { $0.hasSuffix("-> subscribed") }.map {
            withoutTimestamp($0).split(separator: " ")[1]
        }
        #expect(subscribed.count == 2)
        #expect(Set(subscribed).count == 2)
        #expect(Set(numbers) == Set(subscribed))
        #expect(lines.filter { $0.hasSuffix("-> Event next(7)") }.count == 2)
        #expect(lines.filter { $0.hasSuffix("-> isDisposed") }.count == 2)
    }

    @Test func trimOutputShortensLongEvents() {
        let long = String(repeating: "a", count: 100)
        let lines = debugLines {
            _ = Observable.just(long).debug("t", trimOutput: true).subscribe()
        }
        let event = lines.map(withoutTimestamp).first { $0.contains("Event next") }
        let text = "next(" + long + ")"
        let expected = String(text.prefix(20)) + "..." + String(text.suffix(20))
        #expect(event?.hasSuffix("-> Event \(expected)") == true)
    }

    @Test func showsTheErrorAndTheDisposalOfAnEarlyDispose() {
        let lines = debugLines {
            let subject = PublishSubject<Int>()
            let d = subject.debug("e").subscribe(onError: { _ in })
            subject.onError(Failure())
            d.dispose()
            let subject2 = PublishSubject<Int>()
            subject2.debug("d").subscribe().dispose()
        }.map(withoutTimestamp)
        #expect(
            lines.filter { $0.hasPrefix("e ") }.map { $0.components(separatedBy: " -> ")[1] } == [
                "subscribed", "Event error(Failure(boom))", "isDisposed",
            ])
        #expect(
            lines.filter { $0.hasPrefix("d ") }.map { $0.components(separatedBy: " -> ")[1] } == [
                "subscribed", "isDisposed",
            ])
    }
}

/// A tracer that only hands out node ids and remembers which types got which.
private final class IDTracer: RxTracer, @unchecked Sendable {
    private let state = Mutex<(next: UInt64, types: [UInt64: String])>((1, [:]))
    func node(kind: TraceNodeKind, type: String, callSite: CallSite?) -> UInt64 {
        state.withLock { state in
            defer { state.next += 1 }
            state.types[state.next] = type
            return state.next
        }
    }
    func type(of id: UInt64) -> String? { state.withLock { $0.types[id] } }
    func edge(from: UInt64, to: UInt64, relation: TraceRelation) {}
    func step(_ call: TraceCall, from: UInt64, to: UInt64, detail: String?) {}
    func event(node: UInt64, kind: TraceEventKind, value: String?) {}
    func disposed(_ node: UInt64) {}
    func deinitialized(_ node: UInt64) {}
    func anomaly(node: UInt64, _ kind: TraceAnomaly, detail: String) {}
}

@Suite(.serialized)
struct DebugTracingTests {
    @Test func whileTracingEachLineNamesTheDebugSinksNode() throws {
        let tracer = IDTracer()
        Tracing.tracer = tracer
        defer { Tracing.tracer = nil }
        let lines = debugLines {
            _ = Observable.just(1).debug("traced").subscribe()
        }.map(withoutTimestamp)
        #expect(lines.count == 4)
        let first = try #require(lines.first)
        // "traced #N node:ID -> subscribed"
        let parts = first.split(separator: " ")
        let node = try #require(parts.first { $0.hasPrefix("node:") })
        let id = try #require(UInt64(node.dropFirst("node:".count)))
        #expect(tracer.type(of: id) == "DebugSink")
        #expect(lines.allSatisfy { $0.contains(" \(node) -> ") })
    }
}

@Suite(.serialized, .noLeaks)
struct DelayTests {
    @Test func shiftsElementsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(250, 2), .completed(300)])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(310, 1), .next(350, 2), .completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func anErrorIsPassedOnAtOnceAndDropsWaitingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .error(260, Failure())])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.error(260, Failure())])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    /// RxSwift's timer delivers one event, then is set again for the next: events that arrived
    /// together leave one scheduling step (a tick of virtual time) apart.
    @Test func eventsThatArriveTogetherLeaveOneTickApart() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .completed(210), .next(250, 3)])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        #expect(res.events == [.next(220, 1), .next(221, 2), .completed(222)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func anErrorAfterSomeDeliveriesCutsTheRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .error(320, Failure())])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(310, 1), .error(320, Failure())])
    }

    @Test func disposalDropsWhatIsWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(260)])
        let res = scheduler.start(disposed: 330) { xs.delay(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(310, 1)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func delaySubscriptionSubscribesLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(240, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(230, 250)])
    }

    @Test func delaySubscriptionDisposedBeforeTheDueTimeNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start(disposed: 220) { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        #expect(res.events.isEmpty)
        #expect(xs.subscriptions.isEmpty)
    }
}

private final class TestResource: Disposable {
    var disposed = 0
    func dispose() { disposed += 1 }
}

@Suite(.serialized, .noLeaks)
struct UsingTests {
    @Test func theResourceLivesAsLongAsTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        var resources: [TestResource] = []
        var xs: TestableObservable<Int>?
        let res = scheduler.start {
            Observable<Int>.using(
                { () -> TestResource in
                    let resource = TestResource()
                    resources.append(resource)
                    return resource
                },
                observableFactory: { _ in
                    let cold = scheduler.createColdObservable([.next(10, 1), .completed(50)])
                    xs = cold
                    return cold.asObservable()
                })
        }
        #expect(res.events == [.next(210, 1), .completed(250)])
        #expect(resources.count == 1)
        #expect(resources.first?.disposed == 1)
        #expect(xs?.subscriptions == [Subscription(200, 250)])
        xs = nil
    }

    @Test func aThrowingFactoryFailsAndStillDisposesTheResource() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = TestResource()
        let res = scheduler.start {
            Observable<Int>.using({ resource }, observableFactory: { _ in throw Failure("factory") })
        }
        #expect(res.events == [.error(200, Failure("factory"))])
        #expect(resource.disposed == 1)
    }

    @Test func disposalDisposesTheResource() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = TestResource()
        let res = scheduler.start(disposed: 300) {
            Observable<Int>.using({ resource }, observableFactory: { _ in .never() })
        }
        #expect(res.events.isEmpty)
        #expect(resource.disposed == 1)
    }
}

@Suite(.serialized, .noLeaks)
struct SchedulingOperatorTests {
    @Test func observeOnDeliversThroughTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        // The test scheduler runs work scheduled "now" one tick later, as RxTest does.
        #expect(res.events == [.next(211, 1), .next(221, 2), .completed(251)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func observeOnPassesErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, Failure())])
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events == [.next(211, 1), .error(251, Failure())])
    }

    @Test func observeOnDisposedDropsWhatIsQueued() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        let res = scheduler.start(disposed: 300) { xs.observe(on: scheduler) }
        #expect(res.events == [.next(211, 1)])
    }

    @Test func subscribeOnSubscribesAndDisposesThroughTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let res = scheduler.start(disposed: 300) { xs.subscribe(on: scheduler) }
        #expect(res.events == [.next(210, 1), .next(260, 2)])
        #expect(xs.subscriptions == [Subscription(201, 301)])
    }

    @Test func subscribeOnPassesStopEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [.next(210, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(201, 251)])
    }

    /// An observer that sends into the same subject from its `onNext` (re-entrancy): events
    /// still arrive in order, one at a time.
    @Test func observeOnSerialisesReentrantEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        var depth = 0
        var maxDepth = 0
        let d = subject.observe(on: scheduler)
            .do(onNext: { value in
                depth += 1
                maxDepth = max(maxDepth, depth)
                if value < 3 { subject.onNext(value + 1) }
                depth -= 1
            })
            .subscribe(observer)
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.start()
        d.dispose()
        #expect(observer.events == [.next(211, 1), .next(212, 2), .next(213, 3)])
        #expect(maxDepth == 1)
    }

    /// A consumer that never quite catches up (one event always waiting behind the one being
    /// delivered, so the queue never empties) must not make the queue keep every event it has
    /// delivered: the soak grew 16 bytes per event this way, and each element stayed alive.
    @Test func observeOnLetsGoOfDeliveredEventsUnderASteadyBacklog() {
        let scheduler = StepScheduler()
        let subject = PublishSubject<Token>()
        let live = LiveTokens()
        var received = 0
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { _ in received += 1 })
        subject.onNext(Token(live))
        for _ in 0..<10_000 {
            subject.onNext(Token(live))
            #expect(scheduler.pending == 1)
            scheduler.runOne()
        }
        #expect(received == 10_000)
        // The one waiting, plus the delivered ones not yet compacted away (at most a few dozen);
        // a queue that only shrinks when empty holds all 10,001.
        #expect(live.count <= 64)
        subscription.dispose()
        scheduler.runAll()
        #expect(live.count == 0)
    }

    @available(*, deprecated)
    @Test func deprecatedSpellingsBehaveTheSame() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.subscribeOn(scheduler).observeOn(scheduler) }
        #expect(res.events == [.next(211, 1), .completed(251)])
    }
}

/// Runs what is scheduled on it only when asked, one action at a time, in order.
private final class StepScheduler: ImmediateSchedulerType {
    private var actions: [() -> Void] = []

    var pending: Int { actions.count }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        actions.append {
            if !cancel.isDisposed { cancel.setDisposable(action(state)) }
        }
        return cancel
    }

    func runOne() { actions.removeFirst()() }

    func runAll() { while !actions.isEmpty { runOne() } }
}
