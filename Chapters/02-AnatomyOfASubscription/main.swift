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
        let subject = PublishSubject<String>()
        let subscription = subject.subscribe(onNext: { print($0) })
        subject.onNext("mojito")
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
}
