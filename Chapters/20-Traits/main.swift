// Chapter 20 — traits. RxSwift's Single, Maybe, Completable and Infallible (an Observable with a
// promise about its events), then RxCocoa's SharedSequence: Driver and Signal (000 "用Observable
// 还是Driver", 004 "尽量不使用 Driver") and ControlProperty (001 `textField.rx.text.skip(1)`).
// Every trait is a thin wrapper around an Observable: the trace shows the same Producers, Sinks
// and SinkDisposers as the chapters before, and no "Driver" node at all.
import Foundation
import RxCocoa // Driver, Signal and ControlProperty are RxCocoa's, as in RxSwift; it re-exports RxCore
import RxTesting
import Workbook

struct RequestFailed: Error, CustomStringConvertible {
    var description: String { "RequestFailed" }
}

// MARK: - Single, Maybe, Completable: PrimitiveSequence

// A Single is one element or an error: a request's answer. Its `create` hands over one function
// taking `.success` or `.failure`; underneath it is `Observable.create` (an AnonymousObservable)
// with `.next` + `.completed` for a success.
example("Single", draw: true) {
    func fetchUser(_ id: Int) -> Single<String> {
        Single.create { single in
            if id > 0 {
                single(.success("user \(id)"))
            } else {
                single(.failure(RequestFailed()))
            }
            return Disposables.create { print("request \(id) disposed") }
        }
    }
    _ = fetchUser(1).subscribe(
        onSuccess: { print("onSuccess:", $0) }, onFailure: { print("onFailure:", $0) })
    _ = fetchUser(0).subscribe(
        onSuccess: { print("onSuccess:", $0) }, onFailure: { print("onFailure:", $0) })
}

// An Observable becomes a Single with asSingle(), which must see exactly one element before the
// completion: it cannot answer before the source completes.
example("asSingle") {
    _ = Observable.of(7).asSingle().subscribe(onSuccess: { print("one element:", $0) })
    _ = Observable.of(1, 2).asSingle().subscribe(onFailure: { print("two elements:", $0) })
    _ = Observable<Int>.empty().asSingle().subscribe(onFailure: { print("no element:", $0) })
}

// A Maybe is one element, or nothing, or an error: a cache lookup.
example("Maybe") {
    let cache = ["swift": "6.3"]
    func cached(_ key: String) -> Maybe<String> {
        Maybe.create { maybe in
            if let value = cache[key] {
                maybe(.success(value))
            } else {
                maybe(.completed)
            }
            return Disposables.create()
        }
    }
    for key in ["swift", "rust"] {
        _ = cached(key).subscribe(
            onSuccess: { print(key, "→ onSuccess:", $0) }, onCompleted: { print(key, "→ onCompleted") })
    }
}

// A Completable is only "done" or an error: a save. A Single's element can be dropped with
// asCompletable() when only the end matters.
example("Completable") {
    func save(_ text: String) -> Completable {
        Completable.create { completable in
            print("saving \"\(text)\"")
            completable(text.isEmpty ? .error(RequestFailed()) : .completed)
            return Disposables.create()
        }
    }
    _ = save("draft").subscribe(onCompleted: { print("saved") }, onError: { print("not saved:", $0) })
    _ = save("").subscribe(onCompleted: { print("saved") }, onError: { print("not saved:", $0) })
    _ = Single.just(42).asCompletable().subscribe(onCompleted: { print("the 42 is dropped, the end kept") })
}

// MARK: - Infallible (RxSwift 6)

// An Infallible cannot fail: its subscribe has no onError, so the type says what `asDriver`
// says, without the main thread and the sharing.
example("Infallible") {
    let subject = PublishSubject<Int>()
    let numbers: Infallible<Int> = subject.asInfallible(onErrorJustReturn: -1)
    _ = numbers.subscribe(
        onNext: { print("onNext:", $0) }, onCompleted: { print("onCompleted") }, onDisposed: { print("onDisposed") })
    subject.onNext(1)
    subject.onError(RequestFailed())
    subject.onNext(2)
}

// MARK: - Driver: SharedSequence's three guarantees

// asDriver(onErrorJustReturn:) is three operators: observe(on:) the main scheduler, catchAndReturn
// the fallback, and share(replay: 1) — a Driver holds that Observable and adds nothing to the
// chain. Here the main scheduler is mocked by a TestScheduler, so the hop to it shows as one tick
// of virtual time: the source sends at 210, the Driver delivers at 211.
example("asDriver(onErrorJustReturn:)", draw: true) {
    let scheduler = TestScheduler(initialClock: 0)
    SharingScheduler.mock(scheduler: scheduler) {
        var requests = 0
        let source = scheduler.createColdObservable([.next(10, "a"), .error(20, RequestFailed(), String.self)])
        let results: Driver<String> =
            Observable.deferred {
                requests += 1
                return source.asObservable()
            }
            .asDriver(onErrorJustReturn: "offline")
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        scheduler.scheduleAt(200) { _ = results.drive(first) }
        scheduler.scheduleAt(215) { _ = results.drive(second) }
        scheduler.start()
        print("first: ", first.events)
        print("second:", second.events)
        print("requests:", requests)
    }
}

// The same Driver on the main thread, unmocked: MainScheduler delivers at once there, so the
// picture holds only what the Driver is made of — a subject, ObserveOn, Catch and the share.
example("a Driver's operators", draw: true) {
    let source = PublishSubject<String>()
    let results = source.asDriver(onErrorJustReturn: "offline")
    let disposeBag = DisposeBag()
    results.drive(onNext: { print("first:", $0) }).disposed(by: disposeBag)
    source.onNext("a")
    results.drive(onNext: { print("second:", $0) }).disposed(by: disposeBag)
    source.onError(RequestFailed())
}

// Driver and Signal differ only in their sharing: a Driver replays its latest element to a new
// subscriber (state: a label's text), a Signal does not (events: a tap, a toast).
example("Driver and Signal") {
    let taps = PublishRelay<String>()
    let state: Driver<String> = taps.asObservable().asDriver(onErrorJustReturn: "")
    let events: Signal<String> = taps.asSignal()
    let disposeBag = DisposeBag()
    state.drive(onNext: { print("driver A:", $0) }).disposed(by: disposeBag)
    events.emit(onNext: { print("signal A:", $0) }).disposed(by: disposeBag)
    taps.accept("tap 1")
    print("B subscribes")
    state.drive(onNext: { print("driver B:", $0) }).disposed(by: disposeBag)
    events.emit(onNext: { print("signal B:", $0) }).disposed(by: disposeBag)
    taps.accept("tap 2")
}

// 004 "尽量不使用 Driver": a Driver made at the end of a chain that can fail keeps the app alive
// but not the chain. The login fails once; asDriver shows the fallback and completes, and the
// button is dead from then on, silently. Recovering per request, inside flatMapLatest (004's
// Result), keeps the button working, and the Driver at the end is then only the binding.
example("the login button after a failure") {
    let tap = PublishSubject<String>()
    func login(_ password: String) -> Observable<String> {
        password == "secret" ? .just("welcome") : .error(RequestFailed())
    }
    let disposeBag = DisposeBag()
    tap.flatMapLatest(login)
        .asDriver(onErrorJustReturn: "login failed")
        .drive(onNext: { print("whole chain:", $0) }, onCompleted: { print("whole chain: completed") })
        .disposed(by: disposeBag)
    tap.flatMapLatest { password in
        login(password).map { "✓ \($0)" }.catchAndReturn("✗ wrong password")
    }
    .asDriver(onErrorJustReturn: "")
    .drive(onNext: { print("per request:", $0) })
    .disposed(by: disposeBag)
    for password in ["guess", "secret"] {
        print("tap with \(password)")
        tap.onNext(password)
    }
}

// MARK: - ControlProperty: 001 textField.rx.text.skip(1)

/// A headless UITextField: `text` set by code is not reported (as in UIKit); `type(_:)` is the
/// user typing, which is.
final class TextField: ReactiveCompatible {
    var text: String?
    fileprivate let edits = PublishSubject<Void>()

    init(text: String?) { self.text = text }

    func type(_ text: String) {
        self.text = text
        edits.onNext(())
    }
}

extension Reactive where Base: TextField {
    /// UITextField's `rx.text`: the text now, at subscription, then after each edit.
    var text: ControlProperty<String?> {
        let field = base
        let values = Observable.deferred { field.edits.map { field.text }.startWith(field.text) }
        return ControlProperty(values: values, valueSink: Binder(field) { field, text in field.text = text })
    }
}

// A ControlProperty sends the control's current value the moment it is subscribed: that is what
// a binding wants (the label shows the text at once), and why 001 writes `.skip(1)` to hear only
// what the user types. `changed` is the same thing spelled by RxCocoa.
example("textField.rx.text.skip(1)") {
    let textField = TextField(text: "")
    let disposeBag = DisposeBag()
    textField.rx.text.subscribe(onNext: { text in print("rx.text: \"\(text!)\"") }).disposed(by: disposeBag)
    textField.rx.text.skip(1).subscribe(onNext: { text in print("输入的是 : \(text!)") }).disposed(by: disposeBag)
    textField.rx.text.changed.subscribe(onNext: { print("changed:", $0!) }).disposed(by: disposeBag)
    textField.type("R")
    textField.type("Rx")
    textField.text = "set by code"
    print("after code set the text, nothing was sent; a new subscriber gets it first:")
    textField.rx.text.orEmpty.take(1).subscribe(onNext: { print("orEmpty:", $0) }).disposed(by: disposeBag)
}

// One subscription alone, to see what it is made of: the field's PublishSubject, the `map` and
// `startWith` of its `rx.text`, the ControlProperty's own `subscribe(on:)` (main thread), and
// the SkipCountSink that swallows the value sent at subscription.
example("rx.text.skip(1), one subscription", draw: true) {
    let textField = TextField(text: "")
    let subscription = textField.rx.text.skip(1).subscribe(onNext: { text in print("输入的是 : \(text!)") })
    textField.type("R")
    subscription.dispose()
}

// The Driver on real threads: a source sending from a background queue, driven on the main thread.
// (Last of the examples, after those that draw their runs: a background queue's work never lands
// in a picture.)
// (On Linux nothing drains the main queue by itself: the example drains it, as chapter 08 does.)
example("Driver delivers on the main thread") {
    var done = false
    let sent = DispatchSemaphore(value: 0)
    let background = SerialDispatchQueueScheduler(internalSerialQueueName: "network")
    let results =
        Observable.of("row 1", "row 2")
        .subscribe(on: background)
        .do(
            onNext: { print("source sends \($0) on the main thread: \(Thread.isMainThread)") },
            onCompleted: { sent.signal() }
        )
        .asDriver(onErrorJustReturn: "offline")
    let subscription = results.drive(
        onNext: { print("drive gets \($0) on the main thread: \(Thread.isMainThread)") },
        onCompleted: { done = true })
    // The deliveries wait in the main queue until it is drained: let the source finish first, so
    // that the lines come in one order (the two threads would otherwise take turns at random).
    sent.wait()
    _ = MainScheduler.drain(timeout: 10) { done }
    subscription.dispose()
    // subscribe(on:) disposes on the background queue too: wait until that has run, so that none
    // of this example's work is left for a later example that draws its own run to see.
    let flushed = DispatchSemaphore(value: 0)
    _ = background.schedule(()) { _ in
        flushed.signal()
        return Disposables.create()
    }
    flushed.wait()
}

// MARK: - Exercises (the answers: make chapter N=20 ARGS=--answers)

exercise(1) {
    let relay = PublishRelay<Int>()
    let driver = relay.asObservable().asDriver(onErrorJustReturn: 0)
    let signal = relay.asSignal()
    _ = driver.drive(onNext: { print("driver A", $0) })
    _ = signal.emit(onNext: { print("signal A", $0) })
    relay.accept(1)
    _ = driver.drive(onNext: { print("driver B", $0) })
    _ = signal.emit(onNext: { print("signal B", $0) })
    relay.accept(2)
} why: {
    Why(
        """
        Both share one subscription to the relay, but a Driver's sharing is `share(replay: 1)` and a Signal's is
        `share()`. So driver B gets the latest element, 1, the moment it subscribes; signal B was not there for 1 and
        gets only 2.
        """,
        zh: """
            两者都只订阅一次 relay，但 Driver 的共享方式是 `share(replay: 1)`，Signal 的是 `share()`。所以
            driver B 一订阅就拿到最新的元素 1；signal B 订阅时 1 已经过去了，只能收到 2。
            """)
}

exercise(2) {
    let textField = TextField(text: "Rx")
    _ = textField.rx.text.orEmpty.subscribe(onNext: { print("all:", $0) })
    _ = textField.rx.text.orEmpty.skip(1).subscribe(onNext: { print("skip(1):", $0) })
    textField.type("RxSwift")
    _ = textField.rx.text.orEmpty.skip(1).subscribe(onNext: { print("late skip(1):", $0) })
    textField.type("RxCocoa")
} why: {
    Why(
        """
        `rx.text` sends the text there is at subscription, then each edit. `skip(1)` drops that first value — for each
        subscription, counted from its own start: the late subscriber's skipped value is "RxSwift", the text at the
        moment it subscribed, so it prints only "RxCocoa".
        """,
        zh: """
            `rx.text` 一订阅就先发当时的文本，之后每编辑一次发一次。`skip(1)` 丢掉的就是这第一个值，而且是每个订阅从自己
            开始时算起：晚来的那个订阅丢掉的是它订阅那一刻的文本 "RxSwift"，所以它只打印 "RxCocoa"。
            """)
}

exercise(3) {
    _ = Observable.of(1, 2).asSingle().subscribe(
        onSuccess: { print("A success", $0) }, onFailure: { print("A failure", $0) })
    _ = Observable.of(1, 2).take(1).asSingle().subscribe(
        onSuccess: { print("B success", $0) }, onFailure: { print("B failure", $0) })
    _ = Observable<Int>.empty().asMaybe().subscribe(
        onSuccess: { print("C success", $0) }, onError: { print("C error", $0) }, onCompleted: { print("C completed") })
} why: {
    Why(
        """
        A Single promises exactly one element. `of(1, 2)` sends a second one, which breaks the promise: A fails with
        `moreThanOneElement`. `take(1)` completes after the first element, so B succeeds with 1. A Maybe may have no
        element: an empty source is simply C's `completed`.
        """,
        zh: """
            Single 保证只有一个元素。`of(1, 2)` 发了第二个，违背了这个约定：A 以 `moreThanOneElement` 失败。
            `take(1)` 拿到第一个元素就完成，所以 B 成功，拿到 1。Maybe 允许一个元素都没有：源是空的，C 就只是 `completed`。
            """)
}
