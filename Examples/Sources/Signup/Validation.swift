import Foundation
import RxSwift

/// What the form says about one field.
public enum Validation: Equatable {
    /// Nothing typed yet.
    case empty
    /// A check is under way (the server is asked whether a name is free).
    case checking
    /// Fine, with a word for the user.
    case valid(String)
    /// Not acceptable, and why.
    case invalid(String)

    public var isValid: Bool {
        if case .valid = self { return true }
        return false
    }
}

/// The server side of signing up.
public protocol AccountService {
    /// Whether `username` is still free.
    func isAvailable(_ username: String) -> Observable<Bool>
    /// Creates the account; `true` when it was made.
    func signUp(username: String, password: String) -> Observable<Bool>
}

/// The rules of the form. Usernames are checked with the server; passwords locally.
public struct SignupRules {
    public static let minimumPasswordLength = 6

    let accounts: AccountService

    public init(accounts: AccountService) {
        self.accounts = accounts
    }

    public func validate(username: String) -> Observable<Validation> {
        if username.isEmpty { return .just(.empty) }
        if username.unicodeScalars.contains(where: { !CharacterSet.alphanumerics.contains($0) }) {
            return .just(.invalid("letters and digits only"))
        }
        return accounts.isAvailable(username)
            .map { $0 ? Validation.valid("available") : .invalid("taken") }
            .startWith(.checking)
    }

    public func validate(password: String) -> Validation {
        if password.isEmpty { return .empty }
        if password.count < Self.minimumPasswordLength {
            return .invalid("at least \(Self.minimumPasswordLength) characters")
        }
        return .valid("ok")
    }

    public func validate(password: String, repeated: String) -> Validation {
        if repeated.isEmpty { return .empty }
        return repeated == password ? .valid("matches") : .invalid("does not match")
    }
}

/// An account service that answers from memory after `latency` on `scheduler`: the demo's and
/// the tests' stand-in for a web service.
public final class InMemoryAccounts: AccountService {
    public private(set) var takenNames: Set<String>
    /// Every call made, in order (`available bob`, `signUp bob`).
    public private(set) var calls: [String] = []
    let latency: RxTimeInterval
    let scheduler: SchedulerType

    public init(taken: Set<String>, latency: RxTimeInterval, scheduler: SchedulerType) {
        self.takenNames = taken
        self.latency = latency
        self.scheduler = scheduler
    }

    public func isAvailable(_ username: String) -> Observable<Bool> {
        Observable.deferred { [unowned self] in
            calls.append("available \(username)")
            return Observable.just(!takenNames.contains(username)).delay(latency, scheduler: scheduler)
        }
    }

    public func signUp(username: String, password: String) -> Observable<Bool> {
        Observable.deferred { [unowned self] in
            calls.append("signUp \(username)")
            let created = !takenNames.contains(username)
            if created { takenNames.insert(username) }
            return Observable.just(created).delay(latency, scheduler: scheduler)
        }
    }
}
