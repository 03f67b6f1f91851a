import Foundation
import RxCocoa
import RxTesting
import Testing

/// RxCocoa's `bind` forms, on `Observable` and on `Infallible` (they live in RxCore, beside the
/// relays they bind to): into observers, optional observers, relays and optional relays, and
/// through binder functions.
@Suite(.serialized, .noLeaks)
struct BindTests {
    @Test func bindToObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        _ = Observable.just(1).bind(to: first, second)
        _ = Observable.just(2).bind(to: optional)
        _ = Infallible.just(3).bind(to: first)
        _ = Infallible.just(4).bind(to: optional)
        #expect(first.events == [.next(0, 1), .completed(0), .next(0, 3), .completed(0)])
        #expect(second.events == [.next(0, 1), .completed(0)])
        #expect(optional.events == [.next(0, 2), .completed(0), .next(0, 4), .completed(0)])
    }

    @Test func bindToRelaysAndOptionalRelays() {
        let behavior = BehaviorRelay(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let publish = PublishRelay<Int>()
        let optionalPublish = PublishRelay<Int?>()
        let replay = ReplayRelay<Int>.create(bufferSize: 4)
        let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 4)
        var published: [Int] = []
        var publishedOptional: [Int?] = []
        let watching = [
            publish.subscribe(onNext: { published.append($0) }),
            optionalPublish.subscribe(onNext: { publishedOptional.append($0) }),
        ]
        let numbers = Observable.of(1, 2)
        _ = numbers.bind(to: behavior)
        _ = numbers.bind(to: publish)
        _ = numbers.bind(to: replay)
        _ = Observable.of(3).bind(to: optionalBehavior, optionalBehavior)
        _ = Observable.of(3).bind(to: optionalPublish)
        _ = Observable.of(3).bind(to: optionalReplay)
        let more = Infallible.of(5, 6)
        _ = more.bind(to: behavior)
        _ = more.bind(to: publish)
        _ = more.bind(to: replay)
        _ = Infallible.of(7).bind(to: optionalBehavior)
        _ = Infallible.of(7).bind(to: optionalPublish, optionalPublish)
        _ = Infallible.of(7).bind(to: optionalReplay)
        watching.forEach { $0.dispose() }
        var replayed: [Int] = []
        var replayedOptional: [Int?] = []
        _ = replay.subscribe(onNext: { replayed.append($0) })
        _ = optionalReplay.subscribe(onNext: { replayedOptional.append($0) })
        #expect(behavior.value == 6)
        #expect(optionalBehavior.value == .some(7))
        #expect(published == [1, 2, 5, 6])
        #expect(publishedOptional == [3, 7, 7])
        #expect(replayed == [1, 2, 5, 6])
        #expect(replayedOptional == [3, 7])
    }

    @Test func bindThroughBinderFunctionsAndClosures() {
        final class Owner { var seen: [Int] = [] }
        let owner = Owner()
        var values: [Int] = []
        func offset(_ source: Observable<Int>) -> (Int) -> Disposable {
            { amount in source.subscribe(onNext: { values.append($0 + amount) }) }
        }
        func infallibleOffset(_ source: Infallible<Int>) -> (Int) -> Disposable {
            { amount in source.subscribe(onNext: { values.append($0 + amount) }) }
        }
        _ = Observable.of(1).bind(to: offset, curriedArgument: 100)
        _ = Infallible.of(2).bind(to: infallibleOffset, curriedArgument: 200)
        let doubled = Observable.of(3).bind(to: { $0.map { $0 * 2 } })
        _ = doubled.subscribe(onNext: { values.append($0) })
        _ = Observable.of(4).bind(onNext: { values.append($0) })
        _ = Infallible.of(5).bind(onNext: { values.append($0) })
        _ = Observable.of(6).bind(with: owner, onNext: { $0.seen.append($1) })
        #expect(values == [101, 202, 6, 4, 5])
        #expect(owner.seen == [6])
    }
}
