// Chapter 18 — wrapping callback APIs with `create`, and cancelling them (003 "获得Observable"
// with Alamofire, "轻松整合RX" with URLSession's rx_response, "RxSwift实现一个UITableView"'s
// getUsers; 004 上篇 on turning a request into an Observable).
//
// The network is a stand-in that answers on virtual time, so the transcript is deterministic.
import Foundation
import RxCore
import Workbook

/// A callback API in the shape of URLSession's data task: `resume()` starts it, the completion
/// handler runs later with data or an error, `cancel()` stops it.
struct HTTPError: Error {
    let status: Int
}

final class FakeDataTask {
    private let url: String
    private let clock: VirtualClock
    private let completion: (String?, Error?) -> Void
    private var cancelled = false
    private var finished = false

    init(url: String, clock: VirtualClock, completion: @escaping (String?, Error?) -> Void) {
        self.url = url
        self.clock = clock
        self.completion = completion
    }

    func resume() {
        print("\(clock.stamp) GET \(url)")
        clock.schedule(after: 0.5) { [self] in
            guard !cancelled else { return }
            finished = true
            if url.contains("404") {
                completion(nil, HTTPError(status: 404))
            } else {
                completion("<body of \(url)>", nil)
            }
        }
    }

    func cancel() {
        guard !cancelled else { return }
        cancelled = true
        if finished {
            print("\(clock.stamp) task.cancel() \(url) — already finished, nothing to stop")
        } else {
            print("\(clock.stamp) task.cancel() \(url) — request stopped")
        }
    }
}

final class FakeSession {
    let clock: VirtualClock
    init(clock: VirtualClock) { self.clock = clock }

    func dataTask(with url: String, completion: @escaping (String?, Error?) -> Void) -> FakeDataTask {
        FakeDataTask(url: url, clock: clock, completion: completion)
    }
}

extension FakeSession {
    /// 003's `rx_response`, in RxSwift 6 spelling: start the task on subscribe, send its answer
    /// as one element (or an error), cancel the task when the subscription is disposed.
    func response(_ url: String) -> Observable<String> {
        Observable.create { observer in
            let task = self.dataTask(with: url) { data, error in
                guard let data else {
                    observer.on(.error(error ?? HTTPError(status: 0)))
                    return
                }
                observer.on(.next(data))
                observer.on(.completed)
            }
            task.resume()
            return Disposables.create {
                task.cancel()
            }
        }
    }
}

example("rx_response", draw: true) {
    onVirtualTime { clock in
        let session = FakeSession(clock: clock)
        _ = session.response("https://github.com/mojito")
            .subscribe { print("\(clock.stamp) \($0)") }
    }
}

// An error from the callback becomes the sequence's error event.
example("rx_response error") {
    onVirtualTime { clock in
        let session = FakeSession(clock: clock)
        _ = session.response("https://github.com/404")
            .subscribe { print("\(clock.stamp) \($0)") }
    }
}

// 003 "Compositional disposal": dispose before the answer and the request is cancelled; the
// late callback never reaches the observer.
example("cancel on dispose", draw: true) {
    onVirtualTime { clock in
        let session = FakeSession(clock: clock)
        let subscription = session.response("https://github.com/slow")
            .subscribe { print("\(clock.stamp) \($0)") }
        clock.at(0.2) { subscription.dispose() }
    }
}

// Each subscription runs the callback API again: two subscribers, two requests.
example("one request per subscription") {
    onVirtualTime { clock in
        let session = FakeSession(clock: clock)
        let request = session.response("https://github.com/mojito")
        _ = request.subscribe(onNext: { print("\(clock.stamp) A got \($0)") })
        clock.at(0.1) {
            _ = request.subscribe(onNext: { print("\(clock.stamp) B got \($0)") })
        }
    }
}

// 003 "RxSwift实现一个UITableView": getUsers wraps a synchronous source the same way.
struct User {
    let followersCount: Int
    let followingCount: Int
    let screenName: String
}

func getUsers() -> Observable<[User]> {
    Observable.create { observer in
        let users = [
            User(followersCount: 19_901_990, followingCount: 1990, screenName: "Marco Sun"),
            User(followersCount: 19_890_000, followingCount: 1989, screenName: "Taylor Swift"),
            User(followersCount: 250_000, followingCount: 25, screenName: "Rihanna"),
            User(followersCount: 13_000_000_000, followingCount: 13, screenName: "Jolin Tsai"),
            User(followersCount: 25_000_000, followingCount: 25, screenName: "Adele"),
        ]
        observer.onNext(users)
        observer.onCompleted()
        return Disposables.create()
    }
}

example("getUsers") {
    let disposeBag = DisposeBag()
    getUsers()
        .subscribe(
            onNext: { users in
                for user in users {
                    print("\(user.screenName)在简书上关注了\(user.followingCount)个用户，并且被\(user.followersCount)个用户关注了。")
                }
            }, onCompleted: { print("completed") }
        )
        .disposed(by: disposeBag)
}

// MARK: - Exercises (the answers: make chapter N=18 ARGS=--answers)

exercise(1) {
    onVirtualTime { clock in
        let session = FakeSession(clock: clock)
        _ = session.response("https://github.com/404")
            .retry(2)
            .catchAndReturn("fallback")
            .subscribe { print(clock.stamp, $0) }
    }
} why: {
    Why(
        """
        `retry(2)` means two attempts: each one subscribes to the `create` again and so sends a new request. The first
        error disposes its attempt before the second begins, and the cancel finds the task finished. The second error
        is the last: as in RxSwift, `retry` passes it on first, so `catchAndReturn` sends `fallback` and completes,
        and only then is the last attempt disposed and its cancel run.
        """,
        zh: """
            `retry(2)` 就是两次尝试：每次都重新订阅那个 `create`，也就重新发一次请求。第一次出错时，先释放这次尝试，
            再开始第二次，取消动作碰到的是已经结束的任务。第二次出错就是最后一次：和 RxSwift 一样，`retry` 先把错误传
            下去，于是 `catchAndReturn` 发出 `fallback` 并完成，之后才释放最后那次尝试，执行它的取消动作。
            """)
}

exercise(2) {
    onVirtualTime { clock in
        let session = FakeSession(clock: clock)
        let subscription = session.response("https://github.com/mojito")
            .subscribe(onNext: { print(clock.stamp, $0) }, onDisposed: { print(clock.stamp, "onDisposed") })
        clock.at(1) { subscription.dispose() }
    }
} why: {
    Why(
        """
        The answer completes the sequence at 0.5 s, and completion disposes the subscription then: `onDisposed` runs
        at 0.5 s and the handler's cancel finds the task finished. The `dispose()` at 1 s has nothing left to do.
        `onDisposed` comes before the cancel because the observer disposes its own part first, as in chapter 02's
        first exercise.
        """,
        zh: """
            0.5 秒的回应让序列完成，完成当即释放订阅：`onDisposed` 在 0.5 秒执行，handler 里的取消动作发现任务已经结
            束。1 秒时的 `dispose()` 已经无事可做。`onDisposed` 排在取消之前，是因为观察者先释放自己那一份，和第 02
            章第一道练习一样。
            """)
}
