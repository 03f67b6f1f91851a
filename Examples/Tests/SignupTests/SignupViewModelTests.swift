import RxCocoa
import RxSwift
import RxTest
import Signup
import XCTest

/// The view model on virtual time: inputs are hot observables turned into Drivers, outputs are
/// recorded. `SharingScheduler.mock` makes the Drivers deliver on the test scheduler (one tick
/// after their source, as on the main queue) and run their timers there.
final class SignupViewModelTests: XCTestCase {
    /// One tick is a millisecond.
    private var scheduler: TestScheduler!
    private var accounts: InMemoryAccounts!
    private var disposeBag: DisposeBag!

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        accounts = InMemoryAccounts(taken: ["ann"], latency: .milliseconds(50), scheduler: scheduler)
        disposeBag = DisposeBag()
    }

    override func tearDown() {
        disposeBag = nil
        super.tearDown()
    }

    private func driver(_ events: [Recorded<Event<String>>]) -> Driver<String> {
        scheduler.createHotObservable(events).asDriver(onErrorJustReturn: "")
    }

    private func makeViewModel(
        username: [Recorded<Event<String>>] = [], password: [Recorded<Event<String>>] = [],
        repeated: [Recorded<Event<String>>] = [], taps: [Recorded<Event<Void>>] = []
    ) -> SignupViewModel {
        SignupViewModel(
            input: (
                username: driver(username), password: driver(password), repeatedPassword: driver(repeated),
                signupTaps: scheduler.createHotObservable(taps).asSignal(onErrorJustReturn: ())
            ),
            accounts: accounts)
    }

    /// The name is checked once typing pauses for 300 ms: "checking" at once, the server's
    /// answer 50 ms later; a name with a space needs no server.
    func testUsernameIsCheckedWhenTypingPauses() {
        let validations = scheduler.createObserver(Validation.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = makeViewModel(username: [
                .next(100, "b"), .next(200, "bo"), .next(300, "bob"), .next(1000, "ann"), .next(1500, "bad name"),
            ])
            viewModel.usernameValidation.drive(validations).disposed(by: disposeBag)
            scheduler.start()
        }
        XCTAssertEqual(
            validations.events,
            [
                .next(602, .checking), .next(652, .valid("available")),
                .next(1302, .checking), .next(1352, .invalid("taken")),
                .next(1802, .invalid("letters and digits only")),
            ])
        XCTAssertEqual(accounts.calls, ["available bob", "available ann"])
    }

    func testPasswordsAreCheckedAsTheyAreTyped() {
        let password = scheduler.createObserver(Validation.self)
        let repeated = scheduler.createObserver(Validation.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = makeViewModel(
                password: [.next(100, "abc"), .next(200, "abcdef")],
                repeated: [.next(150, "abc"), .next(300, "abcdef")])
            viewModel.passwordValidation.drive(password).disposed(by: disposeBag)
            viewModel.repeatedPasswordValidation.drive(repeated).disposed(by: disposeBag)
            scheduler.start()
        }
        XCTAssertEqual(
            password.events, [.next(101, .invalid("at least 6 characters")), .next(201, .valid("ok"))])
        XCTAssertEqual(
            repeated.events,
            [.next(151, .valid("matches")), .next(201, .invalid("does not match")), .next(301, .valid("matches"))])
    }

    /// The button enables once all three fields are valid, disables while the request runs,
    /// and the result comes out as a state (`signedUp`) and as a one-off message.
    func testSigningUp() {
        let enabled = scheduler.createObserver(Bool.self)
        let signingUp = scheduler.createObserver(Bool.self)
        let signedUp = scheduler.createObserver(Bool.self)
        let announcements = scheduler.createObserver(String.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = makeViewModel(
                username: [.next(100, "bob")], password: [.next(200, "secret")],
                repeated: [.next(300, "secret")], taps: [.next(1000, ())])
            viewModel.signupEnabled.drive(enabled).disposed(by: disposeBag)
            viewModel.signingUp.drive(signingUp).disposed(by: disposeBag)
            viewModel.signedUp.drive(signedUp).disposed(by: disposeBag)
            viewModel.announcements.emit(to: announcements).disposed(by: disposeBag)
            scheduler.start()
        }
        // The tap reaches the view model at 1001 (a Signal delivers a tick after its source); the
        // indicator's Driver says so at 1002; the server answers 50 ms later.
        XCTAssertEqual(
            enabled.events, [.next(0, false), .next(452, true), .next(1002, false), .next(1053, true)])
        XCTAssertEqual(signingUp.events, [.next(1, false), .next(1002, true), .next(1053, false)])
        XCTAssertEqual(signedUp.events, [.next(1052, true)])
        // A Signal made from the Driver hops once more.
        XCTAssertEqual(announcements.events, [.next(1053, "Welcome aboard!")])
        XCTAssertEqual(accounts.calls, ["available bob", "signUp bob"])
    }

    /// Two subscribers to an output share one computation: the server is asked once.
    func testOutputsAreShared() {
        let first = scheduler.createObserver(Validation.self)
        let second = scheduler.createObserver(Validation.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = makeViewModel(username: [.next(100, "bob")])
            viewModel.usernameValidation.drive(first).disposed(by: disposeBag)
            scheduler.scheduleAt(500) { viewModel.usernameValidation.drive(second).disposed(by: self.disposeBag) }
            scheduler.start()
        }
        XCTAssertEqual(first.events, [.next(402, .checking), .next(452, .valid("available"))])
        // A Driver replays its latest element to a late subscriber.
        XCTAssertEqual(second.events, [.next(500, .valid("available"))])
        XCTAssertEqual(accounts.calls, ["available bob"])
    }
}
