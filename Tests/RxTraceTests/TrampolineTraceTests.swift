import Foundation
import RxTrace
import Testing

/// The `CurrentThreadScheduler`'s queue in the trace (000's trampoline): a step `enqueue` when
/// work is queued behind the work that runs (from the queued work to the scheduler) and a step
/// `dequeue` when the trampoline takes it off to run it; and each `on` credited to the sink or
/// subject whose delivery calls it.
@Suite(.serialized) struct TrampolineTraceTests {
    /// `type#id` of a node, `0` for none (user code, or the scheduler's end of its steps).
    static func name(_ trace: TraceDocument, _ id: UInt64) -> String {
        guard let node = trace.nodes.first(where: { $0.id == id }) else { return "0" }
        return "\(node.type)#\(id)"
    }

    /// The trampoline's steps, `enqueue X` or `dequeue X`, in the order recorded.
    static func queueSteps(_ trace: TraceDocument) -> [String] {
        trace.steps.filter { $0.call == .enqueue || $0.call == .dequeue }.map { step in
            "\(step.call.rawValue) \(name(trace, step.call == .enqueue ? step.from : step.to))"
        }
    }

    /// The issue's example: the outer `of` and the two inner ones take turns in the queue, and
    /// the trampoline always runs the oldest queued work.
    @Test func flatMapOfTwoSequencesTakesTurnsInTheQueue() throws {
        var printed: [String] = []
        let trace = checkingNoLeaks {
            Trace.record {
                _ = Observable.of(1, 2)
                    .flatMap { n in Observable.of("a", "b").map { "\(n)\($0)" } }
                    .subscribe(onNext: { printed.append($0) })
            }
        }
        #expect(printed == ["1a", "1b", "2a", "2b"])
        let sinks = trace.nodes.filter { $0.type == "ObservableSequenceSink" }.map(\.id)
        try #require(sinks.count == 3)
        let (outer, inner1, inner2) = (sinks[0], sinks[1], sinks[2])
        let o = Self.name(trace, outer), i1 = Self.name(trace, inner1), i2 = Self.name(trace, inner2)
        #expect(
            Self.queueSteps(trace) == [
                "enqueue \(o)", // the outer subscription, inside the outermost subscribe
                "dequeue \(o)", // 1: subscribes inner 1…
                "enqueue \(i1)", // …which queues itself…
                "enqueue \(o)", // …and the outer queues its next turn behind it
                "dequeue \(i1)", // 1a
                "enqueue \(i1)",
                "dequeue \(o)", // 2: inner 2 behind inner 1
                "enqueue \(i2)",
                "enqueue \(o)",
                "dequeue \(i1)", // 1b
                "enqueue \(i1)",
                "dequeue \(i2)", // 2a
                "enqueue \(i2)",
                "dequeue \(o)", // the outer completes
                "dequeue \(i1)", // inner 1 completes
                "dequeue \(i2)", // 2b and completed: nothing waits behind it
            ])
        // First in, first out, whatever the example.
        var queue: [UInt64] = []
        for step in trace.steps {
            if step.call == .enqueue { queue.append(step.from) }
            if step.call == .dequeue {
                #expect(queue.first == step.to, "dequeue \(step.to) while \(queue) waited")
                if !queue.isEmpty { queue.removeFirst() }
            }
        }
        #expect(queue.isEmpty)
        // The detail names the scheduler and how much waits after the step.
        let details = trace.steps.filter { $0.call == .enqueue || $0.call == .dequeue }.compactMap(\.detail)
        #expect(
            details.prefix(4) == [
                "CurrentThreadScheduler, 1 queued", "CurrentThreadScheduler, 0 queued",
                "CurrentThreadScheduler, 1 queued", "CurrentThreadScheduler, 2 queued",
            ])
        // Each element is sent in its own turn: between a dequeue and the next one.
        let firstA = trace.steps.first { $0.call == .forwardOn && $0.detail == "next(1a)" }!.seq
        let turn = trace.steps.last { $0.call == .dequeue && $0.seq < firstA }!
        #expect(turn.to == inner1)
        #expect(Trace.leaks(in: trace).isEmpty)
    }

    /// Work scheduled on the running trampoline through `schedule` is a `ScheduledItem`; one
    /// disposed while it waits is taken off and dropped.
    @Test func scheduledItemsAreQueuedAndDisposedOnesDropped() {
        var ran: [String] = []
        let trace = checkingNoLeaks {
            Trace.record {
                let scheduler = CurrentThreadScheduler.instance
                _ = scheduler.schedule(()) { _ in
                    _ = scheduler.schedule(()) { _ in
                        ran.append("first")
                        return Disposables.create()
                    }
                    let second = scheduler.schedule(()) { _ in
                        ran.append("second")
                        return Disposables.create()
                    }
                    second.dispose()
                    return Disposables.create()
                }
            }
        }
        #expect(ran == ["first"])
        let items = trace.nodes.filter { $0.type == "ScheduledItem" }
        #expect(items.count == 2)
        #expect(
            trace.steps.filter { $0.call == .enqueue || $0.call == .dequeue }.map {
                "\($0.call.rawValue) \($0.from)→\($0.to) \($0.detail ?? "")"
            } == [
                "enqueue \(items[0].id)→0 CurrentThreadScheduler, 1 queued",
                "enqueue \(items[1].id)→0 CurrentThreadScheduler, 2 queued",
                "dequeue 0→\(items[0].id) CurrentThreadScheduler, 1 queued",
                "dequeue 0→\(items[1].id) CurrentThreadScheduler, disposed: dropped",
            ])
    }

    /// An observer's `on` is credited to the sink or subject delivering to it; what user code
    /// calls from inside an observer's closure stays user code's.
    @Test func onIsCreditedToTheDeliveringSinkOrSubject() {
        let trace = checkingNoLeaks {
            Trace.record {
                let first = PublishSubject<Int>()
                let second = PublishSubject<Int>()
                let a = first.map { $0 + 1 }.subscribe(onNext: { second.onNext($0) })
                let b = second.subscribe(onNext: { _ in })
                first.onNext(1)
                a.dispose()
                b.dispose()
            }
        }
        let names = trace.steps.filter { $0.call == .on || $0.call == .onCore }.map {
            "\($0.call.rawValue) \(Self.name(trace, $0.from).split(separator: "#")[0])"
                + "→\(Self.name(trace, $0.to).split(separator: "#")[0])"
        }
        #expect(
            names == [
                "on 0→PublishSubject", // user code sends 1
                "on MapSink→AnonymousObserver", // MapSink's forwardOn delivers 2
                "onCore MapSink→AnonymousObserver",
                "on 0→PublishSubject", // the observer's closure calls second.onNext: user code
                "on PublishSubject→AnonymousObserver", // the subject delivers
                "onCore PublishSubject→AnonymousObserver",
            ])
    }
}
