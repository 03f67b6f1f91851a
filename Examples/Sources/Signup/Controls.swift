import Foundation
import RxCocoa
import RxSwift

// Controls without UIKit, with the `rx` members UIKit's have: a text field whose `rx.text` is a
// ControlProperty, a button whose `rx.tap` is a ControlEvent. Code that binds them reads as it
// would with UITextField and UIButton.

/// A text field. Setting `text` from code is not reported (as with UIKit); `type(_:)` is the
/// user typing, which is.
public final class TextField: ReactiveCompatible {
    public var text: String?
    fileprivate let edits = PublishSubject<Void>()

    public init(text: String? = "") {
        self.text = text
    }

    /// The user replaces the text.
    public func type(_ text: String?) {
        self.text = text
        edits.onNext(())
    }
}

extension Reactive where Base: TextField {
    /// The text now and after each edit; binding into it sets the text.
    public var text: ControlProperty<String?> {
        let field = base
        let values = Observable.deferred { field.edits.map { field.text }.startWith(field.text) }
        return ControlProperty(values: values, valueSink: Binder(field) { field, text in field.text = text })
    }
}

/// A button.
public final class Button: ReactiveCompatible {
    public var isEnabled = true
    public var title: String
    fileprivate let taps = PublishSubject<Void>()

    public init(title: String) {
        self.title = title
    }

    /// The user taps it; a disabled button ignores the tap.
    public func tap() {
        if isEnabled { taps.onNext(()) }
    }
}

extension Reactive where Base: Button {
    public var tap: ControlEvent<Void> {
        ControlEvent(events: base.taps)
    }

    public var isEnabled: Binder<Bool> {
        Binder(base) { button, enabled in button.isEnabled = enabled }
    }
}

/// A label.
public final class Label: ReactiveCompatible {
    public var text: String?

    public init() {}
}

extension Reactive where Base: Label {
    public var text: Binder<String?> {
        Binder(base) { label, text in label.text = text }
    }

    /// Shows a field's validation.
    public var validation: Binder<Validation> {
        Binder(base) { label, validation in
            switch validation {
            case .empty: label.text = ""
            case .checking: label.text = "checking…"
            case .valid(let message): label.text = "✓ \(message)"
            case .invalid(let message): label.text = "✗ \(message)"
            }
        }
    }
}

/// The signup screen: its controls, bound to a `SignupViewModel` as a view controller binds
/// them in `viewDidLoad`.
public final class SignupScreen {
    public let username = TextField()
    public let password = TextField()
    public let repeatedPassword = TextField()
    public let signup = Button(title: "Sign up")
    public let usernameHint = Label()
    public let passwordHint = Label()
    public let repeatedPasswordHint = Label()
    public private(set) var announcements: [String] = []
    public let viewModel: SignupViewModel
    private let disposeBag = DisposeBag()

    public init(accounts: AccountService) {
        viewModel = SignupViewModel(
            input: (
                username: username.rx.text.orEmpty.asDriver(),
                password: password.rx.text.orEmpty.asDriver(),
                repeatedPassword: repeatedPassword.rx.text.orEmpty.asDriver(),
                signupTaps: signup.rx.tap.asSignal()
            ),
            accounts: accounts)

        viewModel.usernameValidation.drive(usernameHint.rx.validation).disposed(by: disposeBag)
        viewModel.passwordValidation.drive(passwordHint.rx.validation).disposed(by: disposeBag)
        viewModel.repeatedPasswordValidation.drive(repeatedPasswordHint.rx.validation).disposed(by: disposeBag)
        viewModel.signupEnabled.drive(signup.rx.isEnabled).disposed(by: disposeBag)
        viewModel.announcements
            .emit(with: self, onNext: { screen, message in screen.announcements.append(message) })
            .disposed(by: disposeBag)
    }
}
