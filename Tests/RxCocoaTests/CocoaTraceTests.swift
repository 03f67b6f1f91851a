import Foundation
import RxCocoa
import RxTesting
import RxTrace
import Testing

/// Drivers, Signals and RxCocoa's Foundation extensions are traced like every other operator:
/// each is made of RxCore producers, recorded with the call site of the line that wrote it
/// (never a line inside RxCocoa).
@Suite(.serialized, .noLeaks)
struct CocoaTraceTests {
    let file = "CocoaTraceTests.swift"

    /// `type callSite` of each producer, in order of creation.
    private func producers(_ trace: TraceDocument) -> [String] {
        trace.nodes.filter { $0.kind == .producer }.map { "\($0.type) \($0.callSite ?? "-")" }
    }

    @Test func driverOperatorsAreNodesWithTheirCallSites() {
        var l1: UInt = 0
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let trace = Trace.record {
            SharingScheduler.mock(scheduler: scheduler) {
                l1 = #line + 1
                let driver = xs.asDriver(onErrorJustReturn: -1)
                    .map { $0 * 10 }
                    .filter { $0 > 10 }
                scheduler.scheduleAt(200) { _ = driver.drive(observer) }
                scheduler.start()
            }
        }
        #expect(observer.events == [.next(221, 20), .completed(231)])
        let made = producers(trace).filter { $0.contains(file) }
        #expect(
            made.filter { !$0.hasPrefix("RefCount") && !$0.hasPrefix("Multicast") } == [
                "ObserveOn \(file):\(l1)", "Catch \(file):\(l1)", "Map \(file):\(l1 + 1)", "Filter \(file):\(l1 + 2)",
            ])
        // Each of the three is shared (a Driver), with the sharing's nodes on the same line.
        for line in [l1, l1 + 1, l1 + 2] {
            #expect(made.contains("RefCount \(file):\(line)"), "the sharing of line \(line) is a node")
        }
        #expect(trace.nodes.allSatisfy { !($0.callSite ?? "").contains("SharedSequence") })
    }

    @Test func combiningAndFlatteningAreNodes() {
        var line: UInt = 0
        let scheduler = TestScheduler(initialClock: 0)
        let trace = Trace.record {
            SharingScheduler.mock(scheduler: scheduler) {
                line = #line + 1
                let combined = Driver.combineLatest(Driver.just(1), Driver.just(2)) { $0 + $1 }.flatMapLatest {
                    Signal.just($0)
                }
                _ = scheduler.start { combined }
            }
        }
        let made = producers(trace)
        #expect(made.contains("CombineLatest \(file):\(line)"))
        #expect(made.contains("FlatMapLatest \(file):\(line)"))
        #expect(made.contains("Just \(file):\(line)"))
    }

    @Test func foundationExtensionsAreNodes() {
        var line: UInt = 0
        let center = NotificationCenter()
        let trace = Trace.record {
            line = #line + 1
            let subscription = center.rx.notification(Notification.Name("traced")).subscribe()
            center.post(name: Notification.Name("traced"), object: nil)
            subscription.dispose()
        }
        #expect(producers(trace) == ["AnonymousObservable \(file):\(line)"])
        #expect(trace.nodes.allSatisfy { !($0.callSite ?? "").contains("NotificationCenter+Rx") })
    }
}
