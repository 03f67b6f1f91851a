// Chapter 08 — schedulers (003 "usernameAvailable": observeOn and "Scheduler 是一种 Rx 里的任务运行
// 机制"; 003 "整合网络请求": observeOn(MainScheduler); 003 SupportCode's delay). The trampoline,
// the scheduler every subscription starts on, is chapter 03.
import Foundation
import RxCore
import Workbook

// 003: observeOn moves the rest of the chain to another scheduler. On Linux nothing drains the
// main queue by itself, so the example drains it until the sequence is done
// (MainScheduler.drain; see Sources/RxCore/Schedulers/MainScheduler.swift).
example("observeOn") {
    let backgroundScheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "background")
    var done = false
    let sequence1 = Observable.just(1)
    let subscription =
        sequence1
        .observe(on: backgroundScheduler)
        .map { n -> Int in
            print("This is performed on background scheduler (main thread: \(Thread.isMainThread))")
            return n
        }
        .observe(on: MainScheduler.instance)
        .map { n -> Int in
            print("This is performed on main scheduler (main thread: \(Thread.isMainThread))")
            return n
        }
        .subscribe(onNext: { print("next(\($0))") }, onCompleted: { done = true })
    _ = MainScheduler.drain(timeout: 10) { done }
    subscription.dispose()
}

// subscribeOn moves the *subscription* (and so a create handler's work) to a scheduler;
// observeOn brings the events back.
example("subscribeOn") {
    let backgroundScheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "background")
    var done = false
    let work = Observable<String>.create { observer in
        print("create handler runs on main thread: \(Thread.isMainThread)")
        observer.onNext("result")
        observer.onCompleted()
        return Disposables.create()
    }
    let subscription =
        work
        .subscribe(on: backgroundScheduler)
        .observe(on: MainScheduler.instance)
        .subscribe(
            onNext: { print("\($0) arrives on main thread: \(Thread.isMainThread)") },
            onCompleted: { done = true })
    _ = MainScheduler.drain(timeout: 10) { done }
    subscription.dispose()
    // Disposing hops to the background queue as well: wait until it has run there, so that none
    // of this example's work is left for the next one (which draws its run) to see.
    let flushed = DispatchSemaphore(value: 0)
    _ = backgroundScheduler.schedule(()) { _ in
        flushed.signal()
        return Disposables.create()
    }
    flushed.wait()
}

// interval on virtual time: a TestScheduler's clock moves only when its work runs, so a
// one-second interval disposed after three ticks takes no real time and prints the same every run.
example("interval on virtual time", draw: true) {
    onVirtualTime { clock in
        let subscription = Observable<Int>.interval(.seconds(1), scheduler: clock.scheduler)
            .subscribe { print(clock.stamp, $0) }
        clock.at(3.5) {
            print(clock.stamp, "dispose")
            subscription.dispose()
        }
    }
}

// timer: one element after a delay, then completed — the "request answered later" of the
// chapters that follow.
example("timer on virtual time") {
    onVirtualTime { clock in
        _ = Observable<Int>.timer(.milliseconds(300), scheduler: clock.scheduler)
            .subscribe { print(clock.stamp, $0) }
        print(clock.stamp, "subscribed")
    }
}

// 003 "Dispose Sample" used a real 0.3 s interval; the documents' `delay` helper uses
// dispatch_after. Both become virtual: Workbook's delay(_:closure:) runs on the clock.
example("delay") {
    onVirtualTime { clock in
        print(clock.stamp, "scheduling")
        delay(0.5) { print(clock.stamp, "half a second later") }
        delay(0.2) { print(clock.stamp, "0.2 s later") }
    }
}

// MARK: - Exercises (the answers: make chapter N=08 ARGS=--answers)

exercise(1) {
    onVirtualTime { clock in
        _ = Observable.of(1, 2)
            .observe(on: clock.scheduler)
            .subscribe(onNext: { print(clock.stamp, "got", $0) })
        print(clock.stamp, "subscribed")
    }
} why: {
    Why(
        """
        `observe(on:)` hands each element to the scheduler instead of passing it on: the virtual clock runs its queued
        work only when `onVirtualTime` starts it, after the closure returned, so `subscribed` comes first and both
        elements follow at the same virtual time, 0, in order.
        """,
        zh: """
            `observe(on:)` 不直接往下传元素，而是把每个元素交给调度器。虚拟时钟要等 `onVirtualTime` 启动它才执行排队
            的工作，那时闭包已经返回，所以先打印 `subscribed`，两个元素随后按顺序到达，虚拟时间都是 0。
            """)
}

exercise(2) {
    onVirtualTime { clock in
        let subscription = Observable<Int>.interval(.milliseconds(400), scheduler: clock.scheduler)
            .subscribe(onNext: { print(clock.stamp, $0) }, onDisposed: { print(clock.stamp, "disposed") })
        clock.at(1) { subscription.dispose() }
    }
} why: {
    Why(
        """
        `interval` sends its first element one period after the subscription, not at once: 0 at 0.4 s, 1 at 0.8 s. The
        dispose at 1 s comes before the tick at 1.2 s, so there is no third element, and an interval never completes:
        `onDisposed` is the last line.
        """,
        zh: """
            `interval` 的第一个元素在订阅后过一个周期才发，不是马上发：0.4 秒发 0，0.8 秒发 1。1 秒时的 dispose 赶在
            1.2 秒那一拍之前，所以没有第三个元素；interval 本身永远不会完成，最后一行是 `onDisposed`。
            """)
}
