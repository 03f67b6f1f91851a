import Foundation
import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct InfallibleTests {
    private let failing: [Recorded<Event<Int>>] = [
        .next(300, 9), .next(340, 13), .error(390, opTestError), .next(480, 320),
    ]

    // MARK: - Conversions

    @Test func onErrorJustReturnEndsWithTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(failing)
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 600) }
        #expect(res.events == [.next(300, 9), .next(340, 13), .next(390, 600), .completed(390)])
        #expect(xs.subscriptions == [Subscription(200, 390)])
    }

    @Test func onErrorFallbackToContinuesWithTheFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(failing)
        let res = scheduler.start { xs.asInfallible(onErrorFallbackTo: Infallible.of(1, 2)) }
        #expect(res.events == [.next(300, 9), .next(340, 13), .next(390, 1), .next(390, 2), .completed(390)])
    }

    @Test func onErrorRecoverSubscribesToWhatTheRecoveryMakes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(failing)
        let ys = scheduler.createHotObservable([.next(500, 25), .next(600, 33), .completed(620)])
        var errors: [String] = []
        let res = scheduler.start {
            xs.asInfallible(onErrorRecover: { error in
                errors.append("\(error)")
                return ys.asInfallible(onErrorJustReturn: -1)
            })
        }
        #expect(res.events == [.next(300, 9), .next(340, 13), .next(500, 25), .next(600, 33), .completed(620)])
        #expect(errors == ["OpTestError(op)"])
        #expect(ys.subscriptions == [Subscription(390, 620)])
    }

    @Test func relaysAreInfallible() {
        let scheduler = TestScheduler(initialClock: 0)
        let behavior = BehaviorRelay(value: 0)
        let publish = PublishRelay<Int>()
        let replay = ReplayRelay<Int>.create(bufferSize: 2)
        replay.accept(-2)
        replay.accept(-1)
        let input = scheduler.createHotObservable([.next(500, 25), .next(600, 33)])
        let behaviorObserver = scheduler.createObserver(Int.self)
        let publishObserver = scheduler.createObserver(Int.self)
        let replayObserver = scheduler.createObserver(Int.self)
        let bag = DisposeBag {
            behavior.asInfallible().bind(to: behaviorObserver)
            publish.asInfallible().bind(to: publishObserver)
            replay.asInfallible().bind(to: replayObserver)
            input.bind(to: behavior)
            input.bind(to: publish)
            input.bind(to: replay)
        }
        scheduler.start()
        #expect(behaviorObserver.events == [.next(0, 0), .next(500, 25), .next(600, 33)])
        #expect(publishObserver.events == [.next(500, 25), .next(600, 33)])
        #expect(replayObserver.events == [.next(0, -2), .next(0, -1), .next(500, 25), .next(600, 33)])
        _ = bag
    }

    // MARK: - Creation

    @Test func createStopsAtCompletedAndAtDisposal() {
        var send: ((InfallibleEvent<Int>) -> Void)!
        let infallible = Infallible<Int>.create { observer in
            send = observer
            return Disposables.create()
        }
        var elements: [Int] = []
        var completions = 0
        let subscription = infallible.subscribe(onNext: { elements.append($0) }, onCompleted: { completions += 1 })
        send(.next(0))
        send(.completed)
        send(.next(1))
        #expect(elements == [0])
        #expect(completions == 1)
        subscription.dispose()

        let second = infallible.subscribe(onNext: { elements.append($0) })
        send(.next(2))
        second.dispose()
        send(.next(3))
        #expect(elements == [0, 2])
        send = nil
    }

    @Test func creationOperators() {
        #expect(recorded { _ in Infallible.just(1) } == [.next(200, 1), .completed(200)])
        #expect(recorded { _ in Infallible.of(1, 2) } == [.next(200, 1), .next(200, 2), .completed(200)])
        #expect(recorded { _ in Infallible.from([3]) } == [.next(200, 3), .completed(200)])
        #expect(recorded { _ in Infallible.from(1...2) } == [.next(200, 1), .next(200, 2), .completed(200)])
        #expect(recorded { _ in Infallible<Int>.empty() } == [.completed(200)])
        #expect(recorded { _ in Infallible<Int>.never() } == [])
        var made = 0
        let deferred = Infallible.deferred {
            made += 1
            return Infallible.just(made)
        }
        #expect(recorded { _ in deferred } == [.next(200, 1), .completed(200)])
        #expect(recorded { _ in deferred } == [.next(200, 2), .completed(200)])
    }

    @Test func justOnASchedulerWaitsForIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Infallible.just(1, scheduler: scheduler) }
        #expect(res.events == [.next(201, 1), .completed(202)])
    }

    // MARK: - Subscribing

    @Test func subscribeWithAnObjectStopsWhenItIsGone() {
        final class Screen {}
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 0), .next(20, 1), .completed(50)])
        var screen: Screen? = Screen()
        var log: [String] = []
        let subscription = xs.asInfallible(onErrorJustReturn: -1).subscribe(
            with: screen!, onNext: { _, value in log.append("next \(value)") },
            onCompleted: { _ in log.append("completed") }, onDisposed: { _ in log.append("disposed") })
        scheduler.scheduleAt(15) { screen = nil }
        scheduler.start()
        #expect(log == ["next 0"])
        subscription.dispose()
    }

    @Test func theEventClosureSeesInfallibleEvents() {
        var events: [String] = []
        _ = Infallible.of(1, 2).subscribe { event in
            switch event {
            case .next(let value): events.append("next \(value)")
            case .completed: events.append("completed")
            }
        }
        #expect(events == ["next 1", "next 2", "completed"])
        #expect(InfallibleEvent.next(3).event == .next(3))
        #expect(InfallibleEvent<Int>.completed.event == .completed)
    }

    // MARK: - Operators

    /// `[210: 1, 220: 2, 230: 2, 300: completed]`, as an `Infallible`.
    private func ones(_ scheduler: TestScheduler) -> Infallible<Int> {
        scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 2), .completed(300)])
            .asInfallible(onErrorJustReturn: 0)
    }

    @Test func transformingOperators() {
        #expect(
            recorded { ones($0).map { $0 * 10 } } == [.next(210, 10), .next(220, 20), .next(230, 20), .completed(300)])
        #expect(recorded { ones($0).filter { $0 > 1 } } == [.next(220, 2), .next(230, 2), .completed(300)])
        #expect(
            recorded { ones($0).compactMap { $0 == 1 ? nil : "\($0)" } }
                == [.next(220, "2"), .next(230, "2"), .completed(300)])
        #expect(
            recorded { ones($0).scan(0, accumulator: +) } == [
                .next(210, 1), .next(220, 3), .next(230, 5), .completed(300),
            ])
        #expect(
            recorded { ones($0).scan(into: [Int]()) { $0.append($1) } }
                == [.next(210, [1]), .next(220, [1, 2]), .next(230, [1, 2, 2]), .completed(300)])
        #expect(
            recorded { ones($0).startWith(0) }
                == [.next(200, 0), .next(210, 1), .next(220, 2), .next(230, 2), .completed(300)])
        #expect(recorded { ones($0).distinctUntilChanged() } == [.next(210, 1), .next(220, 2), .completed(300)])
        #expect(
            recorded { ones($0).distinctUntilChanged { $0 % 2 } } == [.next(210, 1), .next(220, 2), .completed(300)])
        #expect(
            recorded { ones($0).distinctUntilChanged { $0 == $1 } } == [.next(210, 1), .next(220, 2), .completed(300)])
        #expect(recorded { ones($0).distinctUntilChanged(at: \.bitWidth) } == [.next(210, 1), .completed(300)])
    }

    @Test func takingAndSkipping() {
        #expect(recorded { ones($0).take(2) } == [.next(210, 1), .next(220, 2), .completed(220)])
        #expect(recorded { ones($0).take(while: { $0 < 2 }) } == [.next(210, 1), .completed(220)])
        #expect(
            recorded { ones($0).take(until: { $0 == 2 }, behavior: .inclusive) }
                == [.next(210, 1), .next(220, 2), .completed(220)])
        #expect(recorded { ones($0).skip(while: { $0 < 2 }) } == [.next(220, 2), .next(230, 2), .completed(300)])
        #expect(
            recorded { ones($0).take(for: .seconds(25), scheduler: $0) } == [
                .next(210, 1), .next(220, 2), .completed(225),
            ])
    }

    @Test func timeOperators() {
        func bursts(_ scheduler: TestScheduler) -> Infallible<Int> {
            scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
                .asInfallible(onErrorJustReturn: 0)
        }
        #expect(
            recorded { bursts($0).debounce(.seconds(10), scheduler: $0) }
                == [.next(225, 2), .next(250, 3), .completed(300)])
        #expect(
            recorded { bursts($0).throttle(.seconds(10), latest: false, scheduler: $0) }
                == [.next(210, 1), .next(240, 3), .completed(300)])
    }

    @Test func flatteningOperators() {
        func source(_ scheduler: TestScheduler) -> Infallible<Int> {
            scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
                .asInfallible(onErrorJustReturn: 0)
        }
        func inner(_ scheduler: TestScheduler) -> (Int) -> TestableObservable<Int> {
            { value in scheduler.createColdObservable([.next(5, value * 10), .next(15, value * 100), .completed(20)]) }
        }
        #expect(
            recorded { source($0).flatMap(inner($0)) }
                == [.next(215, 10), .next(225, 100), .next(225, 20), .next(235, 200), .completed(300)])
        #expect(
            recorded { source($0).flatMapLatest(inner($0)) }
                == [.next(215, 10), .next(225, 20), .next(235, 200), .completed(300)])
        #expect(recorded { source($0).flatMapFirst(inner($0)) } == [.next(215, 10), .next(225, 100), .completed(300)])
        #expect(
            recorded { source($0).concatMap(inner($0)) }
                == [.next(215, 10), .next(225, 100), .next(235, 20), .next(245, 200), .completed(300)])
    }

    @Test func combiningOperators() {
        func a(_ scheduler: TestScheduler) -> Infallible<Int> {
            scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(300)]).asInfallible(
                onErrorJustReturn: 0)
        }
        func b(_ scheduler: TestScheduler) -> Infallible<Int> {
            scheduler.createHotObservable([.next(220, 2), .next(240, 4), .completed(310)]).asInfallible(
                onErrorJustReturn: 0)
        }
        let concatenated: [Recorded<Event<Int>>] = [.next(210, 1), .next(230, 3), .completed(310)]
        #expect(recorded { a($0).concat(b($0)) } == concatenated)
        #expect(recorded { Infallible.concat([a($0), b($0)]) } == concatenated)
        #expect(recorded { Infallible.concat(a($0), b($0)) } == concatenated)
        let merged: [Recorded<Event<Int>>] = [
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(310),
        ]
        #expect(recorded { Infallible.merge(a($0), b($0)) } == merged)
        #expect(recorded { Infallible.merge([a($0), b($0)]) } == merged)
        #expect(
            recorded { Infallible.merge(CollectionOfOne(a($0))) } == [.next(210, 1), .next(230, 3), .completed(300)])
        #expect(recorded { a($0).withLatestFrom(b($0)) } == [.next(230, 2), .completed(300)])
        #expect(recorded { a($0).withLatestFrom(b($0)) { $0 * 10 + $1 } } == [.next(230, 32), .completed(300)])
        #expect(
            recorded { Infallible.combineLatest(a($0), b($0)) { $0 * 10 + $1 } }
                == [.next(220, 12), .next(230, 32), .next(240, 34), .completed(310)])
        #expect(
            recorded { Infallible.combineLatest([a($0), b($0)]) }
                == [.next(220, [1, 2]), .next(230, [3, 2]), .next(240, [3, 4]), .completed(310)])
        #expect(
            recorded { Infallible.zip(a($0), b($0)).map { $0 * 10 + $1 } }
                == [.next(220, 12), .next(240, 34), .completed(310)])
        // Three sources: the third completes at 225, so 3 (230) and 4 (240) can never be paired,
        // yet the zip waits for every completion (310), as Observable's does.
        func c(_ scheduler: TestScheduler) -> Infallible<Int> {
            scheduler.createHotObservable([.next(215, 5), .completed(225)]).asInfallible(onErrorJustReturn: 0)
        }
        #expect(
            recorded { Infallible.zip(a($0), b($0), c($0)) { $0 * 100 + $1 * 10 + $2 } }
                == [.next(220, 125), .completed(310)])
        #expect(
            recorded { s in Infallible.combineLatest(a(s), b(s), a(s), b(s), a(s), b(s), a(s), b(s)) }.map(\.time)
                == [220, 230, 230, 230, 230, 240, 240, 240, 240, 310])
        #expect(recorded { a($0).take(until: b($0)) } == [.next(210, 1), .completed(220)])
        #expect(recorded { a($0).skip(until: b($0).asObservable()) } == [.next(230, 3), .completed(300)])
    }

    @Test func shareRunsTheSourceOnce() {
        var subscriptions = 0
        let source = Infallible<Int>.deferred {
            subscriptions += 1
            return .of(1, 2)
        }.share(replay: 1, scope: .forever)
        var first: [Int] = []
        var second: [Int] = []
        _ = source.subscribe(onNext: { first.append($0) })
        _ = source.subscribe(onNext: { second.append($0) })
        #expect(subscriptions == 1)
        #expect(first == [1, 2])
        #expect(second == [2])
    }

    @Test func doAndWithUnretained() {
        final class Owner { let name = "owner" }
        let owner = Owner()
        var log: [String] = []
        _ = Infallible.of(1, 2)
            .do(onNext: { log.append("do \($0)") }, onCompleted: { log.append("do completed") })
            .withUnretained(owner)
            .subscribe(onNext: { object, value in log.append("\(object.name) \(value)") })
        #expect(log == ["do 1", "owner 1", "do 2", "owner 2", "do completed"])
    }

    @Test func bindForms() {
        let relay = BehaviorRelay<Int>(value: 0)
        let optionals = PublishSubject<Int?>()
        var received: [Int?] = []
        _ = optionals.subscribe(onNext: { received.append($0) })
        _ = Infallible.of(1, 2).bind(to: relay)
        _ = Infallible.of(3).bind(to: optionals.asObserver())
        var seen: [Int] = []
        _ = Infallible.of(4).bind(onNext: { seen.append($0) })
        let viaFunction = Infallible.of(5).bind(to: { $0.subscribe(onNext: { seen.append($0) }) })
        #expect(relay.value == 2)
        #expect(received == [3])
        #expect(seen == [4, 5])
        viaFunction.dispose()
    }
}
