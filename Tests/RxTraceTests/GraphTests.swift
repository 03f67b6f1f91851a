import Foundation
import RxTrace
import Testing

/// The documents' examples, traced: exact nodes (kind, type, call site), edges and step order.
@Suite(.serialized) struct GraphTests {
    let file = "GraphTests.swift"

    /// 001's reference (docs/architecture.md, "The subscribe flow, file by file"): `create` →
    /// `subscribe(onNext:)` → `dispose()` (001, step1…step9).
    @Test func createAndSubscribeGiveTheDocumentsSteps() {
        var l1: UInt = 0, l3: UInt = 0, l5: UInt = 0
        var printed: [String] = []
        let trace = checkingNoLeaks {
            Trace.record {
                l1 = #line + 1
                let observable = Observable<String>.create { observer in
                    observer.onNext("mojito")
                    l3 = #line; return Disposables.create()
                }
                l5 = #line; let d = observable.subscribe(onNext: { printed.append($0) })
                d.dispose()
            }
        }
        #expect(printed == ["mojito"])
        #expect(
            nodeLines(trace) == [
                "1 producer AnonymousObservable \(file):\(l1)",
                "2 observer AnonymousObserver \(file):\(l5)",
                "3 disposable SinkDisposer \(file):\(l5)",
                "4 sink AnonymousObservableSink \(file):\(l5)",
                "5 disposable NopDisposable \(file):\(l3)",
                "6 disposable BinaryDisposable \(file):\(l5)",
            ])
        #expect(edgeLines(trace) == ["1 -run-> 4", "4 -forward-> 2", "3 -owns-> 4", "3 -owns-> 5", "6 -owns-> 3"])
        #expect(
            stepLines(trace) == [
                "subscribe 2→1 subscribe(2)", // [7] → [6]
                "schedule 1→0 CurrentThreadScheduler", // [6]
                "init 1→3 SinkDisposer", // [6]
                "run 1→1 run(observer: 2, cancel: 3)", // [5]
                "init 1→4", // [8]
                "handler 4→1 AnyObserver(sink)", // [8]
                "on 0→4 next(mojito)", // [8]
                "forwardOn 4→2 next(mojito)", // [9]
                "on 4→2 next(mojito)", // [9]: the sink's forwardOn calls it
                "onCore 4→2 next(mojito)", // [9]
                "setSinkAndSubscription 1→3 sink: 4, subscription: 5",
                "dispose 6→3",
                "dispose 3→4",
                "dispose 3→5",
            ])
        #expect(eventLines(trace) == ["4 next(mojito)", "2 next(mojito)"])
        // One clock: births, steps and events interleave in the order they happened.
        let seqs = trace.steps.map(\.seq)
        #expect(seqs == seqs.sorted())
        #expect(trace.nodes[2].created < trace.steps[2].seq && trace.steps[2].seq < trace.nodes[3].created)
        // Everything was disposed, then deallocated with `d`; nothing leaked.
        #expect(trace.nodes.allSatisfy { $0.deinitialized != nil })
        #expect(trace.nodes.filter { $0.kind != .producer && $0.kind != .observer }.allSatisfy { $0.disposed != nil })
        #expect(Trace.leaks(in: trace).isEmpty)
    }

    /// `map` is a producer with a sink (002): `of` → `map` → `subscribe`.
    @Test func mapIsAProducerWithASink() {
        var la: UInt = 0, lb: UInt = 0, lc: UInt = 0
        var printed: [Int] = []
        let trace = checkingNoLeaks {
            Trace.record {
                la = #line; let source = Observable.of(1, 2)
                lb = #line; let mapped = source.map { $0 * 10 }
                lc = #line; let d = mapped.subscribe(onNext: { printed.append($0) })
                d.dispose()
            }
        }
        #expect(printed == [10, 20])
        #expect(
            nodeLines(trace) == [
                "1 producer ObservableSequence \(file):\(la)",
                "2 producer Map \(file):\(lb)",
                "3 observer AnonymousObserver \(file):\(lc)",
                "4 disposable SinkDisposer \(file):\(lc)",
                "5 sink MapSink \(file):\(lc)",
                "6 disposable SinkDisposer \(file):\(lc)",
                "7 sink ObservableSequenceSink \(file):\(lc)",
                "8 disposable BinaryDisposable \(file):\(lc)",
            ])
        #expect(
            edgeLines(trace) == [
                "2 -source-> 1",
                "2 -run-> 5", "5 -forward-> 3", "4 -owns-> 5", "4 -owns-> 6",
                "1 -run-> 7", "7 -forward-> 5", "6 -owns-> 7",
                "8 -owns-> 4",
            ])
        #expect(
            stepLines(trace) == [
                "subscribe 3→2 subscribe(3)",
                "schedule 2→0 CurrentThreadScheduler",
                "init 2→4 SinkDisposer",
                "run 2→2 run(observer: 3, cancel: 4)",
                "init 2→5",
                "subscribe 5→1 subscribe(5)",
                "init 1→6 SinkDisposer",
                "run 1→1 run(observer: 5, cancel: 6)",
                "init 1→7",
                // `of` queues its sink on the trampoline, which runs it once the outer subscribe is done.
                "enqueue 7→0 CurrentThreadScheduler, 1 queued",
                "setSinkAndSubscription 1→6 sink: 7, subscription: 0",
                "setSinkAndSubscription 2→4 sink: 5, subscription: 6",
                "dequeue 0→7 CurrentThreadScheduler, 0 queued",
                "forwardOn 7→5 next(1)",
                "forwardOn 5→3 next(10)",
                "on 5→3 next(10)",
                "onCore 5→3 next(10)",
                "forwardOn 7→5 next(2)",
                "forwardOn 5→3 next(20)",
                "on 5→3 next(20)",
                "onCore 5→3 next(20)",
                "forwardOn 7→5 completed",
                "forwardOn 5→3 completed",
                "on 5→3 completed",
                "onCore 5→3 completed",
                "dispose 4→5",
                "dispose 4→6",
                "dispose 6→7",
                "dispose 8→4", // `d.dispose()`: finished already
            ])
        #expect(
            eventLines(trace) == ["5 next(1)", "3 next(10)", "5 next(2)", "3 next(20)", "5 completed", "3 completed"])
        #expect(trace.nodes.first { $0.id == 3 }?.terminated != nil)
        #expect(Trace.leaks(in: trace).isEmpty)
    }

    /// A `PublishSubject` with two subscribers: each observer `subscribes` to the subject.
    @Test func publishSubjectWithTwoSubscribers() {
        var l1: UInt = 0, l2: UInt = 0, l3: UInt = 0
        var first: [String] = [], second: [String] = []
        let trace = checkingNoLeaks {
            Trace.record {
                l1 = #line; let subject = PublishSubject<String>()
                l2 = #line; let d1 = subject.subscribe(onNext: { first.append($0) })
                l3 = #line; let d2 = subject.subscribe(onNext: { second.append($0) })
                subject.onNext("🐶")
                d1.dispose()
                subject.onNext("🐱")
                d2.dispose()
            }
        }
        #expect(first == ["🐶"])
        #expect(second == ["🐶", "🐱"])
        #expect(
            nodeLines(trace) == [
                "1 subject PublishSubject \(file):\(l1)",
                "2 observer AnonymousObserver \(file):\(l2)",
                "3 disposable SubscriptionDisposable -",
                "4 disposable BinaryDisposable \(file):\(l2)",
                "5 observer AnonymousObserver \(file):\(l3)",
                "6 disposable SubscriptionDisposable -",
                "7 disposable BinaryDisposable \(file):\(l3)",
            ])
        #expect(edgeLines(trace) == ["2 -subscribes-> 1", "4 -owns-> 3", "5 -subscribes-> 1", "7 -owns-> 6"])
        #expect(
            stepLines(trace) == [
                "subscribe 2→1 subscribe(2)",
                "subscribe 5→1 subscribe(5)",
                "on 0→1 next(🐶)",
                "forwardOn 1→2 next(🐶)",
                "on 1→2 next(🐶)", // the subject delivers
                "onCore 1→2 next(🐶)",
                "forwardOn 1→5 next(🐶)",
                "on 1→5 next(🐶)",
                "onCore 1→5 next(🐶)",
                "dispose 4→3",
                "on 0→1 next(🐱)", // user code sends
                "forwardOn 1→5 next(🐱)",
                "on 1→5 next(🐱)",
                "onCore 1→5 next(🐱)",
                "dispose 7→6",
            ])
        #expect(eventLines(trace) == ["1 next(🐶)", "2 next(🐶)", "5 next(🐶)", "1 next(🐱)", "5 next(🐱)"])
        #expect(Trace.leaks(in: trace).isEmpty)
    }
}
