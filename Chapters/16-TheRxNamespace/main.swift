// Chapter 16 — the `rx` namespace (000 "首先分析 UIButton 的rx的属性是怎么来的呢?",
// 001 "rx"): ReactiveCompatible, Reactive<Base>, and `extension Reactive where Base: …`.
import RxCore
import Workbook

// The three pieces 000 and 001 quote — `ReactiveCompatible`, its extension returning
// `Reactive<Self>.self` and `Reactive(self)`, and `struct Reactive<Base> { let base }` — are in
// Sources/RxCore/Reactive/Reactive.swift, with `extension NSObject: ReactiveCompatible {}`.

// Headless stand-ins for UIKit controls (there is no UIKit on Linux): just enough state and
// callbacks to bind to.
class View {}

final class Button: View {
    private var targets: [() -> Void] = []
    func addTarget(_ action: @escaping () -> Void) { targets.append(action) }
    /// What a finger on the screen would do.
    func sendActions() { targets.forEach { $0() } }
}

final class Label: View {
    var text: String? {
        didSet { print("label.text = \(text ?? "nil")") }
    }
}

// 000: `extension NSObject: ReactiveCompatible { }` gives every object `.rx`. The models' root
// class joins the same way.
extension View: ReactiveCompatible {}

// 000: `where` picks the extensions that apply to one base type.
extension Reactive where Base: Button {
    /// Reactive wrapper for the TouchUpInside event.
    var tap: Observable<Void> {
        Observable.create { [base] observer in
            base.addTarget { observer.onNext(()) }
            return Disposables.create()
        }
    }
}

extension Reactive where Base: Label {
    /// An observer that sets the label's text: a `Binder`, as RxCocoa's `UILabel.rx.text`
    /// (000's `UIBindingObserver` is its RxSwift 3 name). It delivers on the main scheduler —
    /// here the chapter runs on the main thread, so at once.
    var text: Binder<String?> {
        Binder(base) { label, text in label.text = text }
    }
}

example("rx is a Reactive wrapper") {
    let button = Button()
    print("type(of: button.rx) =", type(of: button.rx))
    print("Button.rx =", Button.rx)
    print("button.rx.base === button:", button.rx.base === button)
}

example("where Base: Button", draw: true) {
    let disposeBag = DisposeBag()
    let button = Button()
    let label = Label()
    var count = 0
    button.rx.tap
        .map { () -> String? in
            count += 1
            return "tapped \(count)×"
        }
        .bind(to: label.rx.text)
        .disposed(by: disposeBag)
    button.sendActions()
    button.sendActions()
}

/// 001's `HomeApi.getTitle()`: a request that answers 0.3 s after it is sent (virtual time).
func getTitle(on clock: VirtualClock) -> Observable<String> {
    Observable.deferred {
        print("\(clock.stamp) request sent")
        return Observable<Int>.timer(.milliseconds(300), scheduler: clock.scheduler)
            .map { _ in "mojito (answered at \(clock.stamp))" }
    }
}

// 001 响应式: a tap, then a network reply, then the label, written once as one chain that reacts
// to each tap. 001 subscribes to the request inside the tap's subscribe; the idiom is one chain:
// flatMapLatest (chapter 10) starts the request and drops a reply that a newer tap made stale,
// bind(to:) hands the result to the label. Time is virtual (chapter 08).
example("button tap → request → label", draw: true) {
    let disposeBag = DisposeBag()
    let button = Button()
    let titleLabel = Label()
    onVirtualTime { clock in
        button.rx.tap
            .flatMapLatest { getTitle(on: clock) }
            .map { title -> String? in "我是 \(title)" }
            .bind(to: titleLabel.rx.text)
            .disposed(by: disposeBag)
        clock.at(1) { button.sendActions() }
        clock.at(2.5) { button.sendActions() }
        clock.at(2.6) { button.sendActions() }
    }
}

// `Reactive` has `@dynamicMemberLookup`: any writable property of a class base is a Binder.
final class Slider: View {
    var value: Double = 0 {
        didSet { print("slider.value = \(value)") }
    }
}

example("rx.value: a Binder for every property") {
    let disposeBag = DisposeBag()
    let slider = Slider()
    Observable.of(0.25, 0.5)
        .bind(to: slider.rx.value)
        .disposed(by: disposeBag)
}

// Any type can join: a struct gets `.rx` by conforming, and its own `where` extension.
struct Thermometer: ReactiveCompatible {
    var celsius: [Double]
}

extension Reactive where Base == Thermometer {
    var readings: Observable<Double> { Observable.from(base.celsius) }
}

example("Reactive where Base == Thermometer") {
    let disposeBag = DisposeBag()
    Thermometer(celsius: [21.5, 22, 23.25]).rx.readings
        .map { "\($0) °C" }
        .subscribe(onNext: { print($0) })
        .disposed(by: disposeBag)
}

// MARK: - Exercises (the answers: make chapter N=16 ARGS=--answers)

exercise(1) {
    let button = Button()
    let first = button.rx.tap.subscribe(onNext: { print("first") })
    _ = button.rx.tap.subscribe(onNext: { print("second") })
    button.sendActions()
    first.dispose()
    button.sendActions()
} why: {
    Why(
        """
        Each subscription to `rx.tap` is a `create` subscription of its own: its own sink, and its own action added to
        the button. Disposing `first` disposes its sink. Its action stays on the button (this model's `tap` never
        removes it), but a disposed sink drops what it is sent, so the second tap reaches only `second`.
        """,
        zh: """
            每次订阅 `rx.tap` 都是一次独立的 `create` 订阅：有自己的 sink，也在按钮上挂了自己的动作。释放 `first` 释
            放的是它的 sink；动作还挂在按钮上（这个模型的 `tap` 从不摘掉它），可已经释放的 sink 收到什么都会丢掉，所
            以第二次点击只到达 `second`。
            """)
}

exercise(2) {
    let slider = Slider()
    let values = PublishSubject<Double>()
    _ = values.bind(to: slider.rx.value)
    values.onNext(1)
    values.onCompleted()
    values.onNext(2)
    print("at the end:", slider.value)
} why: {
    Why(
        """
        `bind(to:)` sets the property through the `Binder` for each element. `onCompleted()` ends the subject, and the
        element sent after it is dropped: the slider keeps 1.0. A `Binder` ignores completion (an error would stop a
        debug build).
        """,
        zh: """
            `bind(to:)` 通过 `Binder` 把每个元素写到属性上。`onCompleted()` 结束了 subject，之后发的元素被丢掉，滑块
            停在 1.0。`Binder` 对完成事件不做任何事（要是来了错误，调试构建会直接停下）。
            """)
}
