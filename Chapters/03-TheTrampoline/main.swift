// Chapter 03 — the trampoline (000 "断点停在 subscribe上": CurrentThreadScheduler,
// isScheduleRequired, the queue of ScheduledItems; 001 step6 "这里涉及到了线程").
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

// What is queued is the sequence's next step, not the subscription: a `create` subscribed inside
// the outer's onNext runs its handler at once, before the onNext returns.
example("create is not queued") {
    let disposeBag = DisposeBag()
    Observable.of("A", "B")
        .subscribe(onNext: { outer in
            print("outer \(outer)")
            Observable<String>.create { observer in
                observer.onNext("  handler of \(outer) runs at once")
                return Disposables.create()
            }
            .subscribe(onNext: { print($0) })
            .disposed(by: disposeBag)
            print("outer \(outer) done")
        })
        .disposed(by: disposeBag)
}

// MARK: - Exercises (the answers: make chapter N=03 ARGS=--answers)

exercise(1) {
    _ = Observable.of(1, 2).subscribe(onNext: { n in
        print("outer", n)
        _ = Observable.just("inner").subscribe(onNext: { print("  \($0) \(n)") })
        print("outer", n, "done")
    })
} why: {
    Why(
        """
        `just` uses no scheduler: it sends its element and `completed` right inside `subscribe`, so `inner` prints
        inside the outer's onNext, before `done`. Only the sequences that step through a scheduler, `of`, `from` and
        `range`, queue each element on the trampoline and wait their turn, as in the `trampoline` example.
        """,
        zh: """
            `just` 不经过调度器：它在 `subscribe` 里当场发出元素和 `completed`，所以 `inner` 打印在外层 onNext 里面、
            `done` 之前。只有一步步经调度器发元素的序列——`of`、`from`、`range`——才把每个元素排进蹦床的队列，等着轮到
            自己，就像 `trampoline` 那个例子。
            """)
}

exercise(2) {
    print("before:", CurrentThreadScheduler.isScheduleRequired)
    _ = Observable<Int>.create { observer in
        print("in the handler:", CurrentThreadScheduler.isScheduleRequired)
        observer.onNext(1)
        return Disposables.create()
    }
    .subscribe(onNext: { _ in print("in onNext:", CurrentThreadScheduler.isScheduleRequired) })
    print("after:", CurrentThreadScheduler.isScheduleRequired)
} why: {
    Why(
        """
        The outermost `subscribe` finds the trampoline idle, marks the thread busy and runs the subscription inside
        `schedule`: the handler and the onNext it calls both run while the flag says no scheduling is required. When
        `subscribe` returns, the trampoline is idle again.
        """,
        zh: """
            最外层的 `subscribe` 发现蹦床空闲，就把线程标成忙碌，在 `schedule` 里执行这次订阅：handler 和它调用的
            onNext 都在这段时间里运行，标志说“不需要再调度”。`subscribe` 返回时，蹦床又空闲了。
            """)
}
