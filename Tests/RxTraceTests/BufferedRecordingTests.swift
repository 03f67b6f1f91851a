import Foundation
import RxTrace
import Testing

/// The recorder's per-thread buffers: what several threads record is all in the trace, each
/// record once, in `seq` order; the ring keeps the newest; the events of one delivery share one
/// clock reading.
@Suite(.serialized) struct BufferedRecordingTests {
    /// Each of `threads` threads subscribes its own `create` → `map` and sends `count` elements.
    private func recordOnThreads(_ threads: Int, count: Int, options: TraceRecorder.Options) -> TraceDocument {
        checkingNoLeaks {
            Trace.record(options: options) {
                let group = DispatchGroup()
                for _ in 0..<threads {
                    group.enter()
                    Thread.detachNewThread {
                        // In a function of its own, so its objects are gone before `leave`.
                        func run() {
                            let d = Observable<Int>.create { observer in
                                for i in 0..<count { observer.onNext(i) }
                                observer.onCompleted()
                                return Disposables.create()
                            }
                            .map { $0 + 1 }
                            .subscribe(onNext: { _ in })
                            d.dispose()
                        }
                        run()
                        group.leave()
                    }
                }
                group.wait()
            }
        }
    }

    @Test func everyThreadsRecordsAreKeptOnceInSeqOrder() {
        let threads = 4, count = 2_000
        let trace = recordOnThreads(threads, count: count, options: TraceRecorder.Options())
        #expect(trace.dropped == DroppedCounts())
        let stepSeqs = trace.steps.map(\.seq), eventSeqs = trace.events.map(\.seq)
        #expect(stepSeqs == stepSeqs.sorted())
        #expect(eventSeqs == eventSeqs.sorted())
        // No clock value is used twice.
        let all = stepSeqs + eventSeqs + trace.nodes.map(\.created)
        #expect(Set(all).count == all.count)
        // Per element: the create sink's `on` and event, its `forwardOn` to the map sink and that
        // event, the map sink's `forwardOn` and the observer's `on`, event and `onCore`.
        let nexts = trace.events.filter { $0.kind == .next }
        #expect(nexts.count == threads * count * 3)
        #expect(
            trace.steps.filter { $0.call == .forwardOn && $0.detail?.hasPrefix("next(") == true }.count == threads
                * count * 2)
        // Each thread's elements arrive at its observer in order.
        let observers = Set(trace.nodes.filter { $0.type == "AnonymousObserver" }.map(\.id))
        #expect(observers.count == threads)
        for observer in observers {
            let values = nexts.filter { $0.node == observer }.map(\.value)
            #expect(values == (1...count).map { String($0) })
        }
        #expect(Set(trace.events.compactMap(\.thread)).count == threads)
        #expect(trace.nodes.filter { $0.type == "AnonymousObserver" }.allSatisfy { $0.terminated != nil })
    }

    @Test func theRingKeepsTheNewestAcrossThreads() {
        let full = recordOnThreads(3, count: 1_000, options: TraceRecorder.Options())
        let small = recordOnThreads(3, count: 1_000, options: TraceRecorder.Options(ringCapacity: 700))
        #expect(small.steps.count == 700)
        #expect(small.events.count == 700)
        #expect(small.dropped.steps == full.steps.count - 700)
        #expect(small.dropped.events == full.events.count - 700)
        #expect(small.steps.map(\.seq) == small.steps.map(\.seq).sorted())
    }

    /// A delivery reads the clock once where it enters the pipeline; the events it causes on the
    /// way down carry that reading. The next delivery reads the clock again.
    @Test func theEventsOfOneDeliveryShareItsTime() {
        let trace = checkingNoLeaks {
            Trace.record {
                let d = Observable<Int>.create { observer in
                    observer.onNext(1)
                    Thread.sleep(forTimeInterval: 0.01)
                    observer.onNext(2)
                    observer.onCompleted()
                    return Disposables.create()
                }
                .map { $0 * 10 }
                .subscribe(onNext: { _ in })
                d.dispose()
            }
        }
        let first = trace.events.filter { $0.value == "1" || $0.value == "10" }
        let second = trace.events.filter { $0.value == "2" || $0.value == "20" }
        #expect(first.count == 3 && second.count == 3)
        #expect(Set(first.map(\.time)).count == 1)
        #expect(Set(second.map(\.time)).count == 1)
        #expect(second[0].time > first[0].time)
    }
}
