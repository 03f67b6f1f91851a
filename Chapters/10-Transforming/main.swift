// Chapter 10 — transforming (003 "Transform": map, flatMap, scan, and "升维"; 000 "RxSwift 里 map
// 和 flatMap?": 降维, flatMapFirst, flatMapLatest; 003 "Map与FlatMap").
import RxCore
import Workbook

example("map") {
    let disposeBag = DisposeBag()
    let originalSequence = Observable.of(1, 2, 3)
    originalSequence
        .map { $0 * 2 }
        .subscribe { print($0) }
        .disposed(by: disposeBag)
}

// 000: Swift's own map and flatMap on a nested array — flatMap removes one level (降维).
example("Array map and flatMap") {
    let arrayNested = [[1, 2, 3, 4, 5], [6, 7]]
    let maped2 = arrayNested.map { $0 }
    print(maped2)
    let flaped2 = arrayNested.flatMap { $0 }
    print(flaped2)
}

// 000: the same on observables. map keeps the inner observables as elements (升维: an
// Observable<Observable<String>>); flatMap subscribes to each and merges their elements.
example("map and flatMap", draw: true) {
    let disposeBag = DisposeBag()
    let b = Observable.of(
        Observable.of("🐶", "🐱"),
        Observable.of("🐭", "🐹"))
    b.map { $0 }
        .subscribe(onNext: { element in
            print(element)
        })
        .disposed(by: disposeBag)
    b.flatMap { $0 }
        .subscribe(onNext: { element in
            print(element)
        })
        .disposed(by: disposeBag)
}

// 003: flatMap — each element becomes a sequence, and all of them are merged.
example("flatMap", draw: true) {
    let disposeBag = DisposeBag()
    let sequenceInt = Observable.of(1, 2, 3)
    let sequenceString = Observable.of("A", "B", "--")
    sequenceInt
        .flatMap { int in
            sequenceString
        }
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
}

// The interleaving, recorded rather than worked by hand: the trampoline's queue (the trace's
// `enqueue` and `dequeue` steps) as flatMap's inner sequences take turns.
example("flatMap, the trampoline's queue") {
    let trace = Diagrams.trace {
        _ = Observable.of(1, 2)
            .flatMap { _ in Observable.of("a", "b") }
            .subscribe(onNext: { _ in })
    }
    print(DiagramOutput.queueText(trace), terminator: "")
}

// 003 升维: friends of friends — map gives a list of lists, flatMap one list.
example("friends of friends") {
    let disposeBag = DisposeBag()
    let friends = ["p1": ["p1-1", "p1-2", "p1-3"], "p2": ["p2-1"], "p3": ["p3-1", "p3-2"]]
    let myFriends = ["p1", "p2", "p3"]
    print(myFriends.map { friends[$0]! })
    Observable.from(myFriends)
        .concatMap { Observable.from(friends[$0]!) }
        .toArray()
        .subscribe(onSuccess: { print($0) })
        .disposed(by: disposeBag)
}

// 000: a button tapped while its request is still running. flatMapFirst ignores the taps that
// come while a request runs; flatMapLatest cancels the running request for the new one. The
// taps come at 0, 0.3 and 1.0 s; a request takes 0.5 s (virtual time).
func request(_ n: Int, on clock: VirtualClock) -> Observable<String> {
    Observable.deferred {
        print("\(clock.stamp) request \(n) sent")
        return Observable<Int>.timer(.milliseconds(500), scheduler: clock.scheduler)
            .map { _ in "response \(n)" }
            .do(onDispose: { print("\(clock.stamp) request \(n) over") })
    }
}

func tapTheButton(_ operatorName: String, _ flatten: @escaping (Observable<Int>, VirtualClock) -> Observable<String>) {
    onVirtualTime { clock in
        let taps = PublishSubject<Int>()
        _ = flatten(taps.asObservable(), clock)
            .subscribe(onNext: { print("\(clock.stamp) \($0)") })
        clock.at(0) {
            print("\(clock.stamp) tap 1"); taps.onNext(1)
        }
        clock.at(0.3) {
            print("\(clock.stamp) tap 2"); taps.onNext(2)
        }
        clock.at(1.0) {
            print("\(clock.stamp) tap 3"); taps.onNext(3)
        }
    }
}

example("flatMapFirst", draw: true) {
    tapTheButton("flatMapFirst") { taps, clock in taps.flatMapFirst { request($0, on: clock) } }
}

example("flatMapLatest", draw: true) {
    tapTheButton("flatMapLatest") { taps, clock in taps.flatMapLatest { request($0, on: clock) } }
}

// 003: scan — like reduce, but sends every intermediate result.
example("scan") {
    let disposeBag = DisposeBag()
    let sequenceToSum = Observable.of(0, 1, 2, 3, 4, 5)
    sequenceToSum
        .scan(0) { acum, elem in
            acum + elem
        }
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
}

// MARK: - Exercises (the answers: make chapter N=10 ARGS=--answers)

exercise(1) {
    _ = Observable.of(1, 2)
        .flatMap { n in Observable.of("a", "b", "c").map { "\(n)\($0)" } }
        .subscribe(onNext: { print($0) })
} why: {
    Why(
        """
        `of` sends one element per step of the trampoline (chapter 03), and `flatMap` subscribes to each inner `of`
        during the outer's step, so the inner sequences queue their steps too. Then the queue takes turns: inner 1
        sends `a`, the outer sends 2 (inner 2 joins the queue behind inner 1), and from then on inner 1 and inner 2
        each send one element in turn.
        """,
        zh: """
            `of` 在蹦床上每一步只发一个元素（第 03 章），`flatMap` 在外层那一步里订阅内层的 `of`，内层也就把自己的每
            一步排进队列。接下来大家轮流：内层 1 发 `a`，外层发出 2（内层 2 排到内层 1 后面），之后内层 1、内层 2 轮
            流各发一个。
            """)
}

exercise(2) {
    let outer = PublishSubject<String>()
    let x = PublishSubject<Int>()
    let y = PublishSubject<Int>()
    _ = outer.flatMapLatest { $0 == "x" ? x : y }.subscribe(onNext: { print($0) })
    outer.onNext("x")
    x.onNext(1)
    outer.onNext("y")
    x.onNext(2)
    y.onNext(3)
} why: {
    Why(
        """
        `flatMapLatest` follows only the inner sequence of the latest outer element: when `"y"` arrives it disposes
        its subscription to `x`, so `x`'s 2 goes nowhere and `y`'s 3 gets through.
        """,
        zh: """
            `flatMapLatest` 只跟着最新那个外层元素的内层序列：`"y"` 一到，它就释放对 `x` 的订阅，`x` 的 2 没人接，
            `y` 的 3 传了过来。
            """)
}
