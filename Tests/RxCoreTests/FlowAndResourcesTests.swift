import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks, .enabled(if: tracingCompiledIn, "tracing is compiled out (RX_NO_TRACE)"))
struct SubscribeFlowTests {
    /// The documents' first example (001): the calls happen in the order of step1…step9.
    @Test func theMojitoExampleCallsTheStepsInOrder() {
        let recorder = StepRecorder()
        let printed = Collected<String>()
        withTracer(recorder) {
            let observable = Observable<String>.create { observer in
                observer.onNext("mojito")
                return Disposables.create()
            }
            let subscription = observable.subscribe(onNext: { printed.append($0) })
            subscription.dispose()
        }
        #expect(printed.all == ["mojito"])
        let calls = recorder.calls
        // 001's reference (docs/trace-format.md, `steps`): subscribe → schedule → SinkDisposer.init → run → sink init →
        // handler → on (sink) → forwardOn → on (observer) → onCore → setSinkAndSubscription.
        let flow: [TraceCall] = [
            .subscribe, .schedule, .`init`, .run, .`init`, .handler, .on, .forwardOn, .on, .onCore,
            .setSinkAndSubscription,
        ]
        #expect(Array(calls.prefix(flow.count)) == flow)
        let rest = calls.dropFirst(flow.count)
        #expect(!rest.isEmpty && rest.allSatisfy { $0 == .dispose }, "then only disposal: \(rest)")
        #expect(Tracing.tracer == nil)
    }

    /// Inside a running trampoline `subscribe` does not schedule.
    @Test func noScheduleStepInsideATrampoline() {
        let recorder = StepRecorder()
        withTracer(recorder) {
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                Observable<Int>.create { _ in Disposables.create() }.subscribe(onNext: { _ in }).dispose()
                return Disposables.create()
            }
        }
        #expect(Array(recorder.calls.prefix(5)) == [.subscribe, .`init`, .run, .`init`, .handler])
    }

    /// Each operator adds its own subscribe → run → init before the source's.
    @Test func mapSubscribesUpstreamFromItsRun() {
        let recorder = StepRecorder()
        withTracer(recorder) {
            _ = Observable<Int>.create { observer in
                observer.onNext(1)
                return Disposables.create()
            }
            .map { $0 * 2 }
            .subscribe(onNext: { _ in })
            .dispose()
        }
        let calls = recorder.calls
        let subscribes = calls.indices.filter { calls[$0] == .subscribe }
        #expect(subscribes.count == 2)
        #expect(calls.filter { $0 == .forwardOn }.count == 2, "AnonymousObservableSink → MapSink → observer")
        #expect(calls.firstIndex(of: .handler)! > subscribes[1])
    }
}

@Suite(.serialized, .noLeaks)
struct ResourcesTests {
    @Test func aLiveSubscriptionCountsEachPartByType() {
        let subject = PublishSubject<Int>()
        let before = Resources.snapshot()
        let mapped = subject.map { $0 + 1 }.filter { $0 > 0 }
        let subscription = mapped.subscribe(onNext: { _ in })
        let grown = Resources.snapshot().grown(since: before)
        #expect(grown["Map"] == 1)
        #expect(grown["MapSink"] == 1)
        #expect(grown["Filter"] == 1)
        #expect(grown["FilterSink"] == 1)
        #expect(grown["AnonymousObserver"] == 1)
        #expect(grown["SinkDisposer"] == 2)
        subscription.dispose()
        let after = Resources.snapshot().grown(since: before)
        // Left: the operators (still referenced by `mapped`) and the disposable `subscribe`
        // returned (still referenced by `subscription`); the sinks, disposers and observer are gone.
        #expect(after == ["Map": 1, "Filter": 1, "BinaryDisposable": 1])
        _ = mapped
    }

    @Test func totalReturnsToItsStart() {
        let before = Resources.total
        do {
            let bag = DisposeBag()
            Observable.of(1, 2).map { $0 }.subscribe().disposed(by: bag)
            #expect(Resources.total > before)
        }
        #expect(Resources.total == before)
    }

    @Test func liveCountsNameTypesByTheirShortName() {
        let subject = BehaviorSubject(value: 1)
        #expect((Resources.liveCounts["BehaviorSubject"] ?? 0) >= 1)
        #expect(shortTypeName(MapLike<Int, String>.self) == "MapLike")
        _ = subject
    }

    @Test func incrementAndDecrementTotalBalance() {
        let before = Resources.total
        Resources.incrementTotal()
        #expect(Resources.total == before + 1)
        Resources.decrementTotal()
        #expect(Resources.total == before)
    }

    @Test func testKitObjectsAreCountedToo() {
        let before = Resources.snapshot()
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(10, 1)])
        let cold = scheduler.createColdObservable([.next(10, 1)])
        let observer = scheduler.createObserver(Int.self)
        let grown = Resources.snapshot().grown(since: before)
        #expect(grown["HotObservable"] == 1)
        #expect(grown["ColdObservable"] == 1)
        #expect(grown["TestableObserver"] == 1)
        _ = (hot, cold, observer)
    }
}

private final class MapLike<A, B> {}
