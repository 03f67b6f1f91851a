import Foundation
import RxCocoa
import RxSwift

/// A signup form's logic, with Drivers out: what to say under each field, whether the button
/// is enabled, whether a signup is under way, and what came of it. Nothing here subscribes;
/// the screen drives its controls with the outputs.
public final class SignupViewModel {
    public let usernameValidation: Driver<Validation>
    public let passwordValidation: Driver<Validation>
    public let repeatedPasswordValidation: Driver<Validation>
    /// Whether the signup button can be tapped.
    public let signupEnabled: Driver<Bool>
    /// Whether a signup request is running.
    public let signingUp: Driver<Bool>
    /// The result of each signup.
    public let signedUp: Driver<Bool>
    /// A message to show once per signup (an event, not a state: a Signal).
    public let announcements: Signal<String>

    public init(
        input: (
            username: Driver<String>, password: Driver<String>, repeatedPassword: Driver<String>,
            signupTaps: Signal<Void>
        ),
        accounts: AccountService
    ) {
        let rules = SignupRules(accounts: accounts)

        usernameValidation = input.username
            .debounce(.milliseconds(300))
            .distinctUntilChanged()
            .flatMapLatest { username in
                rules.validate(username: username)
                    .asDriver(onErrorJustReturn: .invalid("cannot reach the server"))
            }

        passwordValidation = input.password.map { rules.validate(password: $0) }

        repeatedPasswordValidation = Driver.combineLatest(
            input.password, input.repeatedPassword, resultSelector: rules.validate(password:repeated:))

        let activity = ActivityIndicator()
        signingUp = activity.asDriver()

        let credentials = Driver.combineLatest(input.username, input.password) { (username: $0, password: $1) }

        signedUp = input.signupTaps
            .withLatestFrom(credentials)
            .flatMapLatest { credentials in
                accounts.signUp(username: credentials.username, password: credentials.password)
                    .trackActivity(activity)
                    .asDriver(onErrorJustReturn: false)
            }

        announcements =
            signedUp
            .map { $0 ? "Welcome aboard!" : "That did not work, try again." }
            .asSignal(onErrorSignalWith: .empty())

        signupEnabled = Driver.combineLatest(
            usernameValidation, passwordValidation, repeatedPasswordValidation, activity
        ) { username, password, repeated, busy in
            username.isValid && password.isValid && repeated.isValid && !busy
        }
        .startWith(false)
        .distinctUntilChanged()
    }
}
