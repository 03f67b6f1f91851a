// Chapter 07 — filtering and conditions (003 "Filtering": filter, distinctUntilChanged, take;
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
// debounce, so RxSwift 6 writes `debounce`; `catchErrorJustReturn` is `catchAndReturn`.
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
                    .retry(3)
                    .startWith([]) // clears results on new search term
                    .catchAndReturn([])
            }
            .subscribe(onNext: { print("\(clock.stamp) results \($0)") })
        clock.at(0.0) { text.onNext("ab") }
        clock.at(0.1) { text.onNext("abc") }
        clock.at(1.0) { text.onNext("abc") }
        clock.at(1.6) { text.onNext("rx") }
    }
}

// MARK: - Exercises (the answers: make chapter N=07 ARGS=--answers)

exercise(1) {
    _ = Observable.of(1, 1, 2, 2, 1, 3, 3)
        .distinctUntilChanged()
        .subscribe(onNext: { print($0) })
}

exercise(2) {
    _ = Observable.of(2, 4, 5, 6)
        .take(while: { $0 % 2 == 0 })
        .subscribe { print($0) }
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
}
