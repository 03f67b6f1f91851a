// Chapter 13 — sharing (003 "replay": the twice-printed MAP, shareReplay, and the
// usernameValidation `.shareReplay(1)` of the GitHub signup example).
import RxCore
import Workbook

// 003: every subscriber gets its own chain, so the map closure runs once per subscriber.
example("map", draw: true) {
    let sequenceOfElements = Observable.of(0).map { r -> Int in
        print("MAP") // twice
        return r * 2
    }
    let subscription =
        sequenceOfElements
        .subscribe { event in
            print("1 - \(event)")
        }
    let subscription2 =
        sequenceOfElements
        .subscribe { event in
            print("2 - \(event)")
        }
    subscription.dispose()
    subscription2.dispose()
}

// 003: shareReplay(3) — RxSwift 6's share(replay: 3): one subscription to the map, shared by
// every subscriber, and the last three elements replayed to each newcomer.
example("shareReplay", draw: true) {
    let sequenceOfInts = PublishSubject<Int>()
    let a = sequenceOfInts.map { i -> Int in
        print("MAP---\(i)")
        return i * 2
    }.share(replay: 3)
    let b = a.subscribe(onNext: {
        print("--1--\($0)")
    })
    sequenceOfInts.on(.next(1))
    sequenceOfInts.on(.next(2))
    let c = a.subscribe(onNext: {
        print("--2--\($0)")
    })
    sequenceOfInts.on(.next(3))
    sequenceOfInts.on(.next(4))
    let d = a.subscribe(onNext: {
        print("--3--\($0)")
    })
    sequenceOfInts.on(.completed)
    b.dispose()
    c.dispose()
    d.dispose()
}

// share() without replay: late subscribers get only what comes after they join.
example("share") {
    let sequenceOfInts = PublishSubject<Int>()
    let shared = sequenceOfInts.map { i -> Int in
        print("MAP---\(i)")
        return i * 2
    }.share()
    let disposeBag = DisposeBag()
    shared.subscribe(onNext: { print("--1--\($0)") }).disposed(by: disposeBag)
    sequenceOfInts.onNext(1)
    shared.subscribe(onNext: { print("--2--\($0)") }).disposed(by: disposeBag)
    sequenceOfInts.onNext(2)
}

// The reason 003 shares usernameValidation: an expensive cold source (a request) is run once
// for all subscribers, and the connection ends when the last one leaves (refCount).
example("one request, two subscribers") {
    var requests = 0
    let usernameAvailable = Observable<Bool>.create { observer in
        requests += 1
        print("request \(requests) sent")
        observer.onNext(true)
        return Disposables.create { print("request \(requests) cancelled") }
    }
    .share(replay: 1)
    let first = usernameAvailable.subscribe(onNext: { print("button enabled:", $0) })
    let second = usernameAvailable.subscribe(onNext: { print("label says available:", $0) })
    first.dispose()
    print("one subscriber left")
    second.dispose()
    print("requests made:", requests)
}

// MARK: - Exercises (the answers: make chapter N=13 ARGS=--answers)

exercise(1) {
    let subject = PublishSubject<Int>()
    let plain = subject.map { $0 * 10 }.share()
    let replaying = subject.map { $0 * 10 }.share(replay: 1)
    _ = plain.subscribe(onNext: { print("plain A", $0) })
    _ = replaying.subscribe(onNext: { print("replay A", $0) })
    subject.onNext(1)
    _ = plain.subscribe(onNext: { print("plain B", $0) })
    _ = replaying.subscribe(onNext: { print("replay B", $0) })
    subject.onNext(2)
} why: {
    Why(
        """
        Each share subscribes to its `map` once for all its subscribers. `share()` keeps nothing, so B, coming after
        10, sees only 20. `share(replay: 1)` gives a newcomer the last element at once: `replay B 10` prints as B
        subscribes.
        """,
        zh: """
            两个 share 都只为所有订阅者订阅一次 `map`。`share()` 什么也不留，B 在 10 之后才来，只能看到 20。
            `share(replay: 1)` 给新来的订阅者当场补发最后一个元素：B 一订阅就打印 `replay B 10`。
            """)
}

exercise(2) {
    let subject = PublishSubject<Int>()
    let mapped = subject.map { n -> Int in
        print("MAP", n)
        return n
    }
    let shared = mapped.share()
    _ = mapped.subscribe(onNext: { print("mapped", $0) })
    _ = shared.subscribe(onNext: { print("shared A", $0) })
    _ = shared.subscribe(onNext: { print("shared B", $0) })
    subject.onNext(1)
} why: {
    Why(
        """
        A `share()` is one subscription to `mapped` for all of its subscribers, but subscribing to `mapped` directly
        is a subscription of its own. Two `MapSink`s, so MAP prints twice: once for the direct subscriber, once for A
        and B together.
        """,
        zh: """
            `share()` 为它所有的订阅者只订阅一次 `mapped`，但直接订阅 `mapped` 是另一次独立的订阅。一共两个
            `MapSink`，所以 MAP 打印两次：一次给直接订阅的，一次给 A 和 B 共用。
            """)
}
