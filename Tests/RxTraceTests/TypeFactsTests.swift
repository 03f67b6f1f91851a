import Foundation
import RxTesting
import RxTrace
import Testing

@testable import RxCore

/// RxCore's traced types state their facts (`TraceTyped`: one conformance lookup a type, where
/// four casts asked before); any other type is still asked by the casts. Either way a thread's
/// table of type facts must hold what the casts find, and a node's id read through the witness
/// table kept there must be the one the object gives.
@Suite(.serialized) struct TypeFactsTests {
    /// A user's observer with a node id of its own: not `TraceTyped`.
    final class Identified: ObserverType, TraceIdentifiable {
        var traceID: UInt64 { 4242 }
        func on(_ event: Event<Int>) {}
    }

    /// What `traceNodeID(of:)` must give, asked by casts.
    private func idByCasts(_ value: Any) -> UInt64 {
        if let identified = value as? TraceIdentifiable { return identified.traceID }
        if let standIn = value as? TraceStandIn { return standIn.traceTargetID }
        return 0
    }

    private func check(
        _ value: Any, typed: Bool, _ expected: TraceTypeFacts, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let name = "\(type(of: value))"
        #expect((value is TraceTyped) == typed, "\(name)", sourceLocation: sourceLocation)
        #expect(TraceTypeFacts.of(value) == expected, "\(name)", sourceLocation: sourceLocation)
        #expect(TraceTypeFacts.findByCasts(value).facts == expected, "\(name)", sourceLocation: sourceLocation)
        #expect(traceNodeID(of: value) == idByCasts(value), "\(name)", sourceLocation: sourceLocation)
        // Asked again, from the table.
        #expect(TraceTypeFacts.of(value) == expected, "\(name)", sourceLocation: sourceLocation)
        #expect(traceNodeID(of: value) == idByCasts(value), "\(name)", sourceLocation: sourceLocation)
    }

    @Test func everyKindOfTypeHasTheFactsItsCastsFind() {
        checkingNoLeaks {
            _ = Trace.record {
                let observer = AnonymousObserver<Int>({ _ in })
                check(observer, typed: true, [.identifiable, .checksOwnOn, .recordsOwnEvents])
                #expect(traceNodeID(of: observer) != 0)

                for subject in [
                    PublishSubject<Int>(), BehaviorSubject(value: 0), ReplaySubject<Int>.create(bufferSize: 1),
                    ReplaySubject<Int>.createUnbounded(), AsyncSubject<Int>(),
                ] as [Observable<Int>] {
                    check(subject, typed: true, [.identifiable, .recordsOwnEvents])
                }
                let subject = PublishSubject<Int>()
                let subscription = subject.subscribe(observer)
                check(subscription, typed: true, .identifiable)
                subscription.dispose()

                let just = Observable.just(1)
                check(just, typed: true, .identifiable)
                #expect(traceNodeID(of: just) != 0)

                let disposer = SinkDisposer.make(callSite: nil)
                check(disposer, typed: true, .identifiable)
                let sink = Sink(observer: AnyObserver(observer), cancel: disposer)
                check(sink, typed: true, .identifiable)
                #expect(traceNodeID(of: sink) != 0)
                check(SinkForwarder(forward: sink), typed: true, .standIn)
                #expect(traceNodeID(of: SinkForwarder(forward: sink)) == sink.traceID)
                let createDisposer = SinkDisposer.make(callSite: nil)
                let createSink = AnonymousObservableSink(observer: observer, cancel: createDisposer)
                check(createSink, typed: true, [.identifiable, .recordsOwnEvents])
                check(AnyObserver(createSink), typed: true, .standIn)
                #expect(traceNodeID(of: AnyObserver(createSink)) == createSink.traceID)

                let box = DisposableBox(Disposables.create())
                check(box, typed: true, .standIn)
                check(ForeignSink.make(box), typed: true, .standIn)
                check(ScheduledItem { Disposables.create() }, typed: true, .identifiable)
                check(Disposables.create(Disposables.create(), Disposables.create()), typed: true, .identifiable)
                check(Disposables.create {}, typed: true, .identifiable)
                check(BooleanDisposable(), typed: true, .identifiable)
                sink.dispose()
                createSink.dispose()
                disposer.dispose()
                createDisposer.dispose()

                // Not RxCore's: asked by the casts.
                check(TestScheduler(initialClock: 0).createObserver(Int.self), typed: false, .identifiable)
                check(Identified(), typed: false, .identifiable)
                #expect(traceNodeID(of: Identified()) == 4242)
                check(7, typed: false, [])
                check({ (_: Int) in }, typed: false, [])
            }
        }
    }
}

/// A recording's start time in its meta: what `Date.ISO8601Format()` writes, without its cost.
@Suite struct StartedDateTests {
    @Test func theStartIsWrittenAsFoundationWritesIt() {
        let now = Date().timeIntervalSince1970
        let dates = [0, 59.999, 951_782_400.5, 1_798_761_599.999_9, 4_102_444_800, now, now.rounded(.down)].map {
            Date(timeIntervalSince1970: $0)
        }
        for date in dates {
            #expect(TraceRecorder.iso8601Seconds(date) == date.ISO8601Format(), "\(date.timeIntervalSince1970)")
        }
        #expect(TraceRecorder.iso8601Seconds(Date(timeIntervalSince1970: 951_782_400.5)) == "2000-02-29T00:00:00Z")
    }
}
