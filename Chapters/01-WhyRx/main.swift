// Chapter 01 — why Rx: functional versus imperative (001 "什么是 函数响应式编程",
// 000 "总结").
import RxCore
import Workbook

// 001: a function maps input to output and changes nothing outside itself.
func changeNum(input: Int) -> Int {
    return input * 3
}

example("changeNum") {
    let input = 2
    print(changeNum(input: input), "— and input is still", input)
}

// 001 命令式编程: say *how*, with a mutable array.
example("imperative") {
    let array = [1, 2, 3, 4]
    var newArray: [Int] = []
    for item in array {
        var num = item
        num *= 2
        newArray.append(num)
    }
    print(newArray)
}

// 001 函数式编程: say *what*. (001 writes `compactMap` here; a transform that cannot fail is a
// `map` — see README, 原文勘误.)
example("functional") {
    let array = [1, 2, 3, 4]
    let newArray = array.map {
        return $0 * 2
    }
    print(newArray)
}

// 000 总结: "Rx's Observable lets you treat asynchronous event streams like collections".
// The same transform over a sequence of events instead of an array.
example("reactive", draw: true) {
    let disposeBag = DisposeBag()
    Observable.from([1, 2, 3, 4])
        .map { $0 * 2 }
        .subscribe { print($0) }
        .disposed(by: disposeBag)
}

// 000 总结: the collection vocabulary — map, filter, reduce — reads the same on events.
example("filter and map", draw: true) {
    let disposeBag = DisposeBag()
    Observable.of(1, 2, 3, 4, 5, 6)
        .filter { $0 % 2 == 0 }
        .map { "even \($0)" }
        .subscribe(onNext: { print($0) })
        .disposed(by: disposeBag)
}

// 001 响应式 — a tap, a request, a label, one chain that reacts to each tap — needs a button
// that is an observable and an operator that starts a request per tap: chapter 16 runs it, once
// chapters 08 (time), 10 (flatMapLatest) and 16 (rx, bind(to:)) have brought the pieces.

// MARK: - Exercises (the answers: make chapter N=01 ARGS=--answers)

exercise(1) {
    let numbers = [1, 2, 3]
    let doubledArray = numbers.map { n -> Int in
        print("array maps", n)
        return n * 2
    }
    let doubledEvents = Observable.from(numbers).map { n -> Int in
        print("observable maps", n)
        return n * 2
    }
    print("nothing subscribed yet:", doubledArray)
    _ = doubledEvents.subscribe(onNext: { print("got", $0) })
} why: {
    Why(
        """
        An array's `map` runs at once and builds the whole new array; an observable's `map` only describes a step, and
        nothing runs until `subscribe`. Then each element goes down the whole chain, the `map` and then the
        subscriber, before the next one starts.
        """,
        zh: """
            数组的 `map` 当场执行，一口气算出整个新数组；Observable 的 `map` 只是描述了一个步骤，`subscribe` 之前什
            么也不跑。订阅之后，每个元素先走完整条链——先 `map`，再到订阅者——下一个元素才开始。
            """)
}

exercise(2) {
    _ = Observable.of(1, 2, 3, 4, 5)
        .filter { $0 % 2 == 1 }
        .map { $0 * $0 }
        .reduce(0, accumulator: +)
        .subscribe { print($0) }
} why: {
    Why(
        """
        `filter` keeps 1, 3 and 5, `map` squares them into 1, 9 and 25, and `reduce` adds them up. It can send its one
        element, 35, only when its source has completed, and completes right after.
        """,
        zh: """
            `filter` 留下 1、3、5，`map` 把它们平方成 1、9、25，`reduce` 把它们加起来。它得等源序列完成，才能发出唯
            一的元素 35，紧接着发出 completed。
            """)
}
