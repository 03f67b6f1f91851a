import Foundation
import RxTesting
import Testing

@testable import RxCore
@testable import RxTrace

/// A sink's `forwardOn` of an element into a traced observer (`subscribe(onNext:)`'s, any
/// `ObserverBase`) and the observer's own `on` are one record (`.forwardedObserved`), written by
/// the observer: the same program recorded with the two records of before reads the same, in a
/// snapshot and in a streamed file, but for times.
@Suite(.serialized) struct ForwardedObservedTests {
    /// An observer of the test's own, stopped by hand while its subscription still delivers.
    final class Collecting: ObserverBase<Int> {
        var values: [Int] = []

        override func onCore(_ event: Event<Int>) {
            if case .next(let value) = event { values.append(value) }
        }
    }

    /// Everything around a hop into an observer: a chain ending in `subscribe(onNext:)`, an
    /// observer that sends into its own source while it delivers (reentrant), one stopped while
    /// its sink still forwards, elements described as text, stop events, a second thread, and
    /// virtual time.
    static func workload() {
        let d1 = Observable<Int>.create { observer in
            for value in 0..<20 { observer.onNext(value) }
            observer.onCompleted()
            return Disposables.create()
        }
        .map { $0 * 3 }.filter { $0.isMultiple(of: 2) }.subscribe(onNext: { _ in })
        d1.dispose()

        let subject = PublishSubject<Int>()
        let d2 = subject.map { $0 + 1 }.subscribe(onNext: { value in
            if value == 2 { subject.onNext(100) }
        })
        for value in 0..<4 { subject.onNext(value) }

        let stopping = Collecting(), stoppingDirectly = Collecting()
        let d3 = subject.map { $0 * 2 }.subscribe(stopping)
        let d6 = subject.subscribe(stoppingDirectly)
        let d7 = subject.subscribe(onNext: { _ in })
        subject.onNext(5)
        stopping.dispose()
        stoppingDirectly.dispose()
        subject.onNext(500)
        subject.onError(TestError())
        d2.dispose()
        d3.dispose()
        d6.dispose()
        d7.dispose()

        let d4 = Observable.of("a", "b", String(repeating: "long ", count: 10)).map { $0 + "!" }
            .subscribe(onNext: { _ in })
        d4.dispose()

        let done = DispatchSemaphore(value: 0)
        Thread {
            // Let go before the main thread goes on, so that both runs number the same.
            do { Observable.of(1, 2, 3).map { $0 + 1 }.subscribe(onNext: { _ in }).dispose() }
            done.signal()
        }.start()
        done.wait()

        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        var d5: Disposable?
        scheduler.scheduleAt(200) { d5 = hot.map { $0 * 10 }.subscribe(onNext: { _ in }) }
        scheduler.scheduleAt(400) { d5?.dispose() }
        scheduler.start()
    }

    struct TestError: Error {}

    /// `body` recorded with the merge on, then off.
    static func bothWays<T>(_ body: () throws -> T) rethrows -> (merged: T, separate: T) {
        let merged = try body()
        TraceRecorder.mergingObserved = false
        defer { TraceRecorder.mergingObserved = true }
        return (merged, try body())
    }

    /// A snapshot, and the records the recorder held for it.
    static func snapshot(
        _ keep: TraceRecorder.Keep, _ body: () -> Void = workload
    ) -> (document: TraceDocument, records: Int) {
        var options = TraceRecorder.Options()
        options.keep = keep
        let recorder = TraceRecorder(options: options)
        Tracing.tracer = recorder
        body()
        Tracing.tracer = nil
        let records = recorder.state.withLock { state in
            state.records.count + state.buffers.reduce(0) { $0 + $1.undrained.count }
        }
        return (recorder.snapshot(), records)
    }

    @Test(arguments: TraceRecorder.Keep.allCases)
    func aSnapshotReadsAsWithTwoRecords(keep: TraceRecorder.Keep) {
        let (merged, separate) = checkingNoLeaks { Self.bothWays { Self.snapshot(keep) } }
        Self.expectSame(merged.document, separate.document)
        // A record fewer for each element into an observer when steps are kept (else the sink's
        // `forwardOn` had no record of its own).
        if keep == .all {
            #expect(merged.records + 20 < separate.records, "\(merged.records) vs \(separate.records)")
        } else {
            #expect(merged.records == separate.records)
        }
        let document = merged.document
        let types = Dictionary(uniqueKeysWithValues: document.nodes.map { ($0.id, $0.type) })
        if keep != .graph {
            // The reentrant element and the late one are still reported.
            let anomalies = document.nodes.flatMap { node in node.anomalies.map { "\(node.type) \($0.kind)" } }
            #expect(anomalies.contains("AnonymousObserver reentrantOn"))
            #expect(anomalies.contains("ObserverBase eventAfterTermination"))
            #expect(
                document.events.contains { $0.virtualTime && $0.time == 210 && types[$0.node] == "AnonymousObserver" })
        }
        if keep == .all {
            // The element sent to the stopped observer: its sink's `forwardOn`, then nothing.
            #expect(document.steps.filter { $0.detail == "next(1000)" }.map(\.call) == [.forwardOn])
            #expect(!document.events.contains { $0.value == "1000" })
            // From the subject straight into the stopped observer, and into a running one.
            let direct = document.steps.filter { $0.detail == "next(500)" && types[$0.from] == "PublishSubject" }
            #expect(direct.map(\.call) == [.forwardOn, .forwardOn, .forwardOn, .forwardOn, .on, .onCore])
        }
    }

    /// Ten elements into an observer, from a sink and from a subject: ten records fewer.
    @Test(arguments: ["sink", "subject"])
    func eachElementIntoAnObserverIsOneRecordFewer(from sender: String) {
        let program = {
            if sender == "sink" {
                Observable.from(Array(0..<10)).subscribe(onNext: { _ in }).dispose()
            } else {
                let subject = PublishSubject<Int>()
                let d = subject.subscribe(onNext: { _ in })
                for value in 0..<10 { subject.onNext(value) }
                d.dispose()
            }
        }
        let (merged, separate) = checkingNoLeaks { Self.bothWays { Self.snapshot(.all, program) } }
        Self.expectSame(merged.document, separate.document)
        #expect(separate.records - merged.records == 10)
    }

    /// Streamed as `rxtrace/3` and `rxtrace/2` at once, with the merge on and off: the four
    /// files read as one document (but for times), and the merged `rxtrace/3` file is smaller.
    @Test func aStreamedFileReadsAsWithTwoRecords() throws {
        let (merged, separate) = try checkingNoLeaks {
            try Self.bothWays { try Format3Tests.recordBothWays { _ in Self.workload() } }
        }
        let files = [merged.v3, merged.v2, separate.v3, separate.v2]
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        let documents = try files.map { try TraceDocument.readWithStatus(from: $0).document }
        for document in documents.dropFirst() { Self.expectSame(documents[0], document) }
        #expect(documents[0] == documents[1])
        let sizes = try [merged.v3, separate.v3].map {
            try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int ?? 0
        }
        #expect(sizes[0] < sizes[1], "\(sizes)")
    }

    /// A sink delivering from outside any other delivery (`Observable.of`'s) reads the clock for
    /// its element, as its own record did: the observer writes the one record inside the sink's
    /// delivery, but its time is not the last reading of an earlier delivery.
    @Test func aDeliveryFromOutsideAnyOtherReadsTheClock() {
        let document = checkingNoLeaks {
            Trace.record {
                Observable.of(1).subscribe(onNext: { _ in }).dispose()
                Thread.sleep(forTimeInterval: 0.02)
                Observable.of(2).subscribe(onNext: { _ in }).dispose()
            }
        }
        let types = Dictionary(uniqueKeysWithValues: document.nodes.map { ($0.id, $0.type) })
        let times = document.events.filter { types[$0.node] == "AnonymousObserver" && $0.kind == .next }.map(\.time)
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[0] > 0 && times[1] - times[0] >= 0.02, "\(times)") }
        let steps = document.steps.filter { $0.detail == "next(2)" }.map(\.call)
        #expect(steps == [.forwardOn, .on, .onCore])
    }

    /// Observers on several threads at once, one of them fed from two threads: each element an
    /// observer received is one `forwardOn`, `on`, event, `onCore` on consecutive `seq`s, on
    /// the thread that delivered it.
    @Test func observersOnManyThreadsKeepEachDeliveryTogether() {
        let document = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                let shared = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
                let group = DispatchGroup()
                for thread in 0..<4 {
                    group.enter()
                    // The subject held weakly: a `Thread` keeps its closure until the thread has
                    // gone, which can be after `group.wait()` returns and the leak check runs. The
                    // thread's own subscription in a scope of its own, so that it is released
                    // before `group.leave()` (not at the closure's end, after it).
                    Thread { [weak subject] in
                        do {
                            let own = Observable.of(1, 2, 3, 4, 5).map { $0 * thread }.subscribe(onNext: { _ in })
                            own.dispose()
                        }
                        for value in 0..<50 { subject?.onNext(thread * 1000 + value) }
                        group.leave()
                    }.start()
                }
                group.wait()
                shared.dispose()
            }
        }
        let types = Dictionary(uniqueKeysWithValues: document.nodes.map { ($0.id, $0.type) })
        let observers = Set(document.nodes.filter { $0.type == "AnonymousObserver" }.map(\.id))
        let events = document.events.filter { observers.contains($0.node) && $0.kind == .next }
        #expect(events.count == 4 * 5 + 4 * 50)
        let steps = Dictionary(grouping: document.steps, by: \.seq).mapValues { $0[0] }
        for event in events {
            let around = [event.seq - 2, event.seq - 1, event.seq + 1].compactMap { steps[$0] }
            #expect(around.map(\.call) == [.forwardOn, .on, .onCore], "\(event)")
            #expect(around.allSatisfy { $0.to == event.node && types[$0.from] == "MapSink" })
            #expect(around.allSatisfy { $0.thread == event.thread && $0.detail == "next(\(event.value ?? ""))" })
        }
    }

    /// The documents of one program recorded twice: the same but for when things happened (event
    /// times in real time, nodes' times) and the numbers of threads (named here by the order they
    /// first appear in: a thread the program starts has another number in each run).
    static func expectSame(
        _ one: TraceDocument, _ other: TraceDocument, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (a, b) = (lines(one), lines(other))
        #expect(a.count == b.count, sourceLocation: sourceLocation)
        let differing = zip(a, b).filter { $0 != $1 }.prefix(3).map { "\($0)\n  vs \($1)" }
        #expect(differing.isEmpty, "\(differing.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(one.dropped == other.dropped, sourceLocation: sourceLocation)
    }

    /// A document as lines: its nodes, edges, steps and events, without real times and with
    /// threads numbered by their first appearance.
    static func lines(_ document: TraceDocument) -> [String] {
        var threads: [String: Int] = [:]
        func thread(_ name: String?) -> String {
            guard let name else { return "-" }
            if let number = threads[name] { return "t\(number)" }
            threads[name] = threads.count
            return "t\(threads.count - 1)"
        }
        var lines: [String] = []
        for node in document.nodes {
            var node = node.withoutTimes
            node.thread = thread(node.thread)
            lines.append("\(node)")
        }
        // Edges in any order: a streamed file has them in the order threads' lanes were written.
        lines += document.edges.map { "\($0)" }.sorted()
        for step in document.steps {
            var step = step
            step.thread = thread(step.thread)
            lines.append("\(step)")
        }
        for event in document.events {
            var event = event
            if !event.virtualTime { event.time = 0 }
            event.thread = thread(event.thread)
            lines.append("\(event)")
        }
        return lines
    }
}
