// Chapter 14 — the `rx` namespace (000 "首先分析 UIButton 的rx的属性是怎么来的呢?",
// 001 "rx"): ReactiveCompatible, Reactive<Base>, and `extension Reactive where Base: …`.
import RxCore
import Workbook

// The three pieces, as 000 and 001 quote them from RxSwift. They are written out here so the
// chapter shows all of them; RxSwift 6 spells the associated type `ReactiveBase`.
public protocol ReactiveCompatible {
    associatedtype ReactiveBase
    static var rx: Reactive<ReactiveBase>.Type { get set }
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    // Reactive 类型
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // this enables using Reactive to "mutate" base type
        set {}
    }

    // Reactive 实例
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // this enables using Reactive to "mutate" base object
        set {}
    }
}

public struct Reactive<Base> {
    public let base: Base
    public init(_ base: Base) {
        self.base = base
    }
}

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

// 000: `extension NSObject: ReactiveCompatible { }` gives every object `.rx`. Here the root
// class of the models plays NSObject's part.
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
    /// An observer that sets the label's text (RxCocoa: a `Binder`).
    var text: AnyObserver<String?> {
        AnyObserver { [base] event in
            if case .next(let value) = event { base.text = value }
        }
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
        .subscribe(label.rx.text)
        .disposed(by: disposeBag)
    button.sendActions()
    button.sendActions()
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
