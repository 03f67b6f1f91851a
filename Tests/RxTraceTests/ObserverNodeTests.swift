import Foundation
import RxTrace
import Testing

/// 000's own observer: a class conforming to `ObserverType`, subscribed directly.
private final class MyObserver: ObserverType {
    typealias Element = Int
    var received: [String] = []
    func on(_ event: Event<Int>) { received.append("\(event)") }
}

/// An observer written as a struct, as user code may.
private struct Collector: ObserverType {
    typealias Element = Int
    let box: Box
    final class Box { var values: [Int] = [] }
    func on(_ event: Event<Int>) { if case .next(let value) = event { box.values.append(value) } }
}

/// An observer that sends into its own source while it receives (re-entrant `on`).
private final class Echo: ObserverType {
    typealias Element = Int
    let subject: PublishSubject<Int>
    init(_ subject: PublishSubject<Int>) { self.subject = subject }
    func on(_ event: Event<Int>) {
        if case .next(let value) = event, value < 2 { subject.onNext(value + 1) }
    }
}

/// Every observer a subscription delivers to is a node named by its type, with its events,
/// whether or not it is one of the core's own classes.
@Suite(.serialized) struct ObserverNodeTests {
    let file = "ObserverNodeTests.swift"

    @Test func anObserverOfYourOwnIsANodeWithItsEvents() throws {
        var line: UInt = 0
        let observer = MyObserver()
        let trace = checkingNoLeaks {
            Trace.record {
                let bag = DisposeBag()
                line = #line + 1
                Observable.of(1, 2, 3, 4).asObservable().subscribe(observer).disposed(by: bag)
            }
        }
        #expect(observer.received == ["next(1)", "next(2)", "next(3)", "next(4)", "completed"])
        #expect(
            nodeLines(trace) == [
                "1 disposable DisposeBag \(file):\(line - 2)",
                "2 producer ObservableSequence \(file):\(line)",
                "3 observer MyObserver \(file):\(line)",
                "4 disposable SinkDisposer \(file):\(line)",
                "5 sink ObservableSequenceSink \(file):\(line)",
            ])
        #expect(edgeLines(trace) == ["2 -run-> 5", "5 -forward-> 3", "4 -owns-> 5", "1 -owns-> 4"])
        let steps = stepLines(trace)
        #expect(steps.first == "subscribe 3→2 subscribe(3)")
        #expect(steps.contains("run 2→2 run(observer: 3, cancel: 4)"))
        #expect(steps.filter { $0.hasPrefix("forwardOn 5→3") }.count == 5)
        #expect(eventLines(trace) == ["3 next(1)", "3 next(2)", "3 next(3)", "3 next(4)", "3 completed"])
        let node = try #require(trace.nodes.first { $0.type == "MyObserver" })
        #expect(node.terminated != nil)
        // Let go with the sink that held it: the object itself lives on in `observer`.
        #expect(node.deinitialized != nil)
        #expect(Trace.leaks(in: trace).isEmpty)
    }

    @Test func aStructObserverBehindOperators() {
        let box = Collector.Box()
        let trace = checkingNoLeaks {
            Trace.record {
                let d = Observable.of(1, 2, 3).map { $0 * 10 }.filter { $0 > 10 }.subscribe(Collector(box: box))
                d.dispose()
            }
        }
        #expect(box.values == [20, 30])
        let collector = trace.nodes.filter { $0.type == "Collector" }
        #expect(collector.count == 1 && collector.first?.kind == .observer)
        let id = collector.first?.id ?? 0
        #expect(
            eventLines(trace).filter { $0.hasPrefix("\(id) ") } == [
                "\(id) next(20)", "\(id) next(30)", "\(id) completed",
            ])
        #expect(trace.edges.contains { $0.to == id && $0.relation == .forward })
        #expect(trace.steps.first?.from == id)
    }

    @Test func aSubjectsSubscriberOfYourOwn() throws {
        let observer = MyObserver()
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                let d = subject.subscribe(observer)
                subject.onNext(1)
                d.dispose()
                subject.onNext(2)
            }
        }
        #expect(observer.received == ["next(1)"])
        let node = try #require(trace.nodes.first { $0.type == "MyObserver" })
        let subject = try #require(trace.nodes.first { $0.type == "PublishSubject" })
        #expect(edgeLines(trace).contains("\(node.id) -subscribes-> \(subject.id)"))
        #expect(stepLines(trace).contains("subscribe \(node.id)→\(subject.id) subscribe(\(node.id))"))
        #expect(stepLines(trace).contains("forwardOn \(subject.id)→\(node.id) next(1)"))
        #expect(eventLines(trace).contains("\(node.id) next(1)"))
        // Let go when the subscription was disposed, before the second element.
        let second = try #require(trace.events.first { $0.value == "2" })
        #expect(try #require(node.deinitialized) < second.seq)
    }

    /// While tracing, a subject keeps each subscriber in a traced entry: a class and a struct
    /// observer on one subject each get what was sent while they were subscribed, in the `Bag`'s
    /// order, and each delivery is recorded.
    @Test func aSubjectsClassAndStructSubscribersWhileTracing() throws {
        let collected = Collector.Box()
        var received: [String] = []
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                let gone = subject.subscribe(onNext: { _ in })
                let first = subject.subscribe(Collector(box: collected))
                gone.dispose()
                let mine = MyObserver()
                let second = subject.subscribe(mine)
                subject.onNext(1)
                first.dispose()
                subject.onNext(2)
                received = mine.received
                subject.onCompleted()
                second.dispose()
            }
        }
        #expect(collected.values == [1])
        #expect(received == ["next(1)", "next(2)"])
        let subject = try #require(trace.nodes.first { $0.type == "PublishSubject" })
        let mine = try #require(trace.nodes.first { $0.type == "MyObserver" })
        let collector = try #require(trace.nodes.first { $0.type == "Collector" })
        // `mine` took the first slot, which `gone` had left free: it is delivered to first.
        #expect(
            stepLines(trace).filter { $0.hasPrefix("forwardOn \(subject.id)→") } == [
                "forwardOn \(subject.id)→\(mine.id) next(1)",
                "forwardOn \(subject.id)→\(collector.id) next(1)",
                "forwardOn \(subject.id)→\(mine.id) next(2)",
                "forwardOn \(subject.id)→\(mine.id) completed",
            ])
        #expect(
            eventLines(trace).filter { $0.hasPrefix("\(mine.id) ") } == [
                "\(mine.id) next(1)", "\(mine.id) next(2)", "\(mine.id) completed",
            ])
        #expect(eventLines(trace).filter { $0.hasPrefix("\(collector.id) ") } == ["\(collector.id) next(1)"])
    }

    @Test func aReentrantOnIsReportedOnTheObserverItself() throws {
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                let d = subject.subscribe(Echo(subject))
                subject.onNext(0)
                d.dispose()
            }
        }
        let echo = try #require(trace.nodes.first { $0.type == "Echo" })
        #expect(echo.anomalies.map(\.kind) == [.reentrantOn, .reentrantOn])
        #expect(eventLines(trace).filter { $0.hasPrefix("\(echo.id) ") }.count == 3)
    }

    @Test func bindersAndClosureObserversAreNamedByTheirType() {
        final class Label { var text = "" }
        let label = Label()
        let trace = checkingNoLeaks {
            Trace.record {
                let binder = Binder<String>(label, scheduler: CurrentThreadScheduler.instance) { $0.text = $1 }
                let d1 = Observable.just("mojito").subscribe(binder)
                d1.dispose()
                var seen: [Int] = []
                let d2 = Observable.of(1, 2).subscribe(AnyObserver<Int> { if let v = $0.element { seen.append(v) } })
                d2.dispose()
                #expect(seen == [1, 2])
            }
        }
        #expect(label.text == "mojito")
        let observers = trace.nodes.filter { $0.kind == .observer }.map(\.type)
        #expect(observers == ["Binder", "AnyObserver"])
        #expect(trace.nodes.allSatisfy { $0.deinitialized != nil || $0.kind == .producer })
    }

    /// The core's own observers are nodes already: none gets a second one.
    @Test func coreObserversGetNoSecondNode() {
        let trace = checkingNoLeaks {
            Trace.record {
                let subject = PublishSubject<Int>()
                let d1 = subject.map { $0 }.subscribe(onNext: { _ in })
                let d2 = Observable.of(1).subscribe(subject)
                subject.onNext(2)
                d1.dispose()
                d2.dispose()
            }
        }
        #expect(trace.nodes.filter { $0.kind == .observer }.map(\.type) == ["AnonymousObserver"])
    }
}
