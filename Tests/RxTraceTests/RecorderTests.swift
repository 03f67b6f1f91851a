import Foundation
import RxTesting
import RxTrace
import Testing

/// A minimal converter so a `VirtualTimeScheduler` counts in integer ticks.
struct TickConverter: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: Int) -> RxTime { Date(timeIntervalSince1970: Double(virtualTime)) }
    func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.timeIntervalSince1970) }
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        TimeInterval(virtualTimeInterval)
    }
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int(timeInterval) }
    func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
    func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}

/// An observable that breaks the grammar on purpose: `completed`, then `next`.
struct Ungrammatical: ObservableType {
    typealias Element = Int
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        observer.on(.completed)
        observer.on(.next(1))
        return Disposables.create()
    }
    func asObservable() -> Observable<Int> { Observable.create { self.subscribe($0) } }
}

final class ObserverBox<Element>: @unchecked Sendable {
    var observer: AnyObserver<Element>?
    init(_ observer: AnyObserver<Element>) { self.observer = observer }
}

@Suite(.serialized) struct RecorderTests {
    let file = "RecorderTests.swift"

    /// 001 without `d.dispose()`: nodes 2–6 stay alive, and the leak names line 5 (and the
    /// handler's disposable at line 3).
    @Test func undisposedSubscriptionIsALeakWithItsCallSite() throws {
        var l3: UInt = 0, l5: UInt = 0
        var kept: Disposable?
        let before = Resources.snapshot()
        let trace = Trace.record {
            let observable = Observable<String>.create { observer in
                observer.onNext("mojito")
                l3 = #line; return Disposables.create()
            }
            l5 = #line; kept = observable.subscribe(onNext: { _ in })
        }
        let report = Trace.leaks(in: trace)
        #expect(report.nodes.map(\.id) == [2, 3, 4, 5, 6])
        #expect(report.groups.map(\.callSite) == ["\(file):\(l5)", "\(file):\(l3)"])
        #expect(
            report.groups.first?.nodes.map(\.type) == [
                "AnonymousObserver", "SinkDisposer", "AnonymousObservableSink", "BinaryDisposable",
            ])
        #expect(report.groups.first?.fileID == "RxTraceTests/\(file)")
        #expect(report.rootDisposables.map(\.id) == [6])
        // One root, the disposable `subscribe` returned, holding all five.
        #expect(report.roots.map(\.node.id) == [6] && report.roots.first?.cause == .disposable)
        #expect(report.roots.first?.held.map(\.id) == [2, 3, 4, 5, 6])
        // Read back from the file, the same report.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("leak-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try trace.write(to: url)
        #expect(Trace.leaks(in: try TraceDocument.read(from: url)) == report)
        #expect(Trace.summary(of: trace).description.contains("leaked: 5 nodes at 2 call sites"))

        kept?.dispose()
        kept = nil
        #expect(Resources.snapshot().grown(since: before).isEmpty)
        #expect(Tracing.tracer == nil)
    }

    /// A subscription to a subject that is never disposed leaks; one that completed
    /// synchronously does not, even while its disposable is still referenced.
    @Test func leaksAreOnlyWhatIsStillSubscribed() {
        let subject = PublishSubject<Int>()
        var kept: [Disposable] = []
        var lOpen: UInt = 0
        let before = Resources.snapshot()
        let trace = Trace.record {
            lOpen = #line; kept.append(subject.map { $0 + 1 }.subscribe(onNext: { _ in }))
            kept.append(Observable.of(1, 2, 3).map { $0 }.subscribe(onNext: { _ in })) // completes at once
            kept.append(Observable.just(1).subscribe(onNext: { _ in }))
        }
        let report = Trace.leaks(in: trace)
        #expect(report.groups.map(\.callSite) == ["\(file):\(lOpen)"])
        #expect(
            Set(report.nodes.map(\.type)) == [
                "AnonymousObserver", "SinkDisposer", "MapSink", "SubscriptionDisposable", "BinaryDisposable",
            ])
        subject.onCompleted()
        kept.forEach { $0.dispose() }
        kept = []
        #expect(Resources.snapshot().grown(since: before).isEmpty)
        #expect(Tracing.tracer == nil)
    }

    @Test func jsonRoundTripIsLossless() throws {
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = BehaviorSubject(value: "a \"quoted\" value\nwith a newline")
                let d = subject.map { $0.uppercased() }.filter { !$0.isEmpty }.subscribe(
                    onNext: { _ in }, onError: { _ in })
                subject.onError(RxError.unknown)
                d.dispose()
            }
        }
        #expect(!trace.nodes.isEmpty && !trace.steps.isEmpty && !trace.events.isEmpty && !trace.resources.isEmpty)
        let decoded = try TraceDocument.decode(try trace.jsonData(pretty: true))
        #expect(decoded == trace)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("roundtrip-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try trace.write(to: url)
        #expect(try TraceDocument.read(from: url) == trace)
        #expect(try TraceDocument.read(from: url).jsonData() == trace.jsonData())

        // Writing again replaces the file whole, and leaves no temporary file behind.
        let smaller = TraceDocument(meta: ["run": "second"])
        try smaller.write(to: url)
        #expect(try TraceDocument.read(from: url) == smaller)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.contains(url.lastPathComponent) && $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    /// Steps and events are kept in rings: the newest are kept, the rest counted.
    @Test func ringKeepsTheNewestAndCountsTheDropped() {
        func run(_ options: TraceRecorder.Options) -> TraceDocument {
            checkingNoLeaks {
                Trace.record(options: options) {
                    let d = Observable.range(start: 0, count: 100).map { $0 * 2 }.subscribe(onNext: { _ in })
                    d.dispose()
                }
            }
        }
        let full = run(TraceRecorder.Options())
        let small = run(TraceRecorder.Options(ringCapacity: 10, resourceCapacity: 5))
        #expect(full.dropped == DroppedCounts())
        #expect(small.steps.count == 10)
        #expect(small.events.count == 10)
        #expect(small.resources.count == 5)
        #expect(small.dropped.steps == full.steps.count - 10)
        #expect(small.dropped.events == full.events.count - 10)
        #expect(small.dropped.resources == full.resources.count - 5)
        #expect(small.steps.map(\.call) == full.steps.suffix(10).map(\.call))
        #expect(small.steps.map(\.seq) == full.steps.suffix(10).map(\.seq))
        #expect(small.events.map(\.value) == full.events.suffix(10).map(\.value))
        // Nodes and edges are all kept (the same, from two runs: but for their times).
        #expect(small.nodes.map(\.withoutTimes) == full.nodes.map(\.withoutTimes))
        #expect(small.edges == full.edges)
        // Keeping only the graph: no steps, no events, termination still on the nodes.
        let graph = run(TraceRecorder.Options(keep: .graph))
        #expect(graph.steps.isEmpty && graph.events.isEmpty && graph.dropped == DroppedCounts())
        #expect(graph.nodes.map(\.type) == full.nodes.map(\.type))
        #expect(graph.nodes.contains { $0.type == "AnonymousObserver" && $0.terminated != nil })
    }

    @Test func longValuesAreTruncated() {
        let trace = checkingNoLeaks {
            Trace.record(options: TraceRecorder.Options(valueLimit: 8)) {
                let d = Observable.just(String(repeating: "x", count: 50)).subscribe(onNext: { _ in })
                d.dispose()
            }
        }
        let values = trace.events.compactMap(\.value)
        #expect(values == ["xxxxxxx…"])
        #expect(trace.steps.contains { $0.detail == "next(xxxxxxx…)" })
    }

    /// Plain values (no references, up to three words) are kept as copies and described when the
    /// trace is read; anything else is described when recorded. Either way the trace shows the
    /// element as it was when it passed.
    @Test func valuesAreDescribedAsTheyWereWhenRecorded() {
        struct Point: Equatable { var x: Int; var y: Double }
        final class Box: CustomStringConvertible {
            var value: Int
            init(_ value: Int) { self.value = value }
            var description: String { "Box(\(value))" }
        }
        let box = Box(1)
        let trace = checkingNoLeaks {
            Trace.record(options: TraceRecorder.Options(valueLimit: 12)) {
                let points = Observable.of(Point(x: 1, y: 2.5), Point(x: -3, y: 0)).map { $0 }.subscribe(onNext: { _ in
                })
                points.dispose()
                let big = Observable.just((1, 2, 3, 4)).subscribe(onNext: { _ in })
                big.dispose()
                let boxes = Observable.of(box).map { $0 }.subscribe(onNext: { $0.value = 2 })
                boxes.dispose()
                let long = Observable.just(1.0 / 3.0).subscribe(onNext: { _ in })
                long.dispose()
            }
        }
        let values = trace.events.compactMap(\.value)
        #expect(
            values.filter { $0.hasPrefix("Point") } == [
                "Point(x: 1,…", "Point(x: 1,…", "Point(x: -3…", "Point(x: -3…",
            ])
        #expect(values.contains("(1, 2, 3, 4)"))
        // Recorded before the observer changed it: described then, not at snapshot.
        #expect(values.filter { $0.hasPrefix("Box") } == ["Box(1)", "Box(1)"], "\(values)")
        #expect(box.value == 2)
        #expect(values.contains("0.333333333…"))
        #expect(trace.steps.contains { $0.detail == "next(Point(x: -3…)" })
    }

    /// Long descriptions are kept beside the ring and go with the records the ring lets go.
    @Test func longValuesSurviveTheRingWrapping() {
        let words = (0..<20).map { "element number \($0) of twenty, described at length" }
        let trace = checkingNoLeaks {
            Trace.record(options: TraceRecorder.Options(ringCapacity: 6)) {
                let d = Observable.from(words).map { $0 }.subscribe(onNext: { _ in })
                d.dispose()
            }
        }
        #expect(trace.events.count == 6)
        #expect(trace.dropped.events > 0)
        // The newest events: the last elements (each on the map sink and the observer), then
        // the completions.
        let values = trace.events.compactMap(\.value)
        #expect(!values.isEmpty)
        #expect(values.allSatisfy { words.suffix(3).contains($0) })
        #expect(
            trace.steps.compactMap(\.detail).filter { $0.hasPrefix("next(") }.allSatisfy { detail in
                words.suffix(3).contains { detail == "next(\($0))" }
            })
    }

    @Test func eventAfterTerminationIsAnAnomaly() {
        let trace = checkingNoLeaks {
            Trace.record {
                let d = Ungrammatical().subscribe(AnonymousObserver<Int> { _ in })
                d.dispose()
            }
        }
        let observer = trace.nodes.first { $0.type == "AnonymousObserver" }
        #expect(observer?.anomalies.map(\.kind) == [.eventAfterTermination])
        #expect(observer?.anomalies.first?.detail == "next(1)")
    }

    /// An observer that makes its own source emit again, from inside `onNext`.
    @Test func reentrantOnIsAnAnomaly() {
        var received: [Int] = []
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                let d = subject.map { $0 }.subscribe(onNext: { value in
                    received.append(value)
                    if value == 1 { subject.onNext(2) }
                })
                subject.onNext(1)
                d.dispose()
            }
        }
        #expect(received == [1, 2])
        let anomalies = trace.nodes.flatMap { node in node.anomalies.map { (node.type, $0.kind) } }
        #expect(anomalies.count == 1)
        #expect(anomalies.first?.0 == "AnonymousObserver")
        #expect(anomalies.first?.1 == .reentrantOn)
    }

    /// Two threads inside one observer's `on` at once.
    @Test func concurrentOnIsAnAnomaly() {
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let trace = checkingNoLeaks {
            Trace.record {
                let observable = Observable<Int>.create { observer in
                    let box = ObserverBox(observer)
                    Thread.detachNewThread {
                        box.observer?.onNext(1)
                        box.observer = nil
                        done.signal()
                    }
                    inside.wait()
                    observer.onNext(2)
                    done.wait()
                    return Disposables.create()
                }
                let d = observable.subscribe(onNext: { value in
                    if value == 1 {
                        inside.signal()
                        _ = release.wait(timeout: .now() + 10)
                    } else {
                        release.signal()
                    }
                })
                d.dispose()
            }
        }
        let anomalies = trace.nodes.flatMap { node in node.anomalies.map { (node.type, $0.kind) } }
        #expect(anomalies.count == 1)
        #expect(anomalies.first?.0 == "AnonymousObserver")
        #expect(anomalies.first?.1 == .concurrentOn)
        #expect(Set(trace.events.compactMap(\.thread)).count == 2)
    }

    /// A subscriber of a subject that makes the subject emit again from inside `onNext`: the
    /// observer reports the re-entrant `on` itself, with no sink in between.
    @Test func reentrantOnThroughASubjectIsAnAnomaly() {
        var received: [Int] = []
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                let d = subject.subscribe(onNext: { value in
                    received.append(value)
                    if value == 1 { subject.onNext(2) }
                })
                subject.onNext(1)
                d.dispose()
            }
        }
        #expect(received == [1, 2])
        let anomalies = trace.nodes.flatMap { node in node.anomalies.map { (node.type, $0.kind) } }
        #expect(anomalies.count == 1)
        #expect(anomalies.first?.0 == "AnonymousObserver")
        #expect(anomalies.first?.1 == .reentrantOn)
    }

    /// The same with a subscriber of the user's own (not an `ObserverBase`): it is a node too,
    /// and the subject's hop, which delivers to it, reports it there.
    @Test func reentrantOnIntoAnObserverOfYourOwnIsReportedOnIt() {
        final class Echo: ObserverType {
            var subject: PublishSubject<Int>?
            var received: [Int] = []
            func on(_ event: Event<Int>) {
                guard case .next(let value) = event else { return }
                received.append(value)
                if value == 1 { subject?.onNext(2) }
            }
        }
        let echo = Echo()
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                echo.subject = subject
                let d = subject.subscribe(echo)
                subject.onNext(1)
                d.dispose()
                echo.subject = nil
            }
        }
        #expect(echo.received == [1, 2])
        let anomalies = trace.nodes.flatMap { node in node.anomalies.map { (node.type, $0.kind, $0.detail) } }
        #expect(anomalies.count == 1)
        #expect(anomalies.first?.0 == "Echo")
        #expect(anomalies.first?.1 == .reentrantOn)
        #expect(anomalies.first?.2.contains("(from subject ") == true)
    }

    /// Two threads calling one observer's `on` directly, no sink or subject in between.
    @Test func concurrentOnIntoAnObserverIsAnAnomaly() {
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let trace = checkingNoLeaks {
            Trace.record {
                let observer = AnonymousObserver<Int> { event in
                    guard case .next(let value) = event else { return }
                    if value == 1 {
                        inside.signal()
                        _ = release.wait(timeout: .now() + 10)
                    } else {
                        release.signal()
                    }
                }
                let box = ObserverBox(AnyObserver(observer))
                Thread.detachNewThread {
                    box.observer?.onNext(1)
                    box.observer = nil
                    done.signal()
                }
                inside.wait()
                observer.onNext(2)
                done.wait()
                observer.onCompleted()
            }
        }
        let anomalies = trace.nodes.flatMap { node in node.anomalies.map { (node.type, $0.kind) } }
        #expect(anomalies.count == 1)
        #expect(anomalies.first?.0 == "AnonymousObserver")
        #expect(anomalies.first?.1 == .concurrentOn)
    }

    /// Under a virtual time scheduler, events carry virtual time.
    @Test func eventsCarryVirtualTime() {
        let trace = checkingNoLeaks {
            Trace.record {
                let scheduler = VirtualTimeScheduler(initialClock: 0, converter: TickConverter())
                let subject = PublishSubject<Int>()
                let d = subject.subscribe(onNext: { _ in })
                _ = scheduler.scheduleRelativeVirtual((), dueTime: 210) { _ in
                    subject.onNext(1); return Disposables.create()
                }
                _ = scheduler.scheduleRelativeVirtual((), dueTime: 450) { _ in
                    subject.onNext(2); return Disposables.create()
                }
                scheduler.start()
                d.dispose()
            }
        }
        let observed = trace.events.filter {
            $0.kind == .next && trace.nodes[Int($0.node) - 1].type == "AnonymousObserver"
        }
        #expect(observed.map(\.time) == [210, 450])
        #expect(observed.allSatisfy { $0.virtualTime })
    }

    /// RxTesting's `TestScheduler` is a virtual time scheduler: events carry its ticks.
    @Test func eventsCarryTestSchedulerTicks() {
        let trace = checkingNoLeaks {
            Trace.record {
                let scheduler = TestScheduler(initialClock: 0)
                let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
                let res = scheduler.start { xs.map { $0 * 10 } }
                #expect(res.events == [.next(210, 20), .completed(300)])
            }
        }
        let observed = trace.events.filter { event in trace.nodes[Int(event.node) - 1].type == "TestableObserver" }
        #expect(observed.map(\.time) == [210, 300])
        #expect(observed.map(\.kind) == [.next, .completed])
        #expect(observed.map(\.value) == ["20", nil])
        #expect(trace.events.allSatisfy { $0.virtualTime })
        // The test kit's own `Disposables.create()` calls are not nodes.
        #expect(!trace.nodes.contains { $0.callSite?.hasPrefix("TestScheduler.swift") ?? false })
    }

    @Test func wallTimeOtherwise() {
        let trace = checkingNoLeaks {
            Trace.record {
                let d = Observable.of(1, 2).subscribe(onNext: { _ in })
                d.dispose()
            }
        }
        #expect(!trace.events.isEmpty)
        #expect(trace.events.allSatisfy { !$0.virtualTime && $0.time >= 0 && $0.time < 600 })
        #expect(trace.events.map(\.time) == trace.events.map(\.time).sorted())
        #expect(trace.events.allSatisfy { $0.thread != nil })
    }

    /// Live counts per type follow births and deaths.
    @Test func resourceSamplesFollowTheLiveCounts() {
        let trace = checkingNoLeaks {
            Trace.record {
                let d = Observable.of(1).map { $0 }.subscribe(onNext: { _ in })
                d.dispose()
            }
        }
        // Counts are the process's (what other tests left alive too): compare with the start.
        let mapSinks = trace.resources.map { $0.byType["MapSink"] ?? 0 }
        #expect(mapSinks.max()! - mapSinks.first! == 1)
        #expect(mapSinks.last == mapSinks.first)
        #expect(trace.resources.first!.total == trace.resources.last!.total)
        #expect(trace.resources.map(\.seq) == trace.resources.map(\.seq).sorted())
    }

    /// A nested scope reads its part of the enclosing recording, with the same ids.
    @Test func scopesNest() throws {
        var inner: TraceDocument?
        let outer = checkingNoLeaks {
            Trace.record {
                let a = Observable.of(1).subscribe(onNext: { _ in })
                a.dispose()
                inner = Trace.record {
                    let b = Observable.of(2).map { $0 }.subscribe(onNext: { _ in })
                    b.dispose()
                }
            }
        }
        guard let inner else { Issue.record("no inner trace"); return }
        #expect(inner.meta["scope"] == "nested")
        #expect(Set(inner.nodes.map(\.id)).isSubset(of: Set(outer.nodes.map(\.id))))
        #expect(inner.nodes.first?.type == "ObservableSequence")
        #expect(inner.nodes.count == outer.nodes.count - 5)
        #expect(inner.steps.allSatisfy { step in outer.steps.contains(step) })
        #expect(inner.events.allSatisfy { event in outer.events.contains(event) })
        #expect(try TraceDocument.decode(inner.jsonData()) == inner)
    }

    /// Objects born under an earlier recorder are not mistaken for nodes of a later one.
    @Test func staleIDsFromAnEarlierRecordingAreIgnored() {
        checkingNoLeaks {
            let subject = PublishSubject<Int>()
            var d: Disposable?
            _ = Trace.record { d = subject.subscribe(onNext: { _ in }) }
            let later = Trace.record { subject.onNext(1) }
            #expect(later.nodes.isEmpty && later.events.isEmpty && later.edges.isEmpty)
            #expect(later.steps.allSatisfy { $0.from == 0 && $0.to == 0 })
            d?.dispose()
        }
    }

    @Test func summaryCounts() {
        let trace = checkingNoLeaks {
            Trace.record {
                let d = Observable.of(1, 2).map { $0 }.subscribe(onNext: { _ in })
                d.dispose()
            }
        }
        let summary = Trace.summary(of: trace)
        #expect(summary.nodeCount == 8)
        #expect(summary.nodesByKind[.sink] == 2)
        #expect(summary.eventsByKind[.completed] == 2)
        #expect(summary.leaks.isEmpty)
        #expect(summary.aliveAtEnd == 0)
        #expect(summary.description.contains("nodes: 8"))
        #expect(summary.description.contains("leaked: 0 nodes"))
    }
}
