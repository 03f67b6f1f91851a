// Chapter 09 — disposing (000 "DisposeBag 内存回收如何实现的呢?", 003 "bindValidationResultToUI"
// and "disposeBag", 001 SinkDisposer in step6).
import RxCore
import Workbook

func growth(since before: ResourceSnapshot) -> String {
    let grown = Resources.snapshot().grown(since: before).sorted { $0.key < $1.key }
    return grown.isEmpty
        ? "nothing" : grown.map { "\($0.key) \($0.value > 0 ? "+" : "")\($0.value)" }.joined(separator: ", ")
}

// 000: the bag keeps every subscription's Disposable and disposes them all in its deinit.
example("DisposeBag", draw: true) {
    let subject = PublishSubject<Int>()
    var disposeBag: DisposeBag? = DisposeBag()
    subject.subscribe(onNext: { print("1 got", $0) }, onDisposed: { print("1 disposed") })
        .disposed(by: disposeBag!)
    subject.subscribe(onNext: { print("2 got", $0) }, onDisposed: { print("2 disposed") })
        .disposed(by: disposeBag!)
    subject.onNext(1)
    print("the bag goes")
    disposeBag = nil
    subject.onNext(2)
    print("hasObservers:", subject.hasObservers)
}

// 003 (GitHub signup): `self.disposeBag = DisposeBag()` unbinds everything the old bag held.
example("disposeBag = DisposeBag()") {
    let subject = PublishSubject<String>()
    var disposeBag = DisposeBag()
    subject.subscribe(onNext: { print("bound:", $0) }).disposed(by: disposeBag)
    subject.onNext("first")
    disposeBag = DisposeBag()
    subject.onNext("second (nobody hears this)")
    subject.subscribe(onNext: { print("bound again:", $0) }).disposed(by: disposeBag)
    subject.onNext("third")
}

// Disposables.create(with:) runs its action once, however often it is disposed.
example("Disposables.create") {
    let disposable = Disposables.create { print("clean up") }
    disposable.dispose()
    disposable.dispose()
    print("isDisposed:", disposable.isDisposed)
}

// 001 step6: the SinkDisposer. A sequence that completes inside `run` disposes itself before
// `run` has returned its subscription; the disposer remembers, and disposes the subscription
// the moment `setSinkAndSubscription` hands it over.
example("SinkDisposer", draw: true) {
    let observable = Observable<Int>.create { observer in
        print("handler: onNext(1)")
        observer.onNext(1)
        print("handler: onCompleted()")
        observer.onCompleted()
        print("handler: returns its disposable")
        return Disposables.create { print("handler's disposable disposed") }
    }
    let subscription = observable.subscribe { print("observer:", $0) }
    print("subscribe returned")
    subscription.dispose()
}

// 003 "disposing": the Dispose Sample. The document sleeps the thread for 2 seconds; here the
// 2 seconds are virtual, so the output is the same every run: ticks at 0.3, 0.6, … 1.8 s, then
// the subscription is disposed at 2 s and the timer stops.
example("Dispose Sample", draw: true) {
    onVirtualTime { clock in
        let subscription = Observable<Int>.interval(.milliseconds(300), scheduler: clock.scheduler)
            .subscribe { (e: Event<Int>) in
                print(e)
            }
        clock.at(2) {
            subscription.dispose()
            print("disposed at \(clock.seconds) s")
        }
    }
}

// Leaks made visible: live counts per type (Resources) show what a forgotten subscription keeps.
example("leak made visible") {
    let before = Resources.snapshot()
    let subject = PublishSubject<Int>()
    let forgotten = subject.map { $0 * 2 }.subscribe(onNext: { _ in })
    print("subscribed, never disposed:", growth(since: before))
    forgotten.dispose()
    print("after dispose:", growth(since: before))
}

// The same, read from a trace: RxTrace's leak report names what was left alive and the line
// that made it. The sequence that completed is not reported; the forgotten subscription is.
example("leak report") {
    let subject = PublishSubject<Int>()
    var forgotten: Disposable?
    let trace = Diagrams.trace {
        _ = Observable.of(1, 2, 3).map { $0 * 2 }.subscribe(onNext: { _ in })
        forgotten = subject.map { $0 * 2 }.subscribe(onNext: { _ in })
    }
    for leak in Diagrams.leaks(in: trace) {
        print("\(leak.callSite): \(leak.types.joined(separator: ", "))")
    }
    forgotten?.dispose()
    let disposedInTime = Diagrams.trace {
        let subscription = subject.map { $0 * 2 }.subscribe(onNext: { _ in })
        subscription.dispose()
    }
    print("disposed in time:", Diagrams.leaks(in: disposedInTime).isEmpty ? "no leaks" : "leaks")
}

// Completion frees a subscription too: a finished sequence leaves nothing behind even when
// the returned Disposable is ignored.
example("completion releases") {
    let before = Resources.snapshot()
    do {
        _ = Observable.of(1, 2, 3).map { $0 * 2 }.subscribe(onNext: { _ in })
    }
    print("after a completed subscription:", growth(since: before))
}

// MARK: - 003 "disposeBag": `self.disposeBag = DisposeBag()` and a child screen

/// A headless view controller with the lifecycle calls the pitfall needs: UIKit calls
/// `willMove(toParent:)` when the controller is added (the parent) or removed (nil), and
/// `viewDidLoad` once, the first time its view is needed.
class ViewController {
    let name: String
    private(set) var isViewLoaded = false
    init(_ name: String) { self.name = name }

    func viewDidLoad() {}
    func willMove(toParent parent: Container?) {}
    func viewWillAppear() {}
    func viewDidDisappear() {}

    /// What `addChild`, or a navigation controller's push, does to the child.
    func add(to parent: Container) {
        print("\(name) is added to \(parent.name)")
        willMove(toParent: parent)
        if !isViewLoaded {
            isViewLoaded = true
            viewDidLoad()
        }
        viewWillAppear()
    }

    /// What `removeFromParent`, or a pop, does.
    func remove() {
        print("\(name) is removed")
        willMove(toParent: nil)
        viewDidDisappear()
    }
}

/// A parent: a navigation controller or a plain container screen.
struct Container {
    let name: String
    let isNavigationController: Bool
}

/// 003's signup screen, reduced to one binding: a tap shows an alert. Its disposeBag is made
/// anew where the document makes it: at the definition, in `viewDidLoad`, and in
/// `willMove(toParent: nil)`.
final class SignupViewController: ViewController {
    let tap = PublishSubject<Void>()
    var disposeBag = DisposeBag()

    override func viewDidLoad() {
        disposeBag = DisposeBag()
        tap.subscribe(onNext: { [name] in print("\(name): alert \"Mock signed up to GitHub\"") })
            .disposed(by: disposeBag)
    }

    override func willMove(toParent parent: Container?) {
        if let parent {
            // The document's `assert(parent.isKindOfClass(UINavigationController), "Please read comments")`.
            if !parent.isNavigationController { print("assertion failed: Please read comments") }
        } else {
            disposeBag = DisposeBag()
        }
    }
}

/// The idiom that survives being added again: bind when the screen appears, unbind when it
/// disappears.
final class RebindingViewController: ViewController {
    let tap = PublishSubject<Void>()
    private var disposeBag = DisposeBag()

    override func viewWillAppear() {
        tap.subscribe(onNext: { [name] in print("\(name): alert \"Mock signed up to GitHub\"") })
            .disposed(by: disposeBag)
    }

    override func viewDidDisappear() { disposeBag = DisposeBag() }
}

example("disposeBag and a child screen") {
    let navigation = Container(name: "UINavigationController", isNavigationController: true)
    let screen = Container(name: "a container screen", isNavigationController: false)

    let pushed = SignupViewController("pushed signup")
    pushed.add(to: navigation)
    pushed.tap.onNext(())
    pushed.remove()
    pushed.tap.onNext(()) // popped: nothing is bound, no alert over the wrong screen

    let child = SignupViewController("child signup")
    child.add(to: screen)
    child.tap.onNext(())
    child.remove()
    child.add(to: screen)
    print("child.tap.hasObservers = \(child.tap.hasObservers)")
    child.tap.onNext(()) // added again: viewDidLoad does not run twice, the UI is not bound

    let rebinding = RebindingViewController("rebinding signup")
    rebinding.add(to: screen)
    rebinding.remove()
    rebinding.add(to: screen)
    rebinding.tap.onNext(())
}

// MARK: - Exercises (the answers: make chapter N=09 ARGS=--answers)

exercise(1) {
    let subject = PublishSubject<Int>()
    do {
        let bag = DisposeBag()
        subject.subscribe(onNext: { print("A", $0) }, onDisposed: { print("A disposed") }).disposed(by: bag)
        subject.subscribe(onNext: { print("B", $0) }, onDisposed: { print("B disposed") }).disposed(by: bag)
        subject.onNext(1)
    }
    subject.onNext(2)
    print("observers left:", subject.hasObservers)
} why: {
    Why(
        """
        When the bag goes out of scope its `deinit` disposes what it holds, in the order it was added: `A disposed`,
        then `B disposed`. Disposing a subscription to a subject takes its observer off the subject, so the 2 reaches
        nobody.
        """,
        zh: """
            袋子离开作用域时，它的 `deinit` 按加入的顺序释放里面的订阅：先 `A disposed`，再 `B disposed`。释放对
            subject 的订阅，会把观察者从 subject 上摘下来，所以 2 谁也收不到。
            """)
}

exercise(2) {
    let subscription = Observable<Int>.create { observer in
        observer.onNext(1)
        return Disposables.create { print("resource released") }
    }
    .subscribe(onNext: { print("got", $0) })
    print("before dispose")
    subscription.dispose()
    subscription.dispose()
    print("after dispose")
} why: {
    Why(
        """
        Disposing runs the action given to `Disposables.create` once: the subscription remembers that it was disposed,
        and the second `dispose()` finds nothing left to do.
        """,
        zh: """
            dispose 只执行一次交给 `Disposables.create` 的动作：订阅记得自己已经释放过，第二次 `dispose()` 无事可做。
            """)
}
