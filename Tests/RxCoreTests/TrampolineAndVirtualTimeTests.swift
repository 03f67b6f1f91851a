import Foundation
import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct CurrentThreadSchedulerTests {
    @Test func scheduleRequiredOnlyOutsideATrampoline() {
        #expect(CurrentThreadScheduler.isScheduleRequired)
        var inside: Bool?
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            inside = CurrentThreadScheduler.isScheduleRequired
            return Disposables.create()
        }
        #expect(inside == false)
        #expect(CurrentThreadScheduler.isScheduleRequired)
    }

    /// Each thread has its own trampoline: one running here is not running on another thread,
    /// and threads that ended leave nothing behind for the next ones.
    @Test func eachThreadHasItsOwnTrampoline() {
        func onNewThread(_ body: @escaping @Sendable () -> Void) {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                body()
                done.signal()
            }
            thread.start()
            done.wait()
        }
        let seen = Collected<String>()
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            onNewThread {
                seen.append("other thread required: \(CurrentThreadScheduler.isScheduleRequired)")
                _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                    seen.append("other thread inside: \(CurrentThreadScheduler.isScheduleRequired)")
                    return Disposables.create()
                }
            }
            seen.append("this thread inside: \(CurrentThreadScheduler.isScheduleRequired)")
            return Disposables.create()
        }
        for round in 1...3 {
            onNewThread {
                _ = Observable.just(round).map { $0 * 10 }.subscribe(onNext: { seen.append("thread \(round): \($0)") })
            }
        }
        #expect(
            seen.all == [
                "other thread required: true",
                "other thread inside: false",
                "this thread inside: false",
                "thread 1: 10",
                "thread 2: 20",
                "thread 3: 30",
            ])
        #expect(CurrentThreadScheduler.isScheduleRequired)
    }

    @Test func nestedScheduleRunsAfterTheCurrentAction() {
        let order = Collected<String>()
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            order.append("outer start")
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                order.append("inner 1")
                _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                    order.append("inner 3")
                    return Disposables.create()
                }
                return Disposables.create()
            }
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                order.append("inner 2")
                return Disposables.create()
            }
            order.append("outer end")
            return Disposables.create()
        }
        #expect(order.all == ["outer start", "outer end", "inner 1", "inner 2", "inner 3"])
    }

    @Test func disposingQueuedWorkCancelsIt() {
        let order = Collected<String>()
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            let queued = CurrentThreadScheduler.instance.schedule(()) { _ in
                order.append("cancelled work ran")
                return Disposables.create()
            }
            queued.dispose()
            order.append("outer")
            return Disposables.create()
        }
        #expect(order.all == ["outer"])
    }

    /// Two sequences subscribed in one trampoline take turns, one element each (000).
    @Test func sequencesSubscribedInOneTrampolineInterleave() {
        let got = Collected<Int>()
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            _ = Observable.of(1, 2).subscribe(onNext: { got.append($0) })
            _ = Observable.of(3, 4).subscribe(onNext: { got.append($0) })
            return Disposables.create()
        }
        #expect(got.all == [1, 3, 2, 4])
    }

    /// Outside a trampoline, each subscription runs to the end before `subscribe` returns.
    @Test func sequencesSubscribedOneAfterTheOtherDoNotInterleave() {
        let got = Collected<Int>()
        _ = Observable.of(1, 2).subscribe(onNext: { got.append($0) })
        _ = Observable.of(3, 4).subscribe(onNext: { got.append($0) })
        #expect(got.all == [1, 2, 3, 4])
    }

    /// A subscription made while an element is delivered waits for the trampoline: its first
    /// element comes after the current one, before the outer sequence's next.
    @Test func subscribingFromOnNextQueuesBehindTheCurrentElement() {
        let got = Collected<Int>()
        _ = Observable.of(1, 2).subscribe(onNext: { value in
            got.append(value)
            if value == 1 { _ = Observable.of(10, 11).subscribe(onNext: { got.append($0) }) }
        })
        #expect(got.all == [1, 10, 2, 11])
    }

    @Test func scheduleRecursiveOnTheTrampolineIsIterative() {
        var count = 0
        _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
            count += 1
            if value < 100_000 { recurse(value + 1) }
        }
        #expect(count == 100_001)
    }
}

@Suite(.serialized, .noLeaks)
struct VirtualTimeSchedulerTests {
    @Test func sameTimeRunsInSchedulingOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let order = Collected<String>()
        scheduler.scheduleAt(20) { order.append("b") }
        scheduler.scheduleAt(10) { order.append("a") }
        scheduler.scheduleAt(20) { order.append("c") }
        scheduler.start()
        #expect(order.all == ["a", "b", "c"])
        #expect(scheduler.clock == 20)
    }

    @Test func advanceToRunsDueWorkAndMovesTheClock() {
        let scheduler = TestScheduler(initialClock: 0)
        let order = Collected<TestTime>()
        for time in [10, 20, 30] { scheduler.scheduleAt(time) { order.append(scheduler.clock) } }
        scheduler.advanceTo(25)
        #expect(order.all == [10, 20])
        #expect(scheduler.clock == 25)
        scheduler.start()
        #expect(order.all == [10, 20, 30])
    }

    @Test func stopEndsStartAfterTheRunningItem() {
        let scheduler = TestScheduler(initialClock: 0)
        let order = Collected<Int>()
        scheduler.scheduleAt(10) {
            order.append(10); scheduler.stop()
        }
        scheduler.scheduleAt(20) { order.append(20) }
        scheduler.start()
        #expect(order.all == [10])
        scheduler.start()
        #expect(order.all == [10, 20])
    }

    @Test func sleepMovesTheClockWithoutRunningWork() {
        let scheduler = TestScheduler(initialClock: 100)
        var ran = false
        scheduler.scheduleAt(150) { ran = true }
        scheduler.sleep(100)
        #expect(scheduler.clock == 200 && !ran)
        scheduler.start()
        #expect(ran, "overdue work still runs")
    }

    @Test func disposedWorkDoesNotRun() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran = false
        let work = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
            ran = true; return Disposables.create()
        }
        work.dispose()
        scheduler.start()
        #expect(!ran)
    }
}
