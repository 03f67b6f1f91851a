// Chapter 02 — anatomy of a subscription (001 "调试开始" step1…step9; 000 "Observer和Observable").
import RxCore
import Workbook

// 001: the mojito example — create, then subscribe(onNext:).
example("mojito", draw: true) {
    let disposeBag = DisposeBag()
    // 创建 (create): step4 → AnonymousObservable (step5), a Producer (step6).
    let observable = Observable<String>.create { observer in
        // 发送 (send): on(next) of AnonymousObservableSink (step8) → forwardOn (step9).
        observer.onNext("mojito")
        return Disposables.create()
    }
    // 订阅 (subscribe): AnonymousObserver (step7) → Producer.subscribe → run.
    observable.subscribe(onNext: { text in
        print(text)
    }).disposed(by: disposeBag)
}

// The same example recorded: every call the core made, in order (the documents' step numbers
// are given in README.md).
example("step1…step9") {
    let trace = Diagrams.trace {
        let observable = Observable<String>.create { observer in
            observer.onNext("mojito")
            return Disposables.create()
        }
        let d = observable.subscribe(onNext: { print($0) })
        d.dispose()
    }
    print(DiagramOutput.flowText(trace), terminator: "")
}

// 000: an observer of your own, subscribed directly.
final class MyObserver: ObserverType {
    typealias Element = Int
    func on(_ event: Event<Element>) {
        print(" on event : \(event)")
    }
}

example("MyObserver", draw: true) {
    let disposeBag = DisposeBag()
    let o = MyObserver()
    Observable.of(1, 2, 3, 4)
        .asObservable()
        .subscribe(o)
        .disposed(by: disposeBag)
}

// What is alive while a subscription runs, and after it is disposed: the SinkDisposer lets go
// of the sink and the subscription, and when the last reference goes, nothing is left.
func growth(since before: ResourceSnapshot) -> String {
    let grown = Resources.snapshot().grown(since: before).sorted { $0.key < $1.key }
    return grown.isEmpty
        ? "nothing" : grown.map { "\($0.key) \($0.value > 0 ? "+" : "")\($0.value)" }.joined(separator: ", ")
}

example("what a subscription keeps alive") {
    let before = Resources.snapshot()
    do {
        // A create that never completes: the subscription stays open until it is disposed.
        let observable = Observable<String>.create { observer in
            observer.onNext("mojito")
            return Disposables.create()
        }
        let subscription = observable.subscribe(onNext: { print($0) })
        print("alive while subscribed:", growth(since: before))
        subscription.dispose()
        print("alive after dispose:", growth(since: before))
    }
    print("alive after the scope ends:", growth(since: before))
}

// MARK: - Exercises (the answers: make chapter N=02 ARGS=--answers)

exercise(1) {
    let observable = Observable<String>.create { observer in
        print("handler runs")
        observer.onNext("mojito")
        observer.onCompleted()
        return Disposables.create { print("handler's disposable disposed") }
    }
    print("created")
    _ = observable.subscribe(
        onNext: { print($0) }, onCompleted: { print("completed") }, onDisposed: { print("onDisposed") })
    print("subscribed")
} why: {
    Why(
        """
        `create` only stores the handler; `subscribe` runs it, and the handler sends at once. `onCompleted()` reaches
        the observer: its `completed` closure runs, then the observer disposes its own part, which prints
        `onDisposed`. The handler has not returned yet, so the `SinkDisposer` only notes that it is disposed, and
        disposes the handler's disposable the moment the handler returns it. All of it happens before `subscribe`
        returns.
        """,
        zh: """
            `create` 只是把 handler 存起来，`subscribe` 才执行它，handler 当场就发事件。`onCompleted()` 到达观察者：
            先执行 completed 闭包，然后观察者释放自己那一份，打印 `onDisposed`。这时 handler 还没返回，
            `SinkDisposer` 只记下“已经释放”，等 handler 把 disposable 交回来，立刻把它释放掉。这一切都发生在
            `subscribe` 返回之前。
            """)
}

exercise(2) {
    var count = 0
    let observable = Observable<Int>.create { observer in
        count += 1
        observer.onNext(count)
        return Disposables.create()
    }
    _ = observable.subscribe(onNext: { print("first got", $0) })
    _ = observable.subscribe(onNext: { print("second got", $0) })
    print("the handler ran \(count) times")
} why: {
    Why(
        """
        An observable made with `create` is cold: each `subscribe` runs the handler again, with a sink of its own. The
        handler counts on a variable outside it, so the second run sees 2.
        """,
        zh: """
            `create` 出来的序列是冷的：每次 `subscribe` 都重新执行一遍 handler，各有各的 sink。handler 累加的是外面
            的变量，所以第二次执行看到的是 2。
            """)
}
