// Chapter 07 — utility (003 "Utility": subscribe, subscribeNext, subscribeCompleted,
// subscribeError, doOn; 000 "ObservableType类型的doOn操作"; debug).
import Foundation
import RxCore
import Workbook

example("subscribe") {
    let disposeBag = DisposeBag()
    let sequenceOfInts = PublishSubject<Int>()
    sequenceOfInts
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
    sequenceOfInts.on(.next(1))
    sequenceOfInts.on(.completed)
}

// RxSwift 6 has no subscribeNext / subscribeCompleted / subscribeError: they are the labelled
// closures of subscribe(onNext:onError:onCompleted:onDisposed:).
example("subscribeNext") {
    let disposeBag = DisposeBag()
    let sequenceOfInts = PublishSubject<Int>()
    sequenceOfInts
        .subscribe(onNext: {
            print($0)
        })
        .disposed(by: disposeBag)
    sequenceOfInts.on(.next(1))
    sequenceOfInts.on(.completed)
}

example("subscribeCompleted") {
    let disposeBag = DisposeBag()
    let sequenceOfInts = PublishSubject<Int>()
    sequenceOfInts
        .subscribe(onCompleted: {
            print("It's completed")
        })
        .disposed(by: disposeBag)
    sequenceOfInts.on(.next(1))
    sequenceOfInts.on(.completed)
}

example("subscribeError") {
    let disposeBag = DisposeBag()
    let sequenceOfInts = PublishSubject<Int>()
    sequenceOfInts
        .subscribe(onError: { error in
            print(error)
        })
        .disposed(by: disposeBag)
    sequenceOfInts.on(.next(1))
    sequenceOfInts.on(.error(NSError(domain: "Examples", code: -1, userInfo: nil)))
}

// onDisposed: the fourth closure, called when the subscription ends for any reason.
example("subscribe(onDisposed:)") {
    let sequenceOfInts = PublishSubject<Int>()
    let subscription =
        sequenceOfInts
        .subscribe(onNext: { print($0) }, onDisposed: { print("disposed") })
    sequenceOfInts.on(.next(1))
    subscription.dispose()
    sequenceOfInts.on(.next(2))
}

// 003: doOn — RxSwift 6's do(onNext:onError:onCompleted:…), called before the event goes on.
example("doOn", draw: true) {
    let disposeBag = DisposeBag()
    let sequenceOfInts = PublishSubject<Int>()
    sequenceOfInts
        .do(
            onNext: { print("Intercepted event next(\($0))") },
            onCompleted: { print("Intercepted event completed") }
        )
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
    sequenceOfInts.on(.next(1))
    sequenceOfInts.on(.completed)
}

// 000: the same with fruit, and all three callbacks.
example("do") {
    let disposeBag = DisposeBag()
    Observable.of("🍎", "🍐", "🍊", "🍋")
        .do(
            onNext: { print("Intercepted:", $0) }, onError: { print("Intercepted error:", $0) },
            onCompleted: { print("Completed") }
        )
        .subscribe(onNext: { print($0) })
        .disposed(by: disposeBag)
}

// do has more hooks than 003 knew: subscription and disposal.
example("do(onSubscribe:onDispose:)") {
    let subscription = Observable<Int>.never()
        .do(
            onSubscribe: { print("about to subscribe") },
            onSubscribed: { print("subscribed") },
            onDispose: { print("disposed") }
        )
        .subscribe()
    subscription.dispose()
}

// debug: every subscription, event and disposal, with a subscription number. (Each line starts
// with the local time; the chapter's golden test masks it.)
example("debug") {
    let disposeBag = DisposeBag()
    Observable.of(1, 2)
        .debug("of")
        .map { $0 * 10 }
        .debug("map")
        .subscribe()
        .disposed(by: disposeBag)
}

// MARK: - Exercises (the answers: make chapter N=07 ARGS=--answers)

exercise(1) {
    _ = Observable.of(1, 2)
        .do(
            onNext: { print("do", $0) }, afterNext: { print("after", $0) },
            onCompleted: { print("do completed") }
        )
        .subscribe(
            onNext: { print("subscribe", $0) }, onCompleted: { print("subscribe completed") },
            onDisposed: { print("disposed") })
} why: {
    Why(
        """
        `do`'s `onNext` runs before the element goes on, `afterNext` after the subscriber has handled it;
        `onCompleted` likewise runs before the subscriber's. Completion then disposes the subscription: `disposed`
        comes last.
        """,
        zh: """
            `do` 的 `onNext` 在元素往下传之前执行，`afterNext` 在订阅者处理完之后执行；`onCompleted` 也一样，排在订
            阅者的前面。完成之后订阅被释放，`disposed` 最后打印。
            """)
}

exercise(2) {
    _ = Observable.of("a", "b")
        .do(
            onSubscribe: { print("onSubscribe") }, onSubscribed: { print("onSubscribed") },
            onDispose: { print("onDispose") }
        )
        .subscribe(onNext: { print("next", $0) })
} why: {
    Why(
        """
        `onSubscribe` runs before `do` subscribes to its source, `onSubscribed` when that `subscribe` has returned.
        `of` queues its elements on the trampoline (chapter 03), so its `subscribe` returns before the first element:
        `onSubscribed` comes before `next a`. `completed` then disposes the whole chain: `onDispose`.
        """,
        zh: """
            `onSubscribe` 在 `do` 订阅源序列之前执行，`onSubscribed` 在那次 `subscribe` 返回之后执行。`of` 把元素排
            进蹦床的队列（第 03 章），所以它的 `subscribe` 先返回，第一个元素才来：`onSubscribed` 排在 `next a` 前面。
            最后 `completed` 释放整条链，打印 `onDispose`。
            """)
}
