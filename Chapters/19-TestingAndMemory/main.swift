// Chapter 19 — testing and memory. RxTest's TestScheduler, hot and cold test observables,
// Recorded events and Subscription ranges, marbles, RxBlocking and the leak checks (RxTesting);
// then what keeps a screen alive: [weak self], subscribe(with:), withUnretained, take(until:) an
// object's end, and 003's cell-reuse DisposeBag ("综合处理"), each as RxTrace's leak report sees it.
import Foundation
import RxCore
import RxTesting
import Workbook

// MARK: - Testing on virtual time

// A cold test observable plays its events to each subscriber, at offsets from the moment of that
// subscription. `start` creates the sequence at 100, subscribes at 200 and disposes at 1000.
example("cold test observable", draw: true) {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, "a"), .next(20, "b"), .completed(30)])
    let result = scheduler.start { xs.map { $0.uppercased() } }
    print("events:", result.events)
    print("subscriptions:", xs.subscriptions)
}

// A hot test observable sends at absolute times whether or not anyone listens: 150 comes before
// the subscription at 200 and is lost, as a hot sequence's early elements are (chapter 14).
example("hot test observable", draw: true) {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(250, 3), .completed(300)])
    let result = scheduler.start { xs.map { $0 * 10 } }
    print("events:", result.events)
    print("subscriptions:", xs.subscriptions)
}

// Subscription ranges say when a test observable was subscribed and for how long: disposed
// early by `start(disposed:)`, and subscribed twice by `retry`.
example("Subscription ranges") {
    let scheduler = TestScheduler(initialClock: 0)
    let hot = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(270, 3)])
    let early = scheduler.start(disposed: 250) { hot.asObservable() }
    print("disposed at 250:", early.events, hot.subscriptions)

    let retrying = TestScheduler(initialClock: 0)
    let failing = retrying.createColdObservable([.next(10, "a"), .error(20, MarbleError("boom"), String.self)])
    let result = retrying.start { failing.retry(2) }
    print("retry(2):", result.events)
    print("retry(2) subscribed:", failing.subscriptions)
}

// Marbles: a sequence drawn as a string, one frame (10 ticks) per character. `^` is frame zero,
// the subscription (200); the recorded result drawn the same way reads against it column by
// column, and a wrong expectation gets a diff.
example("marbles") {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable("-a-^-b-c-|")
    let result = scheduler.start { xs.map { $0.uppercased() } }
    let letters: [Character: String] = ["B": "B", "C": "C"]
    print("input:  -a-^-b-c-|")
    print("output:    ^" + result.marbles(values: letters).dropFirst())
    print("events:", result.events)
    for expected in ["--B-C-|", "--B--C|"] {
        let events = try! Marbles.events(expected, values: letters, zero: 200)
        print(
            "expected \(expected):",
            Marbles.diff(expected: events, actual: result.events, values: letters, zero: 200) ?? "same")
    }
}

// RxBlocking's toBlocking(): wait for a sequence, on the current thread, and get its elements.
// Here the elements come from a background queue; toBlocking waits for them.
example("RxBlocking") {
    let background = SerialDispatchQueueScheduler(internalSerialQueueName: "background")
    let doubled = Observable.of(1, 2, 3).observe(on: background).map { $0 * 2 }
    print("toArray:", try! doubled.toBlocking().toArray())
    print("first:", try! doubled.toBlocking().first() ?? -1)
    let failing = Observable.just(1).concat(Observable<Int>.error(MarbleError("boom")))
    switch failing.toBlocking().materialize() {
    case .completed(let elements): print("completed with", elements)
    case .failed(let elements, let error): print("failed after", elements, "with", error)
    }
}

// The leak check a test runs around its body (`assertNoLeaks`, or `@Suite(.noLeaks)`): the live
// count of every type before and after. A forgotten subscription is named type by type.
example("leak checks") {
    let subject = PublishSubject<Int>()
    var before = Resources.snapshot()
    let subscription = subject.map { $0 * 2 }.subscribe(onNext: { _ in })
    print("forgotten:", LeakCheck.describe(LeakCheck.leaks(since: before)))
    subscription.dispose()
    before = Resources.snapshot()
    subject.map { $0 * 2 }.subscribe(onNext: { _ in }).dispose()
    print("disposed:", LeakCheck.leaks(since: before).isEmpty ? "no leaks" : "leaks")
}

// MARK: - Memory: what keeps a screen alive

/// Runs `body` recorded, then prints RxTrace's leak report of that recording as `rxtrace leaks`
/// groups it: each call site with the types of what it made that is still alive.
func reportingLeaks(_ body: () -> Void) {
    let leaks = Diagrams.leaks(in: Diagrams.trace(body))
    if leaks.isEmpty { print("  rxtrace leaks: nothing leaked") }
    for leak in leaks {
        print("  rxtrace leaks: \(leak.callSite): \(leak.types.joined(separator: ", "))")
    }
}

/// A headless screen: a title bound to a model's names, and the bag that owns the binding.
final class ProfileScreen {
    let name: String
    let disposeBag = DisposeBag()
    var title = "" {
        didSet { print("  \(name).title = \(title)") }
    }

    init(_ name: String) { self.name = name }
    deinit { print("  \(name) deinit") }
}

/// The app's model: it lives as long as the app, longer than any screen.
let appModel = PublishSubject<String>()

// The closure captures self strongly. The model keeps its observer, the observer's closure keeps
// the screen, the screen keeps its bag: nothing ever disposes the subscription, and the screen
// lives as long as the model — here, to the end of the program.
example("a strong self", draw: true) {
    let names = appModel
    reportingLeaks {
        var screen: ProfileScreen? = ProfileScreen("strong")
        let this = screen!
        names.subscribe(onNext: { name in this.title = name }).disposed(by: this.disposeBag)
        names.onNext("mojito")
        screen = nil
        print("  screen = nil; names has observers:", names.hasObservers)
    }
}

// [weak self]: the closure does not keep the screen; when the screen goes, its bag goes and
// disposes the subscription.
example("[weak self]", draw: true) {
    let names = PublishSubject<String>()
    reportingLeaks {
        var screen: ProfileScreen? = ProfileScreen("weak")
        names.subscribe(onNext: { [weak screen] name in screen?.title = name }).disposed(by: screen!.disposeBag)
        names.onNext("mojito")
        screen = nil
        print("  screen = nil; names has observers:", names.hasObservers)
    }
}

// subscribe(with:) (RxSwift 6) holds the object weakly for you and hands it to the closure.
example("subscribe(with:)") {
    let names = PublishSubject<String>()
    reportingLeaks {
        var screen: ProfileScreen? = ProfileScreen("with")
        names.subscribe(with: screen!, onNext: { screen, name in screen.title = name })
            .disposed(by: screen!.disposeBag)
        names.onNext("mojito")
        screen = nil
        print("  screen = nil; names has observers:", names.hasObservers)
    }
}

// withUnretained (RxSwift 6) pairs each element with the object while it lives, and completes the
// sequence at the first element after the object has gone: it ends even a subscription no bag
// holds, but only when the source sends again.
example("withUnretained") {
    let names = PublishSubject<String>()
    reportingLeaks {
        var screen: ProfileScreen? = ProfileScreen("unretained")
        _ = names.withUnretained(screen!)
            .subscribe(
                onNext: { screen, name in screen.title = name }, onCompleted: { print("  completed") })
        names.onNext("mojito")
        screen = nil
        print("  screen = nil; names has observers:", names.hasObservers)
        names.onNext("the next name")
        print("  after the next name; names has observers:", names.hasObservers)
    }
}

/// A screen whose end can be observed, as RxCocoa's `rx.deallocated` sends when an object goes
/// (chapter 17 shows how RxCocoa hooks `dealloc` for it).
final class SettingsScreen {
    private let end = PublishSubject<Void>()
    var deallocated: Observable<Void> { end.asObservable() }
    var fontSize = 0 {
        didSet { print("  settings.fontSize = \(fontSize)") }
    }

    deinit {
        print("  settings deinit")
        end.onNext(())
        end.onCompleted()
    }
}

// take(until:) an object's end: no bag at all; the subscription completes when the screen goes.
// It needs the closure not to keep the screen (a strong self would keep it from ever going).
example("take(until:) the object's end") {
    let fontSizes = PublishSubject<Int>()
    reportingLeaks {
        var screen: SettingsScreen? = SettingsScreen()
        _ = fontSizes.take(until: screen!.deallocated)
            .subscribe(
                onNext: { [weak screen] size in screen?.fontSize = size }, onCompleted: { print("  completed") })
        fontSizes.onNext(17)
        screen = nil
        print("  screen = nil; fontSizes has observers:", fontSizes.hasObservers)
    }
}

// 003 "综合处理": an image binding per cell, added to a reuseDisposeBag. A table reuses cells, so a
// cell configured for row 0 and then for row 5 must drop row 0's binding first — by replacing its
// bag in prepareForReuse. A headless cell, and image loads as subjects.
final class ImageCell {
    var reuseDisposeBag = DisposeBag()
    let resetsItsBag: Bool
    var image = "" {
        didSet { print("  cell.image = \(image)") }
    }

    init(resetsItsBag: Bool) { self.resetsItsBag = resetsItsBag }

    func prepareForReuse() {
        if resetsItsBag { reuseDisposeBag = DisposeBag() }
    }

    func configure(row: Int, image: Observable<String>) {
        image.map { "\($0) (row \(row))" }
            .subscribe(onNext: { [weak self] in self?.image = $0 })
            .disposed(by: reuseDisposeBag)
    }
}

func scrollThroughTheTable(resetsItsBag: Bool) {
    let row0 = PublishSubject<String>()
    let row5 = PublishSubject<String>()
    let cell = ImageCell(resetsItsBag: resetsItsBag)
    reportingLeaks {
        cell.configure(row: 0, image: row0)
        cell.prepareForReuse()
        cell.configure(row: 5, image: row5)
        row5.onNext("🍋")
        row0.onNext("🍎 (late)")
    }
    print("  row 0's load still bound:", row0.hasObservers)
}

example("cell reuse without a new bag", draw: true) {
    scrollThroughTheTable(resetsItsBag: false)
}

example("cell reuse with a new bag") {
    scrollThroughTheTable(resetsItsBag: true)
}

// MARK: - Exercises (the answers: make chapter N=19 ARGS=--answers)

exercise(1) {
    let scheduler = TestScheduler(initialClock: 0)
    let hot = scheduler.createHotObservable([.next(150, "a"), .next(220, "b"), .completed(260)])
    let cold = scheduler.createColdObservable([.next(10, "x"), .next(60, "y"), .completed(70)])
    let result = scheduler.start { Observable.merge(hot.asObservable(), cold.asObservable()) }
    print(result.events)
    print(hot.subscriptions, cold.subscriptions)
} why: {
    Why(
        """
        The hot observable sends at absolute times: `a` at 150 is before the subscription at 200 and is lost, `b`
        comes at 220. The cold one starts over for its subscriber, so its offsets are added to 200: `x` at 210, `y` at
        260. `merge` completes when both have completed, at 270, and disposes each source's subscription when that
        source completes: the hot one's range ends at 260, the cold one's at 270.
        """,
        zh: """
            热的测试序列按绝对时间发送：150 的 `a` 早于 200 的订阅，丢了；`b` 在 220 到达。冷的那个为订阅者从头播放，
            偏移量加在 200 上：`x` 在 210，`y` 在 260。`merge` 要两边都完成才完成，也就是 270；每个源一完成，它就释
            放对那个源的订阅：热序列的订阅区间到 260 结束，冷序列的到 270。
            """)
}

exercise(2) {
    final class Screen {
        let bag = DisposeBag()
        var title = ""
        init(names: Observable<String>) {
            names.subscribe(with: self, onNext: { screen, name in screen.title = name }).disposed(by: bag)
        }
        deinit { print("Screen deinit") }
    }
    let names = PublishSubject<String>()
    var screen: Screen? = Screen(names: names)
    names.onNext("a")
    print(screen!.title)
    screen = nil
    print("observers left:", names.hasObservers)
} why: {
    Why(
        """
        `subscribe(with:)` holds the screen weakly, so the screen's only owner is the variable. Setting it to nil ends
        the screen; its bag goes with it and disposes the subscription, which takes the observer off the subject.
        """,
        zh: """
            `subscribe(with:)` 对 screen 是弱引用，screen 唯一的持有者就是那个变量。把它设成 nil，screen 就释放了；
            它的袋子随之释放，袋子释放订阅，订阅把观察者从 subject 上摘掉。
            """)
}

exercise(3) {
    final class Owner {}
    var owner: Owner? = Owner()
    let ticks = PublishSubject<Int>()
    _ = ticks.withUnretained(owner!)
        .subscribe(onNext: { _, n in print("got", n) }, onCompleted: { print("completed") })
    ticks.onNext(1)
    owner = nil
    print("observers after owner = nil:", ticks.hasObservers)
    ticks.onNext(2)
    print("observers after the next tick:", ticks.hasObservers)
} why: {
    Why(
        """
        `withUnretained` keeps the owner weakly and looks for it at each element. Nothing happens when the owner goes:
        the subscription is still there. At the next element the owner is missing, so the sequence completes instead
        of sending 2, and completion disposes the subscription.
        """,
        zh: """
            `withUnretained` 弱引用着 owner，每来一个元素才去看它还在不在。owner 释放的那一刻什么也不会发生，订阅还
            挂着。下一个元素到来时发现 owner 没了，序列就不发 2 而是直接完成，完成又释放了订阅。
            """)
}
