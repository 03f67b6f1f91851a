// Chapter 05 — creating sequences (003 "RxSwift基础概念": empty, never, just, sequenceOf, from,
// create, failWith, deferred, TestDeferred). The names are the document's; the code is
// RxSwift 6's spelling of it (`Observable.of` for `sequenceOf`, `Observable.error` for `failWith`).
import Foundation
import RxCore
import Workbook

example("empty") {
    let emptySequence: Observable<Int> = Observable.empty()
    let subscription =
        emptySequence
        .subscribe { event in
            print(event)
        }
    subscription.dispose()
}

example("never") {
    let neverSequence: Observable<String> = Observable.never()
    let subscription =
        neverSequence
        .subscribe { _ in
            print("This block is never called.")
        }
    subscription.dispose()
}

example("just") {
    let singleElementSequence = Observable.just(32)
    let subscription =
        singleElementSequence
        .subscribe { event in
            print(event)
        }
    subscription.dispose()
}

example("sequenceOf") {
    let sequenceOfElements /* : Observable<Int> */ = Observable.of(0, 1, 2, 3)
    let subscription =
        sequenceOfElements
        .subscribe { event in
            print(event)
        }
    subscription.dispose()
}

example("from") {
    let sequenceFromArray = Observable.from([1, 2, 3, 4, 5])
    let subscription =
        sequenceFromArray
        .subscribe { event in
            print(event)
        }
    subscription.dispose()
}

example("create", draw: true) {
    let myJust = { (singleElement: Int) -> Observable<Int> in
        return Observable.create { observer in
            observer.on(.next(singleElement))
            observer.on(.completed)
            return Disposables.create()
        }
    }
    let subscription = myJust(5)
        .subscribe { event in
            print(event)
        }
    subscription.dispose()
}

example("failWith") {
    let error = NSError(domain: "Test", code: -1, userInfo: nil)
    let erroredSequence: Observable<Int> = Observable.error(error)
    let subscription =
        erroredSequence
        .subscribe { event in
            print(event)
        }
    subscription.dispose()
}

example("deferred", draw: true) {
    let deferredSequence: Observable<Int> = Observable.deferred {
        print("creating")
        return Observable.create { observer in
            print("emmiting")
            observer.on(.next(0))
            observer.on(.next(1))
            observer.on(.next(2))
            return Disposables.create()
        }
    }
    print("go")
    let first =
        deferredSequence
        .subscribe { event in
            print(event)
        }
    let second =
        deferredSequence
        .subscribe { event in
            print(event)
        }
    first.dispose()
    second.dispose()
}

// Why deferred: `just(value)` captures the value when the observable is *made*…
example("TestDeferred") {
    var value: String? = nil
    let subscription: Observable<String?> = Observable.just(value)
    // got value
    value = "Hello!"
    _ = value
    let d = subscription.subscribe { event in
        print(event)
    }
    d.dispose()
}

// …`deferred` makes the observable when it is *subscribed*, so it sees the value set since.
example("TestDeferred") {
    var value: String? = nil
    let subscription: Observable<String?> = Observable.deferred {
        return Observable.just(value)
    }
    // got value
    value = "Hello!"
    let d = subscription.subscribe { event in
        print(event)
    }
    d.dispose()
}

// RxSwift 6 also has range, repeatElement(…).take and generate; range is enough here.
example("range") {
    let d = Observable.range(start: 1, count: 3)
        .subscribe { print($0) }
    d.dispose()
}

// MARK: - Exercises (the answers: make chapter N=05 ARGS=--answers)

exercise(1) {
    _ = Observable<Int>.empty().subscribe(
        onNext: { print("empty next", $0) }, onCompleted: { print("empty completed") },
        onDisposed: { print("empty disposed") })
    _ = Observable<Int>.never().subscribe(
        onNext: { print("never next", $0) }, onCompleted: { print("never completed") },
        onDisposed: { print("never disposed") })
} why: {
    Why(
        """
        `empty` completes at once, and a completed subscription is disposed, so `onDisposed` runs too. `never` sends
        nothing, not even a stop event, so its subscription stays open: its `onDisposed` would run only when somebody
        disposed it, and nobody does.
        """,
        zh: """
            `empty` 一订阅就完成，完成之后订阅被释放，所以 `onDisposed` 也会执行。`never` 什么也不发，连终止事件都没
            有，订阅就一直开着：要有人 dispose 它，`onDisposed` 才会执行，而这里没人这么做。
            """)
}

exercise(2) {
    _ = Observable<Int>.create { observer in
        observer.onNext(1)
        observer.onCompleted()
        observer.onNext(2)
        return Disposables.create { print("disposed") }
    }
    .subscribe { print($0) }
} why: {
    Why(
        """
        After `onCompleted()` the sink is stopped, and the `onNext(2)` that follows is dropped. The completion
        disposes the subscription: the handler's disposable is disposed as soon as the handler returns it.
        """,
        zh: """
            `onCompleted()` 之后 sink 已经停了，后面的 `onNext(2)` 被丢掉。完成事件会释放这次订阅：handler 一把
            disposable 交回来，就被释放，于是打印 disposed。
            """)
}
