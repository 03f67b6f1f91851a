import RxTrace
import Testing

/// A `SinkDisposer` keeps its sink in its state word, so a disposer made while tracing keeps its
/// node id in a subclass (docs/performance.md, "Bytes per subscription"). Whichever it is, the
/// trace sees the same node, edges and steps.
/// A producer whose `run` returns a core disposable that is not a `Sink` as its sink, as a user's
/// `run` may.
private final class DisposableAsSink: Producer<Int> {
    let disposed = Counter()

    final class Counter: @unchecked Sendable { var count = 0 }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Int {
        let counter = disposed
        return (sink: BooleanDisposable(), subscription: Disposables.create { counter.count += 1 })
    }
}

@Suite(.serialized) struct SinkDisposerTraceTests {
    /// A disposer made while tracing keeps its id: its node owns the sink and the subscription,
    /// disposes each with a step, and is disposed and deinitialised.
    @Test func aTracedSinkDisposerKeepsItsID() throws {
        var seen: [Int] = []
        var disposerID: UInt64 = 0
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                let observer = AnyObserver<Int> { if case .next(let value) = $0 { seen.append(value) } }
                let d = subject.map { $0 * 2 }.subscribe(observer)
                disposerID = (d as? SinkDisposer)?.traceID ?? 0
                subject.onNext(1)
                d.dispose()
                d.dispose()
                subject.onNext(2)
            }
        }
        #expect(seen == [2])
        #expect(disposerID != 0)
        let disposer = try #require(trace.nodes.first { $0.id == Tracing.displayID(disposerID) })
        #expect(disposer.type == "SinkDisposer" && disposer.kind == .disposable)
        #expect(disposer.disposed != nil && disposer.deinitialized != nil)
        let sink = try #require(trace.nodes.first { $0.type == "MapSink" })
        let subscription = try #require(trace.nodes.first { $0.type == "SubscriptionDisposable" })
        let owned = trace.edges.filter { $0.from == disposer.id && $0.relation == .owns }.map(\.to)
        #expect(Set(owned) == [sink.id, subscription.id])
        let disposeSteps = trace.steps.filter { $0.call == .dispose && $0.from == disposer.id }.map(\.to)
        #expect(disposeSteps == [sink.id, subscription.id], "one step each, the sink first")
    }

    /// A traced disposer outliving its recording: its id stays, and disposing it later records
    /// nothing and still disposes and uncounts everything.
    @Test func aTracedSinkDisposerOutlivingItsRecording() throws {
        var seen: [Int] = []
        checkingNoLeaks {
            let subject = PublishSubject<Int>()
            let observer = AnyObserver<Int> { if case .next(let value) = $0 { seen.append(value) } }
            var d: Disposable?
            let trace = Trace.record { d = subject.map { $0 + 1 }.subscribe(observer) }
            let id = (d as? SinkDisposer)?.traceID ?? 0
            #expect(id != 0)
            #expect(trace.nodes.contains { $0.id == Tracing.displayID(id) && $0.type == "SinkDisposer" })
            subject.onNext(1)
            d?.dispose()
            #expect((d as? SinkDisposer)?.traceID == id)
            subject.onNext(2)
            d = nil
            #expect(!subject.hasObservers)
        }
        #expect(seen == [2])
    }

    /// Disposed before `run` returned (the handler completes at once) while tracing: the handler's
    /// disposable is disposed once, when handed over, and the disposer's node is disposed.
    @Test func aTracedSinkDisposerDisposedBeforeSet() throws {
        var handlerDisposed = 0
        var disposerID: UInt64 = 0
        let trace = checkingNoLeaks {
            Trace.record {
                let d = Observable<Int>.create { observer in
                    observer.onCompleted()
                    return Disposables.create { handlerDisposed += 1 }
                }.subscribe(AnyObserver<Int> { _ in })
                disposerID = (d as? SinkDisposer)?.traceID ?? 0
                #expect(handlerDisposed == 1)
                d.dispose()
            }
        }
        #expect(handlerDisposed == 1)
        let disposer = try #require(trace.nodes.first { $0.id == Tracing.displayID(disposerID) })
        #expect(disposer.type == "SinkDisposer" && disposer.disposed != nil && disposer.deinitialized != nil)
    }

    /// A sink that is not a `Sink` is held in a box the trace sees through: the same `owns` edge
    /// and `dispose` step to it as to a sink.
    @Test func aForeignSinkIsSeenThroughItsBox() throws {
        let producer = DisposableAsSink()
        var disposerID: UInt64 = 0
        let trace = checkingNoLeaks {
            Trace.record {
                let d = producer.subscribe(AnyObserver<Int> { _ in })
                disposerID = (d as? SinkDisposer)?.traceID ?? 0
                d.dispose()
                d.dispose()
            }
        }
        #expect(producer.disposed.count == 1)
        let disposer = try #require(trace.nodes.first { $0.id == Tracing.displayID(disposerID) })
        let owned = trace.edges.filter { $0.from == disposer.id && $0.relation == .owns }.map(\.to)
        let disposeSteps = trace.steps.filter { $0.call == .dispose && $0.from == disposer.id }.map(\.to)
        let types = Dictionary(uniqueKeysWithValues: trace.nodes.map { ($0.id, $0.type) })
        #expect(owned.compactMap { types[$0] }.sorted() == ["AnonymousDisposable", "BooleanDisposable"])
        #expect(disposeSteps == owned, "a step to each, the sink first")
    }
}
