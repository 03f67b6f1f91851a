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
example("reactive") {
    let disposeBag = DisposeBag()
    Observable.from([1, 2, 3, 4])
        .map { $0 * 2 }
        .subscribe { print($0) }
        .disposed(by: disposeBag)
}

// 000 总结: the collection vocabulary — map, filter, reduce — reads the same on events.
example("filter and map") {
    let disposeBag = DisposeBag()
    Observable.of(1, 2, 3, 4, 5, 6)
        .filter { $0 % 2 == 0 }
        .map { "even \($0)" }
        .subscribe(onNext: { print($0) })
        .disposed(by: disposeBag)
}

/// A headless label: what `titleLabel.rx.text` would set.
final class Label {
    var text: String? {
        didSet { print("label.text =", text ?? "nil") }
    }
}

/// 001's `HomeApi.getTitle()`: a request that answers 0.3 s after it is sent (virtual time).
func getTitle(on clock: VirtualClock) -> Observable<String> {
    Observable.deferred {
        print("\(clock.stamp) request sent")
        return Observable<Int>.timer(.milliseconds(300), scheduler: clock.scheduler)
            .map { _ in "mojito (answered at \(clock.stamp))" }
    }
}

// 001 响应式: a tap, then a network reply, then the label. The chain is written once and reacts to
// each tap. 001 subscribes to the request inside the tap's subscribe; the idiom is one chain:
// flatMapLatest starts the request (and drops a reply that a newer tap made stale), bind(to:)
// hands the result to the label. A subject stands in for the button; time is virtual.
example("button tap → request → label", draw: true) {
    let disposeBag = DisposeBag()
    let tap = PublishSubject<Void>()
    let titleLabel = Label()
    onVirtualTime { clock in
        tap.flatMapLatest { getTitle(on: clock) }
            .map { title -> String? in "我是 \(title)" }
            .bind(to: Binder(titleLabel) { label, text in label.text = text })
            .disposed(by: disposeBag)
        clock.at(1) { tap.onNext(()) }
        clock.at(2.5) { tap.onNext(()) }
        clock.at(2.6) { tap.onNext(()) }
    }
}

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
}

exercise(2) {
    _ = Observable.of(1, 2, 3, 4, 5)
        .filter { $0 % 2 == 1 }
        .map { $0 * $0 }
        .reduce(0, accumulator: +)
        .subscribe { print($0) }
}
