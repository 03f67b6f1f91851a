import RxCocoa
import RxSwift
import RxTest
import Signup
import XCTest

/// The screen's controls bound to the view model: typing into the fields (ControlProperty),
/// tapping the button (ControlEvent), reading what the labels and the button show.
final class SignupScreenTests: XCTestCase {
    func testFillingTheFormAndSigningUp() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let accounts = InMemoryAccounts(taken: ["ann"], latency: .milliseconds(50), scheduler: scheduler)
        var seen: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let screen = SignupScreen(accounts: accounts)
            func look(_ time: TestTime) {
                scheduler.scheduleAt(time) {
                    seen.append(
                        "\(time): [\(screen.usernameHint.text ?? "")] [\(screen.passwordHint.text ?? "")] "
                            + "[\(screen.repeatedPasswordHint.text ?? "")] enabled=\(screen.signup.isEnabled) "
                            + "\(screen.announcements.count) \(screen.announcements.last ?? "-")")
                }
            }
            look(50)
            scheduler.scheduleAt(100) { screen.username.type("ann") }
            look(500)
            scheduler.scheduleAt(600) { screen.username.type("bob") }
            scheduler.scheduleAt(700) { screen.password.type("secret") }
            scheduler.scheduleAt(800) { screen.repeatedPassword.type("secret") }
            look(1000)
            scheduler.scheduleAt(1100) { screen.signup.tap() }
            look(1110)
            look(1200)
            scheduler.scheduleAt(1300) { screen.signup.tap() }
            look(1400)
            scheduler.start()
        }
        XCTAssertEqual(
            seen,
            [
                "50: [] [] [] enabled=false 0 -",
                "500: [✗ taken] [] [] enabled=false 0 -",
                "1000: [✓ available] [✓ ok] [✓ matches] enabled=true 0 -",
                "1110: [✓ available] [✓ ok] [✓ matches] enabled=false 0 -",
                "1200: [✓ available] [✓ ok] [✓ matches] enabled=true 1 Welcome aboard!",
                // "bob" is taken by then: the second signup fails.
                "1400: [✓ available] [✓ ok] [✓ matches] enabled=true 2 That did not work, try again.",
            ])
        XCTAssertEqual(accounts.calls, ["available ann", "available bob", "signUp bob", "signUp bob"])
    }

    /// Setting a field from code is not a user edit: the view model does not hear of it.
    func testTextSetByCodeIsNotReported() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let field = TextField(text: "start")
        let texts = scheduler.createObserver(String.self)
        let subscription = field.rx.text.orEmpty.subscribe(texts)
        field.text = "set by code"
        field.type("typed")
        _ = Observable.just("bound").bind(to: field.rx.text)
        field.type(nil)
        subscription.dispose()
        XCTAssertEqual(texts.events, [.next(0, "start"), .next(0, "typed"), .next(0, "")])
        XCTAssertEqual(field.text, nil)
    }
}
