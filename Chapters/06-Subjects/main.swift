// Chapter 06 — subjects (003 "Subjects": PublishSubject, ReplaySubject, BehaviorSubject,
// Variable). A subject is observer and observable at once: the document's tap on a water pipe.
import RxCore
import Workbook

// 003 defines this helper before the subject examples. The subscription is left to the subject:
// when the example ends, the subject goes and its observers with it.
func writeSequenceToConsole<O: ObservableType>(name: String, sequence: O) {
    _ =
        sequence
        .subscribe { e in
            print("Subscription: \(name), event: \(e)")
        }
}

example("PublishSubject", draw: true) {
    let subject = PublishSubject<String>()
    writeSequenceToConsole(name: "1", sequence: subject)
    subject.on(.next("a"))
    subject.on(.next("b"))
    writeSequenceToConsole(name: "2", sequence: subject)
    subject.on(.next("c"))
    subject.on(.next("d"))
}

example("ReplaySubject", draw: true) {
    let subject = ReplaySubject<String>.create(bufferSize: 1)
    writeSequenceToConsole(name: "1", sequence: subject)
    subject.on(.next("a"))
    subject.on(.next("b"))
    writeSequenceToConsole(name: "2", sequence: subject)
    subject.on(.next("c"))
    subject.on(.next("d"))
}

example("BehaviorSubject", draw: true) {
    let subject = BehaviorSubject(value: "z")
    writeSequenceToConsole(name: "1", sequence: subject)
    subject.on(.next("a"))
    subject.on(.next("b"))
    writeSequenceToConsole(name: "2", sequence: subject)
    subject.on(.next("c"))
    subject.on(.completed)
}

// 003's `Variable` was deprecated in RxSwift 4.0, still shipped in 5.x and removed in 6.0;
// `BehaviorRelay` (module RxRelay since RxSwift 5; part of RxCocoa in 4) replaces it. A relay
// cannot be terminated at all — it has no `on(.completed)` and it does not complete when it is
// deallocated — so the two `Completed` lines 003 prints are gone.
example("Variable") {
    let variable = BehaviorRelay(value: "z")
    writeSequenceToConsole(name: "1", sequence: variable)
    variable.accept("a")
    variable.accept("b")
    writeSequenceToConsole(name: "2", sequence: variable)
    variable.accept("c")
    print("variable.value =", variable.value)
}

// A subscriber that arrives after the end: each subject replays its terminal event
// (ReplaySubject also its buffer).
example("late subscriber") {
    let publish = PublishSubject<String>()
    let replay = ReplaySubject<String>.create(bufferSize: 2)
    let behavior = BehaviorSubject(value: "z")
    publish.onNext("a"); publish.onCompleted()
    replay.onNext("a"); replay.onNext("b"); replay.onNext("c"); replay.onCompleted()
    behavior.onNext("a"); behavior.onCompleted()
    writeSequenceToConsole(name: "late publish", sequence: publish)
    writeSequenceToConsole(name: "late replay", sequence: replay)
    writeSequenceToConsole(name: "late behavior", sequence: behavior)
}

// AsyncSubject (RxSwift's fourth subject): only the last element, and only on completion.
example("AsyncSubject") {
    let subject = AsyncSubject<String>()
    writeSequenceToConsole(name: "1", sequence: subject)
    subject.on(.next("a"))
    subject.on(.next("b"))
    subject.on(.completed)
}

// MARK: - Exercises (the answers: make chapter N=06 ARGS=--answers)

exercise(1) {
    let subject = BehaviorSubject(value: "a")
    subject.onNext("b")
    _ = subject.subscribe { print("1:", $0) }
    subject.onNext("c")
    subject.onCompleted()
    _ = subject.subscribe { print("2:", $0) }
} why: {
    Why(
        """
        A `BehaviorSubject` starts each subscriber with its latest element: `b`, not the initial `a`. Once it has
        completed it has no latest element to give, and a later subscriber gets only `completed`.
        """,
        zh: """
            `BehaviorSubject` 给每个新订阅者先发最新的元素：是 `b`，不是初始值 `a`。完成之后它就没有“最新元素”可给了，
            之后来的订阅者只收到 `completed`。
            """)
}

exercise(2) {
    let subject = ReplaySubject<Int>.create(bufferSize: 2)
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    subject.onCompleted()
    _ = subject.subscribe { print($0) }
} why: {
    Why(
        """
        A `ReplaySubject` keeps its last `bufferSize` elements even after it completed and replays them to every new
        subscriber, followed by the stop event. 1 fell out of the buffer of two.
        """,
        zh: """
            `ReplaySubject` 即使完成了，也留着最后 `bufferSize` 个元素，给每个新订阅者重放一遍，再补上终止事件。缓冲
            区只有两格，1 早被挤出去了。
            """)
}
