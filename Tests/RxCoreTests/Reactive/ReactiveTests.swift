import Dispatch
import Foundation
import RxCore
import RxTesting
import Testing

private struct Failure: Error, CustomStringConvertible {
    var description: String { "Failure" }
}

/// A small model class, as the documents' `rx` examples extend a view.
private final class Profile: ReactiveCompatible {
    var name = ""
    var age = 0
    var nickname: String?
    var history: [String] = []
}

extension Reactive where Base: Profile {
    /// A custom binder in the `where Base:` pattern: records every name it is given.
    fileprivate var renamed: Binder<String> {
        Binder(base, scheduler: CurrentThreadScheduler.instance) { profile, name in
            profile.name = name
            profile.history.append(name)
        }
    }

    /// A computed reactive property.
    fileprivate var greeting: Observable<String> {
        .just("hello \(base.name)")
    }
}

@Suite(.serialized, .noLeaks)
struct ReactiveNamespaceTests {
    @Test func whereBaseExtensionsAreReachableThroughRx() {
        let profile = Profile()
        let d = Observable.of("ann", "bob").bind(to: profile.rx.renamed)
        d.dispose()
        #expect(profile.history == ["ann", "bob"])
        var greetings: [String] = []
        _ = profile.rx.greeting.subscribe(onNext: { greetings.append($0) })
        #expect(greetings == ["hello bob"])
        #expect(Profile.rx == Reactive<Profile>.self)
    }

    /// `profile.rx.age` is a `Binder` made by dynamic member lookup; it delivers on the main
    /// scheduler, so the test waits for the main queue.
    @Test func dynamicMemberLookupGivesBindersForWritableProperties() async {
        let baseline = Resources.snapshot()
        defer { settle(to: baseline) }
        let profile = Profile()
        let d = Observable.of(41, 42).bind(to: profile.rx.age)
        let n = Observable.just("n").bind(to: profile.rx.nickname)
        let ages = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            // Binder work is queued on the main queue in order: this runs after it.
            DispatchQueue.main.async { continuation.resume(returning: profile.age) }
        }
        d.dispose()
        n.dispose()
        #expect(ages == 42)
        #expect(profile.nickname == "n")
    }

    @Test func binderHoldsItsTargetWeakly() {
        var profile: Profile? = Profile()
        weak var weakProfile = profile
        let subject = PublishSubject<String>()
        let binder = Binder(profile!, scheduler: CurrentThreadScheduler.instance) { $0.name = $1 }
        let d = subject.bind(to: binder)
        subject.onNext("first")
        #expect(profile?.name == "first")
        profile = nil
        #expect(weakProfile == nil)
        subject.onNext("after") // the target is gone: nothing happens, nothing crashes
        subject.onCompleted() // completion is ignored by binders
        d.dispose()
    }

    @Test func binderSchedulesOnItsScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let profile = Profile()
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b")])
        var seenAt: [Int] = []
        let binder = Binder(profile, scheduler: scheduler) { profile, name in
            profile.name = name
            seenAt.append(scheduler.clock)
        }
        let d = xs.bind(to: binder)
        scheduler.start()
        d.dispose()
        #expect(profile.name == "b")
        #expect(seenAt == [211, 221])
    }
}

@Suite(.serialized, .noLeaks)
struct BindTests {
    @Test func bindToSeveralObserversAndOptionalObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let d1 = xs.bind(to: a, b)
        let d2 = xs.bind(to: optional)
        scheduler.start()
        d1.dispose(); d2.dispose()
        #expect(a.events == [.next(210, 1), .completed(220)])
        #expect(b.events == a.events)
        #expect(optional.events == [.next(210, Optional(1)), .completed(220)])
    }

    @Test func bindToRelays() {
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay<Int>(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let optionalPublish = PublishRelay<Int?>()
        var published: [Int] = []
        var optionals: [Int?] = []
        let p = publish.subscribe(onNext: { published.append($0) })
        let o = optionalPublish.subscribe(onNext: { optionals.append($0) })
        let d = Observable.of(1, 2, 3).bind(to: publish)
        let e = Observable.of(4, 5).bind(to: behavior)
        let f = Observable.of(6).bind(to: optionalBehavior)
        let g = Observable.of(7).bind(to: optionalPublish)
        #expect(published == [1, 2, 3])
        #expect(behavior.value == 5)
        #expect(optionalBehavior.value == 6)
        #expect(optionals == [7])
        for disposable in [p, o, d, e, f, g] { disposable.dispose() }
    }

    @Test func bindOnNextAndCurriedBinders() {
        var values: [Int] = []
        _ = Observable.of(1, 2).bind(onNext: { values.append($0) })
        #expect(values == [1, 2])
        let doubled = Observable.of(3).bind(to: { source in source.map { $0 * 2 } })
        _ = doubled.subscribe(onNext: { values.append($0) })
        func add(_ source: Observable<Int>) -> (Int) -> Disposable {
            { offset in source.subscribe(onNext: { values.append($0 + offset) }) }
        }
        _ = Observable.of(1).bind(to: add, curriedArgument: 100)
        #expect(values == [1, 2, 6, 101])
    }
}
