// Chapter 10 — utility (003 "Utility": subscribe, subscribeNext, subscribeCompleted,
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

// MARK: - Exercises (the answers: make chapter N=10 ARGS=--answers)

exercise(1) {
    _ = Observable.of(1, 2)
        .do(
            onNext: { print("do", $0) }, afterNext: { print("after", $0) },
            onCompleted: { print("do completed") }
        )
        .subscribe(
            onNext: { print("subscribe", $0) }, onCompleted: { print("subscribe completed") },
            onDisposed: { print("disposed") })
}

exercise(2) {
    _ = Observable.of("a", "b")
        .do(
            onSubscribe: { print("onSubscribe") }, onSubscribed: { print("onSubscribed") },
            onDispose: { print("onDispose") }
        )
        .take(1)
        .subscribe(onNext: { print("next", $0) })
}
