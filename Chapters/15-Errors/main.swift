// Chapter 15 — errors (003 "Error Handling": catchError, retry; 003 Retries and
// catchErrorJustReturn; 004 "忘记 onError", "使用 Result", mapValue / flatMapRequest / filterValue).
import Foundation
import RxCore
import Workbook

// 003: catchError — an error is replaced by a recovery sequence. RxSwift 6 calls it `catch`.
example("catchError 1", draw: true) {
    let disposeBag = DisposeBag()
    let sequenceThatFails = PublishSubject<Int>()
    let recoverySequence = Observable.of(100, 200)
    sequenceThatFails
        .catch { error in
            return recoverySequence
        }
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
    sequenceThatFails.on(.next(1))
    sequenceThatFails.on(.next(2))
    sequenceThatFails.on(.error(NSError(domain: "Test", code: 0, userInfo: nil)))
}

// 003 (usernameAvailable): catchErrorJustReturn(false) — RxSwift 6's catchAndReturn.
example("catchErrorJustReturn") {
    let disposeBag = DisposeBag()
    let usernameAvailable = Observable<Bool>.error(NSError(domain: "Network", code: -1009, userInfo: nil))
    usernameAvailable
        .catchAndReturn(false)
        .subscribe { print($0) }
        .disposed(by: disposeBag)
}

// 003: retry — resubscribe from the start after an error.
example("retry", draw: true) {
    let disposeBag = DisposeBag()
    var count = 1 // bad practice, only for example purposes
    let funnyLookingSequence: Observable<Int> = Observable.create { observer in
        let error = NSError(domain: "Test", code: 0, userInfo: nil)
        observer.on(.next(0))
        observer.on(.next(1))
        if count < 2 {
            observer.on(.error(error))
            count += 1
        }
        observer.on(.next(2))
        observer.on(.completed)
        return Disposables.create()
    }
    funnyLookingSequence
        .retry()
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
}

// 003 "Retries": doSomethingIncredible("me").retry(3) — at most three attempts.
struct Flaky: Error {}

example("retry(3)") {
    let disposeBag = DisposeBag()
    var attempts = 0
    func doSomethingIncredible(_ forWho: String) -> Observable<String> {
        Observable.create { observer in
            attempts += 1
            print("attempt \(attempts)")
            if attempts < 3 {
                observer.onError(Flaky())
            } else {
                observer.onNext("something incredible for \(forWho)")
                observer.onCompleted()
            }
            return Disposables.create()
        }
    }
    doSomethingIncredible("me")
        .retry(3)
        .subscribe { print($0) }
        .disposed(by: disposeBag)
}

// MARK: - 004: the login chain

enum LoginError: Error {
    case wrongPassword
}

/// A stand-in for 004's `provider`: login answers a token or fails; requestInfo answers a user.
enum Provider {
    static func login(_ password: String) -> Observable<String> {
        password == "secret" ? Observable.just("token-42") : Observable.error(LoginError.wrongPassword)
    }

    static func requestInfo(_ token: String) -> Observable<String> {
        Observable.just("user info for \(token)")
    }
}

func saveToken(_ token: String) -> String {
    print("saved \(token)")
    return token
}

// 004 "onError 释放资源": one failed login and the whole chain is disposed — the next tap
// does nothing.
example("login chain", draw: true) {
    let disposeBag = DisposeBag()
    let tap = PublishSubject<String>() // the password typed when the button is tapped
    tap
        .flatMap(Provider.login) // 登录请求
        .map(saveToken) // 保存 token
        .flatMap(Provider.requestInfo) // 获取用户信息
        .subscribe(
            onNext: { print("logged in:", $0) },
            onError: { print("login failed:", $0) }
        )
        .disposed(by: disposeBag)
    print("tap with a wrong password")
    tap.onNext("wrong")
    print("tap with the right password")
    tap.onNext("secret")
    print("tap.hasObservers =", tap.hasObservers)
}

// 004 "使用 Result": failures travel as values; the chain survives.
example("login chain with Result") {
    let disposeBag = DisposeBag()
    let tap = PublishSubject<String>()
    tap
        .flatMap { password -> Observable<Result<String, Error>> in
            Provider.login(password)
                .map { Result<String, Error>.success($0) }
                .catch { Observable.just(.failure($0)) }
        }
        .map { result -> Result<String, Error> in
            switch result {
            case .success(let value):
                return .success(saveToken(value))
            case .failure(let error):
                return .failure(error)
            }
        }
        .flatMap { result -> Observable<Result<String, Error>> in
            switch result {
            case .success(let token):
                return Provider.requestInfo(token).map { .success($0) }
            case .failure(let error):
                return Observable.just(.failure(error))
            }
        }
        .subscribe(onNext: { result in
            switch result {
            case .success(let info): print("success:", info)
            case .failure(let error): print("failure:", error)
            }
        })
        .disposed(by: disposeBag)
    tap.onNext("wrong")
    tap.onNext("secret")
    print("tap.hasObservers =", tap.hasObservers)
}

// 004 下篇: the same with the helpers — mapValue, flatMapRequest, filterValue / filterError.
example("mapValue / flatMapRequest / filterValue", draw: true) {
    let disposeBag = DisposeBag()
    let tap = PublishSubject<String>()
    let results =
        tap
        .map { Result<String, Error>.success($0) }
        .flatMap(flatMapRequest(Provider.login))
        .map(mapValue(saveToken))
        .flatMap(flatMapRequest(Provider.requestInfo))
        .share()
    results
        .flatMap(filterValue())
        .subscribe(onNext: { print("value:", $0) })
        .disposed(by: disposeBag)
    results
        .flatMap(filterError())
        .subscribe(onNext: { print("error:", $0) })
        .disposed(by: disposeBag)
    tap.onNext("wrong")
    tap.onNext("secret")
    tap.onNext("wrong again")
}

// MARK: - 004 下篇 "其他小工具": toTrue, toVoid, success

/// 004's `toTrue`: whatever came, `true` — a tap that means "loading".
func toTrue<T>() -> (T) -> Bool {
    { _ in true }
}

/// 004's `toVoid`: the value dropped — `sentMessage`'s arguments when only the call matters.
func toVoid<T>() -> (T) -> Void {
    { _ in }
}

/// 004's `success`: `action` on a success's value; a failure is ignored.
func success<T>(_ action: @escaping (T) -> Void) -> (Result<T, Error>) -> Void {
    { result in
        if case .success(let value) = result { action(value) }
    }
}

example("toTrue / toVoid / success") {
    let disposeBag = DisposeBag()
    let tap = PublishSubject<String>() // the password typed when the button is tapped
    tap.map(toTrue())
        .subscribe(onNext: { print("loading:", $0) })
        .disposed(by: disposeBag)
    tap.flatMap { password in
        Provider.login(password)
            .map { Result<String, Error>.success($0) }
            .catch { Observable.just(.failure($0)) }
    }
    .subscribe(onNext: success { token in print("token:", token) })
    .disposed(by: disposeBag)
    let viewWillAppear = PublishSubject<[Any]>() // what sentMessage sends: the arguments
    viewWillAppear.map(toVoid())
        .subscribe(onNext: { print("viewWillAppear: was called") })
        .disposed(by: disposeBag)
    tap.onNext("wrong")
    tap.onNext("secret")
    viewWillAppear.onNext([true])
}

// MARK: - Exercises (the answers: make chapter N=15 ARGS=--answers)

exercise(1) {
    var attempts = 0
    _ = Observable<Int>.create { observer in
        attempts += 1
        observer.onNext(attempts)
        observer.onError(Flaky())
        return Disposables.create()
    }
    .retry(3)
    .subscribe(onNext: { print("next", $0) }, onError: { _ in print("error after \(attempts) attempts") })
} why: {
    Why(
        """
        `retry(3)` means three attempts in all, not three more: after the third error it gives up and passes the error
        on.
        """,
        zh: """
            `retry(3)` 是一共尝试三次，不是再重试三次：第三次出错后就放弃，把错误传下去。
            """)
}

exercise(2) {
    let taps = PublishSubject<Int>()
    _ = taps.flatMap { n -> Observable<String> in
        n == 2 ? Observable.error(Flaky()) : Observable.just("ok \(n)")
    }
    .catchAndReturn("fallback")
    .subscribe(onNext: { print($0) }, onCompleted: { print("completed") })
    taps.onNext(1)
    taps.onNext(2)
    taps.onNext(3)
} why: {
    Why(
        """
        The inner error of tap 2 escapes the `flatMap` and ends the whole chain; the `catchAndReturn` after it
        replaces the error with one element and completes. By then the subscription to the taps is gone, so tap 3
        reaches nobody. To keep the chain, catch inside the `flatMap`.
        """,
        zh: """
            第二次点击的内层错误冲出了 `flatMap`，终结了整条链；后面的 `catchAndReturn` 用一个元素顶替错误，然后完成。
            这时对点击的订阅已经没了，第三次点击没人接。想保住这条链，得在 `flatMap` 里面 catch。
            """)
}
