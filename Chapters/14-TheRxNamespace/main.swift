// Chapter 14 — the `rx` namespace (000 "首先分析 UIButton 的rx的属性是怎么来的呢?",
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

// MARK: - Exercises (the answers: make chapter N=14 ARGS=--answers)

exercise(1) {
    let button = Button()
    let first = button.rx.tap.subscribe(onNext: { print("first") })
    _ = button.rx.tap.subscribe(onNext: { print("second") })
    button.sendActions()
    first.dispose()
    button.sendActions()
}

exercise(2) {
    let slider = Slider()
    let values = PublishSubject<Double>()
    _ = values.bind(to: slider.rx.value)
    values.onNext(1)
    values.onCompleted()
    values.onNext(2)
    print("at the end:", slider.value)
}
