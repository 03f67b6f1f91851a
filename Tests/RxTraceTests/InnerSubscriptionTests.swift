import Foundation
import RxTrace
import Testing

/// `flatMap` and `share(replay:)`: inner subscriptions and shared connections are part of the graph.
@Suite(.serialized) struct InnerSubscriptionTests {
    let file = "InnerSubscriptionTests.swift"

    @Test func flatMapInnerSubscriptions() {
        var printed: [String] = []
        var la: UInt = 0, lb: UInt = 0, lc: UInt = 0, ld: UInt = 0
        let trace = checkingNoLeaks {
            Trace.record {
                la = #line; let outer = PublishSubject<Int>()
                lb = #line + 1
                let flat = outer.flatMap { value in
                    lc = #line; return Observable.of("\(value)a", "\(value)b")
                }
                ld = #line; let d = flat.subscribe(onNext: { printed.append($0) })
                outer.onNext(1)
                outer.onNext(2)
                outer.onCompleted()
                d.dispose()
            }
        }
        #expect(
            nodeLines(trace) == [
                "1 subject PublishSubject \(file):\(la)",
                "2 producer FlatMap \(file):\(lb)",
                "3 observer AnonymousObserver \(file):\(ld)",
                "4 disposable SinkDisposer \(file):\(ld)",
                "5 disposable SingleAssignmentDisposable \(file):\(ld)",
                "6 sink MergeSink \(file):\(ld)",
                "7 disposable AnonymousDisposable \(file):\(ld)",
                "8 disposable SubscriptionDisposable \(file):\(ld)",
                "9 disposable BinaryDisposable \(file):\(ld)",
                "10 producer ObservableSequence \(file):\(lc)",
                "11 observer MergeInnerObserver \(file):\(ld)",
                "12 disposable SinkDisposer \(file):\(ld)",
                "13 sink ObservableSequenceSink \(file):\(ld)",
                "14 producer ObservableSequence \(file):\(lc)",
                "15 observer MergeInnerObserver \(file):\(ld)",
                "16 disposable SinkDisposer \(file):\(ld)",
                "17 sink ObservableSequenceSink \(file):\(ld)",
            ])
        #expect(
            edgeLines(trace) == [
                "2 -run-> 6",
                "2 -source-> 1",
                "4 -owns-> 6",
                "4 -owns-> 7",
                "5 -owns-> 8",
                "6 -forward-> 3",
                "6 -subscribes-> 1",
                "7 -owns-> 5",
                "7 -owns-> 11",
                "7 -owns-> 15",
                "9 -owns-> 4",
                "10 -run-> 13",
                "11 -forward-> 6",
                "11 -owns-> 12",
                "12 -owns-> 13",
                "13 -forward-> 11",
                "14 -run-> 17",
                "15 -forward-> 6",
                "15 -owns-> 16",
                "16 -owns-> 17",
                "17 -forward-> 15",
            ])
        #expect(
            stepLines(trace) == [
                "subscribe 3→2 subscribe(3)",
                "schedule 2→0 CurrentThreadScheduler",
                "init 2→4 SinkDisposer",
                "run 2→2 run(observer: 3, cancel: 4)",
                "init 2→6",
                "subscribe 6→1 subscribe(6)",
                "setSinkAndSubscription 2→4 sink: 6, subscription: 7",
                "on 0→1 next(1)",
                "forwardOn 1→6 next(1)",
                "subscribe 11→10 subscribe(11)",
                "schedule 10→0 CurrentThreadScheduler",
                "init 10→12 SinkDisposer",
                "run 10→10 run(observer: 11, cancel: 12)",
                "init 10→13",
                "enqueue 13→0 CurrentThreadScheduler, 1 queued",
                "setSinkAndSubscription 10→12 sink: 13, subscription: 0",
                "dequeue 0→13 CurrentThreadScheduler, 0 queued",
                "forwardOn 13→11 next(1a)",
                "on 13→11 next(1a)",
                "onCore 13→11 next(1a)",
                "forwardOn 6→3 next(1a)",
                "on 6→3 next(1a)",
                "onCore 6→3 next(1a)",
                "forwardOn 13→11 next(1b)",
                "on 13→11 next(1b)",
                "onCore 13→11 next(1b)",
                "forwardOn 6→3 next(1b)",
                "on 6→3 next(1b)",
                "onCore 6→3 next(1b)",
                "forwardOn 13→11 completed",
                "on 13→11 completed",
                "onCore 13→11 completed",
                "dispose 12→13",
                "on 0→1 next(2)",
                "forwardOn 1→6 next(2)",
                "subscribe 15→14 subscribe(15)",
                "schedule 14→0 CurrentThreadScheduler",
                "init 14→16 SinkDisposer",
                "run 14→14 run(observer: 15, cancel: 16)",
                "init 14→17",
                "enqueue 17→0 CurrentThreadScheduler, 1 queued",
                "setSinkAndSubscription 14→16 sink: 17, subscription: 0",
                "dequeue 0→17 CurrentThreadScheduler, 0 queued",
                "forwardOn 17→15 next(2a)",
                "on 17→15 next(2a)",
                "onCore 17→15 next(2a)",
                "forwardOn 6→3 next(2a)",
                "on 6→3 next(2a)",
                "onCore 6→3 next(2a)",
                "forwardOn 17→15 next(2b)",
                "on 17→15 next(2b)",
                "onCore 17→15 next(2b)",
                "forwardOn 6→3 next(2b)",
                "on 6→3 next(2b)",
                "onCore 6→3 next(2b)",
                "forwardOn 17→15 completed",
                "on 17→15 completed",
                "onCore 17→15 completed",
                "dispose 16→17",
                "on 0→1 completed",
                "forwardOn 1→6 completed",
                "forwardOn 6→3 completed",
                "on 6→3 completed",
                "onCore 6→3 completed",
                "dispose 4→6",
                "dispose 4→7",
                "dispose 9→4",
            ])
        #expect(printed == ["1a", "1b", "2a", "2b"])
        // Each inner `of` is a subscription of its own: the merge group (7) owns the outer
        // subscription (5) and each inner observer, which owns its inner subscription and
        // forwards into the MergeSink (6).
        #expect(Trace.leaks(in: trace).isEmpty)
    }

    @Test func shareReplay() {
        var first: [Int] = [], second: [Int] = []
        var la: UInt = 0, lb: UInt = 0, lc: UInt = 0, ld: UInt = 0
        let trace = checkingNoLeaks {
            Trace.record {
                la = #line; let subject = PublishSubject<Int>()
                lb = #line; let shared = subject.map { $0 * 2 }.share(replay: 1)
                lc = #line; let d1 = shared.subscribe(onNext: { first.append($0) })
                subject.onNext(1)
                ld = #line; let d2 = shared.subscribe(onNext: { second.append($0) })
                subject.onNext(2)
                d1.dispose()
                d2.dispose()
            }
        }
        #expect(
            nodeLines(trace) == [
                "1 subject PublishSubject \(file):\(la)",
                "2 producer Map \(file):\(lb)",
                "3 observable ConnectableObservableAdapter \(file):\(lb)",
                "4 producer RefCount \(file):\(lb)",
                "5 observer AnonymousObserver \(file):\(lc)",
                "6 disposable SinkDisposer \(file):\(lc)",
                "7 sink RefCountSink \(file):\(lc)",
                "8 subject ReplaySubject \(file):\(lb)",
                "9 disposable SubscriptionDisposable \(file):\(lc)",
                "10 disposable SingleAssignmentDisposable \(file):\(lc)",
                "11 observer MulticastConnection \(file):\(lc)",
                "12 disposable SinkDisposer \(file):\(lc)",
                "13 sink MapSink \(file):\(lc)",
                "14 disposable SubscriptionDisposable \(file):\(lc)",
                "15 disposable AnonymousDisposable \(file):\(lc)",
                "16 disposable BinaryDisposable \(file):\(lc)",
                "17 observer AnonymousObserver \(file):\(ld)",
                "18 disposable SinkDisposer \(file):\(ld)",
                "19 sink RefCountSink \(file):\(ld)",
                "20 disposable SubscriptionDisposable \(file):\(ld)",
                "21 disposable AnonymousDisposable \(file):\(ld)",
                "22 disposable BinaryDisposable \(file):\(ld)",
            ])
        #expect(
            edgeLines(trace) == [
                "2 -run-> 13",
                "2 -source-> 1",
                "3 -source-> 2",
                "4 -run-> 19",
                "4 -run-> 7",
                "4 -source-> 3",
                "6 -owns-> 15",
                "6 -owns-> 7",
                "7 -forward-> 5",
                "7 -subscribes-> 8",
                "10 -owns-> 12",
                "11 -forward-> 8",
                "12 -owns-> 13",
                "12 -owns-> 14",
                "13 -forward-> 11",
                "13 -subscribes-> 1",
                "16 -owns-> 6",
                "18 -owns-> 19",
                "18 -owns-> 21",
                "19 -forward-> 17",
                "19 -subscribes-> 8",
                "22 -owns-> 18",
            ])
        #expect(
            stepLines(trace) == [
                "subscribe 5→4 subscribe(5)",
                "schedule 4→0 CurrentThreadScheduler",
                "init 4→6 SinkDisposer",
                "run 4→4 run(observer: 5, cancel: 6)",
                "init 4→7",
                "subscribe 7→8 subscribe(7)",
                "subscribe 11→2 subscribe(11)",
                "init 2→12 SinkDisposer",
                "run 2→2 run(observer: 11, cancel: 12)",
                "init 2→13",
                "subscribe 13→1 subscribe(13)",
                "setSinkAndSubscription 2→12 sink: 13, subscription: 14",
                "setSinkAndSubscription 4→6 sink: 7, subscription: 15",
                "on 0→1 next(1)",
                "forwardOn 1→13 next(1)",
                "forwardOn 13→11 next(2)",
                "on 13→11 next(2)",
                "onCore 13→11 next(2)",
                "on 0→8 next(2)",
                "forwardOn 8→7 next(2)",
                "forwardOn 7→5 next(2)",
                "on 7→5 next(2)",
                "onCore 7→5 next(2)",
                "subscribe 17→4 subscribe(17)",
                "schedule 4→0 CurrentThreadScheduler",
                "init 4→18 SinkDisposer",
                "run 4→4 run(observer: 17, cancel: 18)",
                "init 4→19",
                "subscribe 19→8 subscribe(19)",
                "forwardOn 19→17 next(2)",
                "on 19→17 next(2)",
                "onCore 19→17 next(2)",
                "setSinkAndSubscription 4→18 sink: 19, subscription: 21",
                "on 0→1 next(2)",
                "forwardOn 1→13 next(2)",
                "forwardOn 13→11 next(4)",
                "on 13→11 next(4)",
                "onCore 13→11 next(4)",
                "on 0→8 next(4)",
                "forwardOn 8→7 next(4)",
                "forwardOn 7→5 next(4)",
                "on 7→5 next(4)",
                "onCore 7→5 next(4)",
                "forwardOn 8→19 next(4)",
                "forwardOn 19→17 next(4)",
                "on 19→17 next(4)",
                "onCore 19→17 next(4)",
                "dispose 16→6",
                "dispose 6→7",
                "dispose 6→15",
                "dispose 22→18",
                "dispose 18→19",
                "dispose 18→21",
                "dispose 12→13",
                "dispose 12→14",
            ])
        #expect(first == [2, 4])
        #expect(second == [2, 4])
        // One connection (MulticastConnection 11 → ReplaySubject 8) serves both RefCountSinks.
        #expect(Trace.leaks(in: trace).isEmpty)
    }
}
