// Chapter 11 — schedulers (000 "断点停在 subscribe上": CurrentThreadScheduler,
// isScheduleRequired, the queue of ScheduledItems; 003 "usernameAvailable": observeOn and
// "Scheduler 是一种 Rx 里的任务运行机制"; 003 "整合网络请求": observeOn(MainScheduler)).
import Foundation
import RxCore
import Workbook

// 000: outside any subscription the current thread's trampoline is idle, so the first
// subscribe "needs to schedule" and becomes the trampoline's owner; inside, it does not.
example("isScheduleRequired") {
    print("outside:", CurrentThreadScheduler.isScheduleRequired)
    let d = Observable.of(1).subscribe(onNext: { _ in
        print("inside onNext:", CurrentThreadScheduler.isScheduleRequired)
    })
    d.dispose()
    print("after:", CurrentThreadScheduler.isScheduleRequired)
}

// 000: work scheduled while the trampoline runs is queued (ScheduledItem) and run in order
// after the current item — so an inner `of` does not emit inside the outer's onNext, it waits
// its turn, and the two sequences interleave step by step.
example("trampoline", draw: true) {
    let disposeBag = DisposeBag()
    Observable.of("A", "B")
        .subscribe(onNext: { outer in
            print("outer \(outer)")
            Observable.of(1, 2)
                .subscribe(onNext: { print("  inner \(outer)\($0)") })
                .disposed(by: disposeBag)
            print("outer \(outer) done")
        })
        .disposed(by: disposeBag)
}

// The same run, recorded: the trampoline's queue as it grows and drains (the trace's `enqueue`
// and `dequeue` steps), and where each element reaches an observer.
example("the trampoline's queue") {
    let trace = Diagrams.trace {
        let disposeBag = DisposeBag()
        Observable.of("A", "B")
            .subscribe(onNext: { _ in
                Observable.of(1, 2)
                    .subscribe(onNext: { _ in })
                    .disposed(by: disposeBag)
            })
            .disposed(by: disposeBag)
    }
    print(DiagramOutput.queueText(trace), terminator: "")
}

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
}

// interval on virtual time: a TestScheduler's clock moves only when its work runs, so a
// one-second interval taken three times takes no real time and prints the same every run.
example("interval on virtual time", draw: true) {
    onVirtualTime { clock in
        _ = Observable<Int>.interval(.seconds(1), scheduler: clock.scheduler)
            .take(3)
            .subscribe { print(clock.stamp, $0) }
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

// MARK: - Exercises (the answers: make chapter N=11 ARGS=--answers)

exercise(1) {
    _ = Observable.of(1, 2).subscribe(onNext: { n in
        print("outer", n)
        _ = Observable.just("inner").subscribe(onNext: { print("  \($0) \(n)") })
        print("outer", n, "done")
    })
}

exercise(2) {
    onVirtualTime { clock in
        _ = Observable.of(1, 2)
            .observe(on: clock.scheduler)
            .subscribe(onNext: { print(clock.stamp, "got", $0) })
        print(clock.stamp, "subscribed")
    }
}
