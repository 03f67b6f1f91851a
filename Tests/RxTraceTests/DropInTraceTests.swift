import Foundation
import RxTesting
import RxTrace
import Testing

/// The operators added for RxSwift 6 compatibility are traced like the others: a producer
/// node of their own type, with the call site of the line that wrote them.
@Suite(.serialized) struct DropInTraceTests {
    let file = "DropInTraceTests.swift"

    /// `type callSite` of each producer, in order of creation.
    private func producers(_ trace: TraceDocument) -> [String] {
        trace.nodes.filter { $0.kind == .producer }.map { "\($0.type) \($0.callSite ?? "-")" }
    }

    @Test func infallibleOperatorsRecordTheirCallSites() {
        var l1: UInt = 0
        var received: [Int] = []
        let trace = checkingNoLeaks {
            Trace.record {
                l1 = #line + 1
                _ = Infallible.of(1, 2, 3)
                    .map { $0 * 10 }
                    .filter { $0 > 10 }
                    .subscribe(onNext: { received.append($0) })
            }
        }
        #expect(received == [20, 30])
        #expect(
            producers(trace) == [
                "ObservableSequence \(file):\(l1)", "Map \(file):\(l1 + 1)", "Filter \(file):\(l1 + 2)",
            ])
    }

    @Test func newOperatorsAreNodesOfTheirOwn() {
        final class Owner {}
        let owner = Owner()
        var l1: UInt = 0
        let trace = checkingNoLeaks {
            Trace.record {
                let scheduler = TestScheduler(initialClock: 0)
                l1 = #line + 1
                let source = Observable<Int>.empty()
                    .ifEmpty(default: 1)
                    .ifEmpty(switchTo: .just(2))
                    .withUnretained(owner) { $1 }
                    .take(for: .seconds(10), scheduler: scheduler)
                    .skip(.seconds(1), scheduler: scheduler)
                    .multicast({ PublishSubject<Int>() }, selector: { $0 })
                _ = scheduler.start { source }
            }
        }
        #expect(
            Array(producers(trace).prefix(7)) == [
                "Empty \(file):\(l1)", "DefaultIfEmpty \(file):\(l1 + 1)", "Just \(file):\(l1 + 2)",
                "SwitchIfEmpty \(file):\(l1 + 2)", "WithUnretained \(file):\(l1 + 3)", "TakeTime \(file):\(l1 + 4)",
                "SkipTime \(file):\(l1 + 5)",
            ])
        #expect(producers(trace).contains("Multicast \(file):\(l1 + 6)"))
    }

    @Test func traitZipIsAZipNode() {
        var line: UInt = 0
        let trace = checkingNoLeaks {
            Trace.record {
                line = #line + 1
                _ = Single.zip(Single.just(1), Single.just(2)) { $0 + $1 }.subscribe(onSuccess: { _ in })
            }
        }
        #expect(producers(trace).contains("Zip \(file):\(line)"))
    }

    /// `.flatMap(Observable.just)` takes `just` as a function value, which has no line to
    /// record; a call of `just` still records its own.
    @Test func justAsAFunctionValueAndAsACall() {
        var line: UInt = 0
        var received: [Int] = []
        let trace = checkingNoLeaks {
            Trace.record {
                line = #line + 1
                _ = Observable.just(1).flatMap(Observable.just).subscribe(onNext: { received.append($0) })
            }
        }
        #expect(received == [1])
        #expect(producers(trace) == ["Just \(file):\(line)", "FlatMap \(file):\(line)", "Just -"])
    }
}
