import RxTrace
import Testing

/// A sink keeps its flags, its resource counter and, when born while tracing, its trace state in
/// one word (docs/architecture.md, "The flag byte"). Whichever the word holds, the sink counts in
/// `Resources` while alive and uncounts when it goes, and tracing sees a traced sink's disposal.
@Suite(.serialized) struct SinkWordTests {
    /// A sink born untraced counts; tracing that starts later makes it no node and records
    /// nothing of its disposal, and its deinit uncounts it.
    @Test func aSinkBornUntracedCountsAndUncounts() {
        var seen: [Int] = []
        checkingNoLeaks {
            let before = Resources.snapshot()
            let subject = PublishSubject<Int>()
            let d = subject.map { $0 * 2 }.filter { $0 > 0 }.subscribe(onNext: { seen.append($0) })
            #expect(Resources.snapshot().grown(since: before)["MapSink"] == 1)
            #expect(Resources.snapshot().grown(since: before)["FilterSink"] == 1)
            subject.onNext(1)
            let trace = Trace.record {
                subject.onNext(2)
                d.dispose()
                subject.onNext(3)
            }
            #expect(!trace.nodes.contains { $0.type == "MapSink" || $0.type == "FilterSink" })
            #expect(Resources.snapshot().grown(since: before)["MapSink"] == nil)
        }
        #expect(seen == [2, 4])
    }

    /// A sink born while tracing is a node whose disposal and deinit the trace records, and it
    /// counts and uncounts like an untraced one.
    @Test func tracingSeesATracedSinkDisposedAndGone() throws {
        var seen: [Int] = []
        let before = Resources.snapshot()
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                let d = subject.map { $0 * 2 }.filter { $0 > 2 }.subscribe(onNext: { seen.append($0) })
                #expect(Resources.snapshot().grown(since: before)["MapSink"] == 1)
                subject.onNext(1)
                subject.onNext(2)
                d.dispose()
                subject.onNext(3)
            }
        }
        #expect(seen == [4])
        let map = try #require(trace.nodes.first { $0.type == "MapSink" })
        let filter = try #require(trace.nodes.first { $0.type == "FilterSink" })
        for sink in [map, filter] {
            #expect(sink.disposed != nil, "\(sink.type)")
            #expect(sink.deinitialized != nil, "\(sink.type)")
        }
        // The map sink forwarded 2 and 4 to the filter sink, which forwarded 4 only.
        #expect(trace.events.filter { $0.node == filter.id }.map(\.value) == ["2", "4"])
        #expect(trace.steps.contains { $0.call == .dispose && $0.to == map.id })
    }

    /// A sink born while tracing that outlives the recording still uncounts at its deinit (its
    /// trace state keeps its counter), and what it does afterwards is not recorded.
    @Test func aTracedSinkOutlivingItsRecordingUncounts() throws {
        var seen: [Int] = []
        try checkingNoLeaks {
            let before = Resources.snapshot()
            let subject = PublishSubject<Int>()
            var d: Disposable?
            let trace = Trace.record {
                d = subject.map { $0 * 2 }.subscribe(onNext: { seen.append($0) })
                subject.onNext(1)
            }
            #expect(Resources.snapshot().grown(since: before)["MapSink"] == 1)
            subject.onNext(2)
            d?.dispose()
            d = nil
            #expect(Resources.snapshot().grown(since: before)["MapSink"] == nil)
            let map = try #require(trace.nodes.first { $0.type == "MapSink" })
            #expect(map.disposed == nil && map.deinitialized == nil)
        }
        #expect(seen == [2, 4])
    }

    /// `create`'s sink keeps "stopped" in the same word: once stopped it drops elements, traced
    /// or not, and each sink uncounts.
    @Test func createsStoppedBitSitsBesideTheOthers() {
        for traced in [false, true] {
            var seen: [String] = []
            checkingNoLeaks {
                let run = {
                    let d = Observable<Int>.create { observer in
                        observer.onNext(1)
                        observer.onCompleted()
                        observer.onNext(2)
                        return Disposables.create()
                    }.map { $0 * 10 }.subscribe(onNext: { seen.append("\($0)") }, onCompleted: { seen.append("|") })
                    d.dispose()
                }
                if traced { _ = Trace.record(run) } else { run() }
            }
            #expect(seen == ["10", "|"], "traced: \(traced)")
        }
    }
}
