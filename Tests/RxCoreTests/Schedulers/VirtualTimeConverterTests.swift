import Foundation
import RxCore
import RxTesting
import Testing

/// A converter written as one is for RxTest: minutes of virtual time, spans in `TimeInterval`.
private struct MinuteConverter: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: Int) -> RxTime { Date(timeIntervalSince1970: Double(virtualTime) * 60) }
    func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.timeIntervalSince1970 / 60) }
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval { Double(virtualTimeInterval) * 60 }
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int(timeInterval / 60) }
    func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
    func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}

@Suite(.serialized, .noLeaks)
struct VirtualTimeConverterTests {
    @Test func aCustomConverterDrivesAVirtualTimeScheduler() {
        let scheduler = VirtualTimeScheduler(initialClock: 0, converter: MinuteConverter())
        var ticks: [Int] = []
        let subscription = Observable<Int>.interval(.seconds(120), scheduler: scheduler)
            .take(3)
            .subscribe(onNext: { _ in ticks.append(scheduler.clock) })
        scheduler.start()
        #expect(ticks == [2, 4, 6])
        subscription.dispose()
    }

    @Test func testSchedulerSpansRoundToTicks() {
        func firedAt(_ dueTime: RxTimeInterval, resolution: Double) -> Int {
            let scheduler = TestScheduler(initialClock: 0, resolution: resolution, simulateProcessingDelay: false)
            var fired = -1
            _ = scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                fired = scheduler.clock
                return Disposables.create()
            }
            scheduler.start()
            return fired
        }
        #expect(firedAt(.milliseconds(2500), resolution: 1) == 3)
        #expect(firedAt(.milliseconds(400), resolution: 1) == 0)
        #expect(firedAt(.milliseconds(250), resolution: 0.001) == 250)
    }
}
