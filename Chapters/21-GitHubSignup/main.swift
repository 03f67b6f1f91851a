// Chapter 21 — the GitHub signup example (003 "RxSwift示例实战 / Demo1: GitHub Signup": rx_text,
// validate, switch, replay, usernameAvailable, password, bindValidationResultToUI,
// signupEnabled, signingProcess, signup, disposeBag).
//
// UIKit is replaced by small models (text fields, a button, labels) and the user by a script on
// virtual time, so the reactive logic of the document runs headless and prints what the screen
// would show.
import Foundation
import RxCore
import Workbook

// MARK: - Headless controls

/// The virtual time of the line, `[t=2.700]`.
var stamp: String { VirtualClock.current?.stamp ?? "" }

/// A UITextField: `rx.text` is the current text and every change (ControlProperty in RxCocoa).
final class TextField: NSObject {
    let name: String
    fileprivate let textRelay = BehaviorRelay(value: "")
    init(_ name: String) { self.name = name }

    /// What typing does.
    func type(_ text: String, clock: VirtualClock) {
        print("\(clock.stamp) \(name) ← \"\(text)\"")
        textRelay.accept(text)
    }
}

extension Reactive where Base: TextField {
    var text: Observable<String> { base.textRelay.asObservable() }
}

final class Button: NSObject {
    fileprivate let taps = PublishSubject<Void>()
    var isEnabled = false {
        didSet { if isEnabled != oldValue { print("\(stamp) signup button \(isEnabled ? "enabled" : "disabled")") } }
    }
    func tap(clock: VirtualClock) {
        print("\(clock.stamp) tap signup\(isEnabled ? "" : " (ignored: disabled)")")
        if isEnabled { taps.onNext(()) }
    }
}

extension Reactive where Base: Button {
    var tap: Observable<Void> { base.taps.asObservable() }
}

final class Label: NSObject {
    let name: String
    init(_ name: String) { self.name = name }
    var text = "" {
        didSet { print("\(stamp) \(name): \"\(text)\" (\(textColor))") }
    }
    var textColor = "gray"
}

// MARK: - The document's model

typealias ValidationResult = (valid: Bool?, message: String?)

enum SignupState: Equatable {
    case initialState
    case signingUp
    case signedUp(signedUp: Bool)
}

/// The "network": answers on virtual time.
struct GitHubAPI {
    let clock: VirtualClock

    /// 003: GET github.com/<username>; a 404 means the name is free. "abc" is taken here.
    func usernameAvailable(_ username: String) -> Observable<Bool> {
        Observable<Int>.timer(.milliseconds(500), scheduler: clock.scheduler)
            .map { _ in username != "abc" }
            .catchAndReturn(false)
    }

    /// 003: "this is also just a mock". The document waits with `[just(result), never()]
    /// .concat().throttle(2)` — RxSwift 2's throttle was today's debounce; `delay` says it
    /// directly. The document's `arc4random() % 5` is replaced by success, to stay deterministic.
    func signup(_ username: String, password: String) -> Observable<SignupState> {
        Observable.just(SignupState.signedUp(signedUp: true))
            .delay(.seconds(2), scheduler: clock.scheduler)
            .startWith(SignupState.signingUp)
    }
}

struct ValidationService {
    let API: GitHubAPI
    let minPasswordCount = 5

    func validateUsername(_ username: String) -> Observable<ValidationResult> {
        // 如果用户名为空
        if username.isEmpty {
            return Observable.just((false, nil))
        }
        // 如果用户名中出现非法字符
        if username.rangeOfCharacter(from: CharacterSet.alphanumerics.inverted) != nil {
            return Observable.just((false, "Username can only contain numbers or digits"))
        }
        // 加载中的值
        let loadingValue = (valid: nil as Bool?, message: "Checking availability ..." as String?)
        // 校验用户名
        return API.usernameAvailable(username)
            .map { available -> ValidationResult in
                if available {
                    return (true, "Username available")
                } else {
                    return (false, "Username already taken")
                }
            }
            .startWith(loadingValue)
    }

    func validatePassword(_ password: String) -> ValidationResult {
        let numberOfCharacters = password.count
        if numberOfCharacters == 0 {
            return (false, nil)
        }
        if numberOfCharacters < minPasswordCount {
            return (false, "Password must be at least \(minPasswordCount) characters")
        }
        return (true, "Password acceptable")
    }

    func validateRepeatedPassword(_ password: String, repeatedPassword: String) -> ValidationResult {
        if repeatedPassword.isEmpty {
            return (false, nil)
        }
        if repeatedPassword == password {
            return (true, "Password repeated")
        } else {
            return (false, "Password different")
        }
    }
}

// MARK: - The view controller's viewDidLoad, as a function

final class SignupScreen {
    let usernameOutlet = TextField("username")
    let passwordOutlet = TextField("password")
    let repeatedPasswordOutlet = TextField("repeat")
    let signupOutlet = Button()
    let usernameValidationOutlet = Label("usernameValidation")
    let passwordValidationOutlet = Label("passwordValidation")
    let repeatedPasswordValidationOutlet = Label("repeatedPasswordValidation")
    var disposeBag = DisposeBag()

    func bindValidationResultToUI(_ source: Observable<ValidationResult>, validationErrorLabel: Label) {
        source
            .subscribe(onNext: { v in
                if let valid = v.valid {
                    validationErrorLabel.textColor = valid ? "ok" : "error"
                } else {
                    validationErrorLabel.textColor = "gray"
                }
                validationErrorLabel.text = v.message ?? ""
            })
            .disposed(by: disposeBag)
    }

    func viewDidLoad(clock: VirtualClock, printUsernameEvents: Bool) {
        let validationService = ValidationService(API: GitHubAPI(clock: clock))
        let API = validationService.API
        let username = usernameOutlet.rx.text
        let password = passwordOutlet.rx.text
        let repeatPassword = repeatedPasswordOutlet.rx.text
        let signupSampler = signupOutlet.rx.tap

        // 003 "switch" + "replay": validate each username, follow only the latest check, share it.
        let usernameValidation =
            username
            .map { username in
                return validationService.validateUsername(username)
            }
            .switchLatest()
            .share(replay: 1)

        if printUsernameEvents {
            usernameValidation
                .subscribe {
                    print("\(stamp) Event: - \($0)")
                }
                .disposed(by: disposeBag)
        }

        let passwordValidation =
            password
            .map { password in
                return validationService.validatePassword(password)
            }
            .share(replay: 1)

        let repeatPasswordValidation = Observable.combineLatest(password, repeatPassword) {
            (password, repeatedPassword) in
            validationService.validateRepeatedPassword(password, repeatedPassword: repeatedPassword)
        }
        .share(replay: 1)

        // 003 "signingProcess": sampleLatest(signupSampler) is withLatestFrom in RxSwift 6.
        let signingProcess =
            signupSampler
            .withLatestFrom(Observable.combineLatest(username, password) { ($0, $1) })
            .map { (username, password) in
                return API.signup(username, password: password)
            }
            .switchLatest()
            .startWith(SignupState.initialState)
            .share(replay: 1)

        let signupEnabled = Observable.combineLatest(
            usernameValidation,
            passwordValidation,
            repeatPasswordValidation,
            signingProcess
        ) { un, p, pr, signingState in
            return (un.valid ?? false) && (p.valid ?? false) && (pr.valid ?? false)
                && signingState != SignupState.signingUp
        }

        bindValidationResultToUI(usernameValidation, validationErrorLabel: usernameValidationOutlet)
        bindValidationResultToUI(passwordValidation, validationErrorLabel: passwordValidationOutlet)
        bindValidationResultToUI(repeatPasswordValidation, validationErrorLabel: repeatedPasswordValidationOutlet)

        signupEnabled
            .distinctUntilChanged()
            .bind(to: signupOutlet.rx.isEnabled)
            .disposed(by: disposeBag)

        signingProcess
            .subscribe(onNext: { signingResult in
                switch signingResult {
                case .signingUp:
                    print("\(stamp) spinner shown")
                case .signedUp(let signed):
                    print("\(stamp) spinner hidden")
                    print("\(stamp) alert: \(signed ? "Mock signed up to GitHub" : "Mock signed up failed")")
                default:
                    break
                }
            })
            .disposed(by: disposeBag)
    }
}

// The document's output section: only the username's validation events, for "12!" then "abc".
example("usernameValidation") {
    onVirtualTime { clock in
        let validationService = ValidationService(API: GitHubAPI(clock: clock))
        let usernameOutlet = TextField("username")
        usernameOutlet.rx.text
            .skip(1) // the empty initial text
            .map { username in
                return validationService.validateUsername(username)
            }
            .switchLatest()
            .subscribe {
                print("\(clock.stamp) Event: - \($0)")
            }
            .disposed(by: clock.disposeBag)
        clock.at(1) { usernameOutlet.type("12!", clock: clock) }
        clock.at(2) { usernameOutlet.type("abc", clock: clock) }
    }
}

// The whole screen: a user types, corrects, and signs up.
example("GitHub Signup", draw: true) {
    onVirtualTime { clock in
        let screen = SignupScreen()
        print("\(clock.stamp) viewDidLoad")
        screen.viewDidLoad(clock: clock, printUsernameEvents: false)
        clock.at(1) { screen.usernameOutlet.type("12!", clock: clock) }
        clock.at(2) { screen.usernameOutlet.type("abc", clock: clock) }
        clock.at(2.2) { screen.usernameOutlet.type("abcd", clock: clock) }
        clock.at(3) { screen.passwordOutlet.type("123", clock: clock) }
        clock.at(3.5) { screen.passwordOutlet.type("123456", clock: clock) }
        clock.at(4) { screen.repeatedPasswordOutlet.type("12345", clock: clock) }
        clock.at(4.5) { screen.repeatedPasswordOutlet.type("123456", clock: clock) }
        clock.at(5) { screen.signupOutlet.tap(clock: clock) }
        clock.at(6) { screen.signupOutlet.tap(clock: clock) }
        // 003 willMoveToParentViewController: leaving the screen unbinds everything.
        clock.at(10) {
            print("\(clock.stamp) screen closed: disposeBag = DisposeBag()")
            screen.disposeBag = DisposeBag()
        }
    }
}

// MARK: - Exercises (the answers: make chapter N=21 ARGS=--answers)

exercise(1) {
    onVirtualTime { clock in
        let validation = ValidationService(API: GitHubAPI(clock: clock))
        let username = PublishSubject<String>()
        _ = username.flatMapLatest(validation.validateUsername)
            .subscribe(onNext: { print(clock.stamp, $0.message ?? "") })
        clock.at(0) { username.onNext("ab") }
        clock.at(0.3) { username.onNext("abc") }
    }
} why: {
    Why(
        """
        Each username starts a check that sends "checking" at once and the server's answer 0.5 s later. "abc" comes at
        0.3 s, before the answer for "ab": `flatMapLatest` disposes that check, so only the answer for "abc" arrives,
        at 0.8 s.
        """,
        zh: """
            每个用户名都会开始一次检查：先立即发出“检查中”，0.5 秒后再发服务器的回答。"abc" 在 0.3 秒到来，赶在 "ab"
            的回答之前：`flatMapLatest` 释放了那次检查，所以只有 "abc" 的回答在 0.8 秒到达。
            """)
}

exercise(2) {
    let usernameValid = PublishSubject<Bool>()
    let passwordValid = PublishSubject<Bool>()
    _ = Observable.combineLatest(usernameValid, passwordValid) { $0 && $1 }
        .distinctUntilChanged()
        .subscribe(onNext: { print("enabled:", $0) })
    usernameValid.onNext(true)
    passwordValid.onNext(false)
    passwordValid.onNext(true)
    usernameValid.onNext(true)
    passwordValid.onNext(true)
} why: {
    Why(
        """
        `combineLatest` sends nothing until both sides have sent, then one value per element: false (true and false),
        true, true, true. `distinctUntilChanged` lets only the changes through: two lines.
        """,
        zh: """
            `combineLatest` 在两边都发过之前什么也不发，之后每来一个元素发一次：false（true 与 false）、true、true、
            true。`distinctUntilChanged` 只放行变化，所以只有两行。
            """)
}
