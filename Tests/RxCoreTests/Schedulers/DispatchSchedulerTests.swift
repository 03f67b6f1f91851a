import Dispatch
import Foundation
import RxCore
import RxTesting
import Synchronization
import Testing

/// Waits (up to a generous safety limit, never asserted as a timing) for `count` signals.
private func wait(_ semaphore: DispatchSemaphore, count: Int = 1) -> Bool {
    for _ in 0..<count where semaphore.wait(timeout: .now() + 20) == .timedOut { return false }
    return true
}

/// Work on dispatch queues lets go of its objects a little after it ran: wait (up to a safety
/// limit) until no more core objects are alive than at `baseline`, so the leak check measures
/// leaks, not teardown in flight.
func settle(to baseline: ResourceSnapshot) {
    let deadline = Date().addingTimeInterval(10)
    while !Resources.snapshot().grown(since: baseline).values.allSatisfy({ $0 <= 0 }) && Date() < deadline {
        Thread.sleep(forTimeInterval: 0.001)
    }
}

@Suite(.serialized, .noLeaks)
struct DispatchSchedulerTests {
    @Test func serialSchedulerRunsInOrderOneAtATime() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.serial")
        let done = DispatchSemaphore(value: 0)
        let state = Mutex<(order: [Int], inside: Int, maxInside: Int)>(([], 0, 0))
        for i in 0..<200 {
            _ = scheduler.schedule(i) { i in
                state.withLock {
                    $0.inside += 1; $0.maxInside = max($0.maxInside, $0.inside)
                }
                state.withLock {
                    $0.order.append(i); $0.inside -= 1
                }
                if i == 199 { done.signal() }
                return Disposables.create()
            }
        }
        #expect(wait(done))
        let final = state.withLock { $0 }
        #expect(final.order == Array(0..<200))
        #expect(final.maxInside == 1)
    }

    @Test func serialSchedulerInitsAllRunOnTheirQueue() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let key = DispatchSpecificKey<String>()
        let target = DispatchQueue(label: "test.target", attributes: .concurrent)
        let schedulers: [SerialDispatchQueueScheduler] = [
            SerialDispatchQueueScheduler(qos: .userInitiated),
            SerialDispatchQueueScheduler(queue: target, internalSerialQueueName: "test.on-target"),
            SerialDispatchQueueScheduler(
                internalSerialQueueName: "test.configured",
                serialQueueConfiguration: { $0.setSpecific(key: key, value: "configured") }),
        ]
        let done = DispatchSemaphore(value: 0)
        let labels = Mutex<[String]>([])
        for scheduler in schedulers {
            _ = scheduler.schedule(()) { _ in
                labels.withLock { $0.append(DispatchQueue.getSpecific(key: key) ?? "-") }
                done.signal()
                return Disposables.create()
            }
        }
        #expect(wait(done, count: 3))
        #expect(labels.withLock { $0.sorted() } == ["-", "-", "configured"])
    }

    @Test func relativeWorkRunsLaterAndCanBeCancelled() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let ran = DispatchSemaphore(value: 0)
        let cancelledRan = Atomic<Bool>(false)
        let cancelled = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
            cancelledRan.store(true, ordering: .relaxed)
            return Disposables.create()
        }
        cancelled.dispose()
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(60)) { _ in
            ran.signal()
            return Disposables.create()
        }
        #expect(wait(ran))
        #expect(cancelledRan.load(ordering: .relaxed) == false)
    }

    @Test func periodicWorkThreadsStateUntilDisposed() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.periodic")
        let reachedFive = DispatchSemaphore(value: 0)
        let seen = Mutex<[Int]>([])
        let timer = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(1)) { n in
            seen.withLock { $0.append(n) }
            if n == 5 { reachedFive.signal() }
            return n + 1
        }
        #expect(wait(reachedFive))
        timer.dispose()
        let values = seen.withLock { $0 }
        #expect(Array(values.prefix(6)) == [0, 1, 2, 3, 4, 5])
    }

    @Test func intervalOnAConcurrentSchedulerDeliversInOrder() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let done = DispatchSemaphore(value: 0)
        let values = Mutex<[Int]>([])
        let d = Observable<Int>.interval(.milliseconds(1), scheduler: scheduler)
            .subscribe(onNext: { n in
                let count = values.withLock {
                    $0.append(n); return $0.count
                }
                if count == 10 { done.signal() }
            })
        #expect(wait(done))
        d.dispose()
        #expect(Array(values.withLock { $0 }.prefix(10)) == Array(0..<10))
    }

    @Test func operationQueueSchedulerRunsOperations() {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let done = DispatchSemaphore(value: 0)
        let count = Atomic<Int>(0)
        for _ in 0..<50 {
            _ = scheduler.schedule(()) { _ in
                count.wrappingAdd(1, ordering: .relaxed)
                done.signal()
                return Disposables.create()
            }
        }
        #expect(wait(done, count: 50))
        queue.waitUntilAllOperationsAreFinished()
        #expect(count.load(ordering: .relaxed) == 50)
    }
}

@Suite(.serialized, .noLeaks)
struct MainSchedulerTests {
    @Test func workScheduledFromABackgroundThreadRunsOnTheMainQueue() async {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let onMain = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async {
                _ = MainScheduler.instance.schedule(()) { _ in
                    continuation.resume(returning: MainScheduler.isOnMainQueue)
                    return Disposables.create()
                }
            }
        }
        #expect(onMain)
    }

    /// On the main queue with nothing queued, `instance` runs at once; `asyncInstance` never does.
    @Test func instanceRunsAtOnceOnTheMainQueueAndAsyncInstanceDoesNot() async {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let order = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            DispatchQueue.main.async {
                var order: [String] = []
                _ = MainScheduler.instance.schedule(()) { _ in
                    order.append("instance"); return Disposables.create()
                }
                _ = MainScheduler.asyncInstance.schedule(()) { _ in
                    order.append("asyncInstance")
                    continuation.resume(returning: order)
                    return Disposables.create()
                }
                order.append("after scheduling")
            }
        }
        #expect(order == ["instance", "after scheduling", "asyncInstance"])
    }

    @Test func observeOnMainDeliversEveryEventOnTheMainQueue() async {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<([Int], Bool), Never>) in
            var values: [Int] = []
            var allOnMain = true
            var subscription: Disposable?
            subscription = Observable.of(1, 2, 3)
                .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
                .observe(on: MainScheduler.instance)
                .subscribe(
                    onNext: { value in
                        allOnMain = allOnMain && MainScheduler.isOnMainQueue
                        values.append(value)
                    },
                    onCompleted: {
                        continuation.resume(returning: (values, allOnMain))
                        _ = subscription
                    })
        }
        #expect(result.0 == [1, 2, 3])
        #expect(result.1)
    }
}

@Suite(.serialized, .noLeaks)
struct HistoricalSchedulerTests {
    @Test func replaysAnHourOfMinutesInstantly() {
        let start = Date(timeIntervalSince1970: 0)
        let scheduler = HistoricalScheduler(initialClock: start)
        var ticks: [Int] = []
        var times: [TimeInterval] = []
        let d = Observable<Int>.interval(.seconds(60), scheduler: scheduler).subscribe(onNext: {
            ticks.append($0)
            times.append(scheduler.now.timeIntervalSince(start))
        })
        scheduler.advanceTo(start.addingTimeInterval(3600))
        d.dispose()
        // A disposed item stays queued (holding the periodic closure, which holds the scheduler)
        // until the scheduler runs again and drops it.
        scheduler.start()
        #expect(ticks == Array(0..<60))
        #expect(times.first == 60)
        #expect(times.last == 3600)
        #expect(scheduler.clock == start.addingTimeInterval(3600))
    }

    @Test func timeOperatorsRunOnIt() {
        let start = Date(timeIntervalSince1970: 1_000)
        let scheduler = HistoricalScheduler(initialClock: start)
        var received: [(Int, TimeInterval)] = []
        let d = Observable.of(1, 2).delay(.seconds(30), scheduler: scheduler).subscribe(onNext: {
            received.append(($0, scheduler.now.timeIntervalSince(start)))
        })
        scheduler.start()
        d.dispose()
        #expect(received.map(\.0) == [1, 2])
        #expect(received.map(\.1) == [30, 30])
    }
}

@Suite(.serialized, .noLeaks)
struct ConcurrentMainSchedulerTests {
    @Test func runsOnTheMainQueue() async {
        let onMain = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
                continuation.resume(returning: MainScheduler.isOnMainQueue)
                return Disposables.create()
            }
        }
        #expect(onMain)
        let later = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            _ = ConcurrentMainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(5)) { _ in
                continuation.resume(returning: MainScheduler.isOnMainQueue)
                return Disposables.create()
            }
        }
        #expect(later)
    }

    @Test func subscribeOnItFromTheMainQueueRunsAtOnce() async {
        let ranAtOnce = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            DispatchQueue.main.async {
                var subscribed = false
                let subscription = Observable<Int>.create { _ in
                    subscribed = true
                    return Disposables.create()
                }.subscribe(on: ConcurrentMainScheduler.instance).subscribe()
                continuation.resume(returning: subscribed)
                subscription.dispose()
            }
        }
        #expect(ranAtOnce)
    }
}
