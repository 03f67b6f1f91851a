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

// 001 函数式编程: say *what*.
example("functional") {
    let array = [1, 2, 3, 4]
    let newArray = array.compactMap {
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

// 001 响应式: events arrive over time (a button tap, then a network reply); the chain is written
// once and reacts each time. A subject stands in for the button; time is virtual.
example("button tap → request → label", draw: true) {
    let disposeBag = DisposeBag()
    let tap = PublishSubject<Void>()
    var label = ""
    onVirtualTime { clock in
        tap.map { "我是 mojito (\(clock.stamp))" }
            .subscribe(onNext: { title in
                label = title
                print("label.text =", label)
            })
            .disposed(by: disposeBag)
        clock.at(1) { tap.onNext(()) }
        clock.at(2.5) { tap.onNext(()) }
    }
}
