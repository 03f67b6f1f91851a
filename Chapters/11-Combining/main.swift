// Chapter 11 — combining (003 "Combining": startWith, combineLatest, zip, merge, switchLatest;
// "Aggregate": concat, reduce; "Bindings" and "整合网络请求" for combineLatest and zip in use).
import RxCore
import Workbook

example("startWith") {
    let disposeBag = DisposeBag()
    Observable.of(4, 5, 6)
        .startWith(3)
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
}

example("combineLatest 1", draw: true) {
    let disposeBag = DisposeBag()
    let intOb1 = PublishSubject<String>()
    let intOb2 = PublishSubject<Int>()
    Observable.combineLatest(intOb1, intOb2) {
        "\($0) \($1)"
    }
    .subscribe {
        print($0)
    }
    .disposed(by: disposeBag)
    intOb1.on(.next("A"))
    intOb2.on(.next(1))
    intOb1.on(.next("B"))
    intOb2.on(.next(2))
}

example("zip 1", draw: true) {
    let disposeBag = DisposeBag()
    let intOb1 = PublishSubject<String>()
    let intOb2 = PublishSubject<Int>()
    Observable.zip(intOb1, intOb2) {
        "\($0) \($1)"
    }
    .subscribe {
        print($0)
    }
    .disposed(by: disposeBag)
    intOb1.on(.next("A"))
    intOb2.on(.next(1))
    intOb1.on(.next("B"))
    intOb1.on(.next("C"))
    intOb2.on(.next(2))
}

example("merge 1", draw: true) {
    let disposeBag = DisposeBag()
    let subject1 = PublishSubject<Int>()
    let subject2 = PublishSubject<Int>()
    Observable.of(subject1, subject2)
        .merge()
        .subscribe(onNext: { int in
            print(int)
        })
        .disposed(by: disposeBag)
    subject1.on(.next(1))
    subject1.on(.next(2))
    subject2.on(.next(3))
    subject1.on(.next(4))
    subject2.on(.next(5))
}

// 003 used Variables; RxSwift 6's BehaviorRelay replaces them (chapter 06). var3 holds an
// observable, so it is an Observable<Observable<Int>> and switchLatest follows its latest.
example("switchLatest", draw: true) {
    let var1 = BehaviorRelay(value: 0)
    let var2 = BehaviorRelay(value: 200)
    // var3 is like an Observable<Observable<Int>>
    let var3 = BehaviorRelay(value: var1)
    let d =
        var3
        .switchLatest()
        .subscribe {
            print($0)
        }
    var1.accept(1)
    var1.accept(2)
    var1.accept(3)
    var1.accept(4)
    var3.accept(var2)
    var2.accept(201)
    var1.accept(5)
    var3.accept(var1)
    var2.accept(202)
    var1.accept(6)
    d.dispose()
}

example("concat", draw: true) {
    let var1 = BehaviorSubject(value: 0)
    let var2 = BehaviorSubject(value: 200)
    // var3 is like an Observable<Observable<Int>>
    let var3 = BehaviorSubject(value: var1)
    let d =
        var3
        .concat()
        .subscribe {
            print($0)
        }
    var1.on(.next(1))
    var1.on(.next(2))
    var3.on(.next(var2))
    var2.on(.next(201))
    var1.on(.next(3))
    var1.on(.completed)
    var2.on(.next(202))
    d.dispose()
}

example("reduce") {
    let disposeBag = DisposeBag()
    Observable.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
        .reduce(0, accumulator: +)
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
}

// 003 "Bindings": a greeting from two text fields, updated whenever either changes.
example("Bindings") {
    let disposeBag = DisposeBag()
    let firstName = BehaviorRelay(value: "")
    let lastName = BehaviorRelay(value: "")
    Observable.combineLatest(firstName, lastName) { $0 + " " + $1 }
        .map { "Greeting \($0)" }
        .subscribe(onNext: { print("greetingLabel.text = \($0)") })
        .disposed(by: disposeBag)
    firstName.accept("Jay")
    lastName.accept("Chou")
}

// 003 "整合网络请求": two requests in parallel, combined when both have answered.
struct User: CustomStringConvertible {
    let name: String
    var description: String { "User(\(name))" }
}

example("zip requests") {
    onVirtualTime { clock in
        let userRequest: Observable<User> = Observable<Int>.timer(.milliseconds(300), scheduler: clock.scheduler)
            .map { _ in User(name: "me") }
        let friendsRequest: Observable<[User]> = Observable<Int>.timer(.milliseconds(500), scheduler: clock.scheduler)
            .map { _ in [User(name: "p1"), User(name: "p2")] }
        _ = Observable.zip(userRequest, friendsRequest) { user, friends in
            return (user, friends)
        }
        .subscribe(
            onNext: { user, friends in
                print("\(clock.stamp) bind \(user) and \(friends) to the user interface")
            }, onCompleted: { print("\(clock.stamp) completed") })
    }
}

// MARK: - Exercises (the answers: make chapter N=11 ARGS=--answers)

exercise(1) {
    let letters = PublishSubject<String>()
    let numbers = PublishSubject<Int>()
    _ = Observable.combineLatest(letters, numbers) { "\($0)\($1)" }
        .subscribe(onNext: { print("combineLatest", $0) })
    _ = Observable.zip(letters, numbers) { "\($0)\($1)" }
        .subscribe(onNext: { print("zip", $0) })
    letters.onNext("a")
    letters.onNext("b")
    numbers.onNext(1)
    numbers.onNext(2)
    letters.onNext("c")
} why: {
    Why(
        """
        `combineLatest` waits until both sides have sent, then combines the latest of each whenever either sends: b1
        (`a` was replaced by `b` before any number came), b2, c2. `zip` pairs elements by position, first with first:
        a1, b2; `c` waits for a third number. The `combineLatest` was subscribed first, so at each number it prints
        first.
        """,
        zh: """
            `combineLatest` 要等两边都发过元素，此后任何一边再发，就拿两边各自最新的组合：b1（数字还没来，`a` 已经被
            `b` 顶替）、b2、c2。`zip` 按位置配对，第一个配第一个：a1、b2；`c` 还在等第三个数字。`combineLatest` 订阅
            在先，所以每来一个数字它都先打印。
            """)
}

exercise(2) {
    let first = PublishSubject<Int>()
    let second = BehaviorSubject(value: 10)
    _ = first.concat(second).subscribe(onNext: { print($0) })
    first.onNext(1)
    second.onNext(20)
    first.onCompleted()
    second.onNext(30)
} why: {
    Why(
        """
        `concat` subscribes to `second` only when `first` completes. A `BehaviorSubject` gives a new subscriber its
        latest element, 20 (10 was replaced before anyone listened), and then what comes after: 30.
        """,
        zh: """
            `concat` 要等 `first` 完成才订阅 `second`。`BehaviorSubject` 给新订阅者先发最新的元素 20（10 在有人订阅
            之前就被换掉了），然后是之后的 30。
            """)
}
