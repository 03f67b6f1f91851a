// Chapter 12 — filtering and conditions (003 "Filtering": filter, distinctUntilChanged, take;
// "Conditional": takeUntil, takeWhile; "sample" and "sampleLatest" of the GitHub signup part;
// throttle and distinctUntilChanged of "Transient State").
import RxCore
import Workbook

example("filter", draw: true) {
    let disposeBag = DisposeBag()
    Observable.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
        .filter {
            $0 % 2 == 0
        }
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
}

example("distinctUntilChanged") {
    let disposeBag = DisposeBag()
    Observable.of(1, 2, 3, 1, 1, 4)
        .distinctUntilChanged()
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
}

example("take") {
    let disposeBag = DisposeBag()
    Observable.of(1, 2, 3, 4, 5, 6)
        .take(3)
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
}

// skip is take's mirror: it drops the first n elements (001's textField.rx.text.skip(1) drops the
// text a text field sends when it is subscribed).
example("skip") {
    let disposeBag = DisposeBag()
    Observable.of(1, 2, 3, 4, 5, 6)
        .skip(3)
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
}

// RxSwift 6 spells takeUntil as take(until:).
example("takeUntil", draw: true) {
    let disposeBag = DisposeBag()
    let originalSequence = PublishSubject<Int>()
    let whenThisSendsNextWorldStops = PublishSubject<Int>()
    originalSequence
        .take(until: whenThisSendsNextWorldStops)
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
    originalSequence.on(.next(1))
    originalSequence.on(.next(2))
    whenThisSendsNextWorldStops.on(.next(1))
    originalSequence.on(.next(3))
}

// RxSwift 6 spells takeWhile as take(while:).
example("takeWhile") {
    let disposeBag = DisposeBag()
    let sequence = PublishSubject<Int>()
    sequence
        .take(while: { int in
            int < 2
        })
        .subscribe {
            print($0)
        }
        .disposed(by: disposeBag)
    sequence.on(.next(1))
    sequence.on(.next(2))
    sequence.on(.next(3))
}

// 003: sample — on each sampler event, the latest element *if a new one came* since the last
// sample.
example("sample", draw: true) {
    let s = PublishSubject<Int>()
    let o = PublishSubject<String>()
    let subscription =
        s
        .sample(o)
        .subscribe { event in
            print(event)
        }
    s.on(.next(1))
    o.on(.next("A"))
    s.on(.next(2))
    s.on(.next(3))
    o.on(.next("B"))
    o.on(.next("C"))
    subscription.dispose()
}

// 003: sampleLatest — the latest element on *every* sampler event. RxSwift 6 has no
// sampleLatest; the sampler's withLatestFrom does exactly this.
example("sampleLatest") {
    let s = PublishSubject<Int>()
    let o = PublishSubject<String>()
    let subscription =
        o
        .withLatestFrom(s)
        .subscribe { event in
            print(event)
        }
    s.on(.next(1))
    o.on(.next("1"))
    s.on(.next(2))
    s.on(.next(3))
    o.on(.next("2"))
    o.on(.next("3"))
    subscription.dispose()
}

// 003 "Transient State": a search field typed into at 0, 0.1, 0.2, 0.7 and 0.8 s (virtual
// time). throttle lets the first through and then at most one per 0.3 s, the latest;
// debounce waits for 0.3 s of quiet and sends only the last.
func typeIntoSearchField(_ body: (Observable<String>, VirtualClock) -> Observable<String>) {
    onVirtualTime { clock in
        let text = PublishSubject<String>()
        _ = body(text.asObservable(), clock)
            .subscribe(onNext: { print("\(clock.stamp) search \"\($0)\"") })
        for (time, typed) in [(0.0, "m"), (0.1, "mo"), (0.2, "moj"), (0.7, "moji"), (0.8, "mojito")] {
            clock.at(time) {
                print("\(clock.stamp) typed \"\(typed)\""); text.onNext(typed)
            }
        }
    }
}

example("throttle", draw: true) {
    typeIntoSearchField { text, clock in
        text.throttle(.milliseconds(300), scheduler: clock.scheduler)
    }
}

example("debounce", draw: true) {
    typeIntoSearchField { text, clock in
        text.debounce(.milliseconds(300), scheduler: clock.scheduler)
    }
}

// 003 "Transient State": throttle → distinctUntilChanged → flatMapLatest { search.retry(3)
// .startWith([]).catchErrorJustReturn([]) }. 003's `throttle` is RxSwift 2's, which was a
// debounce, so RxSwift 6 writes `debounce`. The requests here never fail, so 003's retry(3) and
// catchErrorJustReturn([]) are left to chapter 15, which puts them in this very place.
// Retyping the same text sends no new request, and a new term cancels the running one.
example("search field") {
    onVirtualTime { clock in
        let text = PublishSubject<String>()
        _ =
            text
            .debounce(.milliseconds(300), scheduler: clock.scheduler)
            .distinctUntilChanged()
            .flatMapLatest { query -> Observable<[String]> in
                print("\(clock.stamp) request \"\(query)\"")
                return Observable<Int>.timer(.milliseconds(200), scheduler: clock.scheduler)
                    .map { _ in ["\(query) 1", "\(query) 2"] }
                    .startWith([]) // clears results on new search term
            }
            .subscribe(onNext: { print("\(clock.stamp) results \($0)") })
        clock.at(0.0) { text.onNext("ab") }
        clock.at(0.1) { text.onNext("abc") }
        clock.at(1.0) { text.onNext("abc") }
        clock.at(1.6) { text.onNext("rx") }
    }
}

// MARK: - Exercises (the answers: make chapter N=12 ARGS=--answers)

exercise(1) {
    _ = Observable.of(1, 1, 2, 2, 1, 3, 3)
        .distinctUntilChanged()
        .subscribe(onNext: { print($0) })
} why: {
    Why(
        """
        `distinctUntilChanged` compares each element with the one just before it only. Repeats in a row are dropped,
        but the 1 after the 2s differs from its neighbour and passes.
        """,
        zh: """
            `distinctUntilChanged` 只拿每个元素和紧挨着的前一个比。连着重复的被丢掉，但排在 2 后面的那个 1 和它的前
            一个不同，照样通过。
            """)
}

exercise(2) {
    _ = Observable.of(2, 4, 5, 6)
        .take(while: { $0 % 2 == 0 })
        .subscribe { print($0) }
} why: {
    Why(
        """
        `take(while:)` passes elements while the condition holds and completes at the first one that fails: 5 is not
        sent, and neither is the 6 after it.
        """,
        zh: """
            `take(while:)` 在条件成立时放行元素，碰到第一个不满足的就完成：5 不发，后面的 6 也不会发了。
            """)
}

exercise(3) {
    onVirtualTime { clock in
        let taps = PublishSubject<Int>()
        _ = taps.throttle(.milliseconds(500), scheduler: clock.scheduler)
            .subscribe(onNext: { print(clock.stamp, $0) })
        clock.at(0) { taps.onNext(1) }
        clock.at(0.2) { taps.onNext(2) }
        clock.at(0.4) { taps.onNext(3) }
        clock.at(0.9) { taps.onNext(4) }
    }
} why: {
    Why(
        """
        RxSwift 6's `throttle` (with `latest: true`) sends the first tap at once and opens a 0.5 s window; at the
        window's end it sends the latest tap that came in it, 3 (2 was replaced). Sending 3 opens the next window, and
        4, at 0.9 s, waits for its end, 1.0 s.
        """,
        zh: """
            RxSwift 6 的 `throttle`（`latest: true`）立刻放行第一次点击，同时开一个 0.5 秒的窗口；窗口结束时，发出窗
            口里最新的那次点击 3（2 被 3 顶替了）。发出 3 又开了下一个窗口，0.9 秒的 4 落在里面，要等到窗口结束的
            1.0 秒才发。
            """)
}
