import RxCore
import RxTesting
import Testing

/// Subscribes `observer` to `source` at `subscribe` and disposes at `dispose`, on `scheduler`.
private func window<Source: ObservableType>(
    _ scheduler: TestScheduler, _ source: Source, _ subscribe: TestTime, _ dispose: TestTime
) -> TestableObserver<Source.Element> {
    let observer = scheduler.createObserver(Source.Element.self)
    var subscription: Disposable?
    scheduler.scheduleAt(subscribe) { subscription = source.subscribe(observer) }
    scheduler.scheduleAt(dispose) {
        subscription?.dispose(); subscription = nil
    }
    return observer
}

@Suite(.serialized, .noLeaks)
struct SubjectTests {
    @Test func publishSendsOnlyWhatComesAfterSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(230) { subject.onNext(2) }
        scheduler.scheduleAt(250) { subject.onNext(3) }
        scheduler.scheduleAt(270) { subject.onCompleted() }
        scheduler.scheduleAt(280) { subject.onNext(4) }
        let early = window(scheduler, subject, 200, 1000)
        let middle = window(scheduler, subject, 220, 240)
        let late = window(scheduler, subject, 300, 1000)
        scheduler.start()
        #expect(early.events == [.next(210, 1), .next(230, 2), .next(250, 3), .completed(270)])
        #expect(middle.events == [.next(230, 2)])
        #expect(late.events == [.completed(300)], "a late subscriber gets only the stop event")
    }

    @Test func publishHasObserversAndDispose() {
        let subject = PublishSubject<Int>()
        #expect(!subject.hasObservers)
        let subscription = subject.subscribe()
        #expect(subject.hasObservers)
        subscription.dispose()
        #expect(!subject.hasObservers)
        subject.dispose()
        #expect(subject.isDisposed)
        let log = EventLog<Int>()
        _ = subject.subscribe(log)
        #expect(log.events.count == 1)
        if case .error(RxError.disposed)? = log.events.first {
        } else {
            Issue.record("expected RxError.disposed, got \(log.events)")
        }
    }

    @Test func behaviorStartsWithTheLatestValue() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 0)
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(230) { subject.onNext(2) }
        scheduler.scheduleAt(260) { subject.onError(TestError()) }
        let first = window(scheduler, subject, 200, 1000)
        let second = window(scheduler, subject, 220, 1000)
        let late = window(scheduler, subject, 300, 1000)
        scheduler.start()
        #expect(first.events == [.next(200, 0), .next(210, 1), .next(230, 2), .error(260, TestError())])
        #expect(second.events == [.next(220, 1), .next(230, 2), .error(260, TestError())])
        #expect(late.events == [.error(300, TestError())])
        #expect(throws: TestError.self) { try subject.value() }
    }

    @Test func behaviorValue() throws {
        let subject = BehaviorSubject(value: "a")
        #expect(try subject.value() == "a")
        subject.onNext("b")
        #expect(try subject.value() == "b")
        subject.onCompleted()
        #expect(try subject.value() == "b", "completion keeps the last value")
        subject.dispose()
        #expect(throws: RxError.self) { try subject.value() }
    }

    @Test func replayBufferSizeKeepsTheLastN() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(220) { subject.onNext(2) }
        scheduler.scheduleAt(230) { subject.onNext(3) }
        scheduler.scheduleAt(250) { subject.onCompleted() }
        let during = window(scheduler, subject, 240, 1000)
        let after = window(scheduler, subject, 300, 1000)
        scheduler.start()
        #expect(during.events == [.next(240, 2), .next(240, 3), .completed(250)])
        #expect(after.events == [.next(300, 2), .next(300, 3), .completed(300)])
    }

    @Test func replayUnboundedKeepsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = ReplaySubject<Int>.createUnbounded()
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(220) { subject.onNext(2) }
        scheduler.scheduleAt(230) { subject.onError(TestError()) }
        let late = window(scheduler, subject, 300, 1000)
        scheduler.start()
        #expect(late.events == [.next(300, 1), .next(300, 2), .error(300, TestError())])
        #expect(!subject.hasObservers)
    }

    @Test func replayOfZeroReplaysOnlyTheStopEvent() {
        let subject = ReplaySubject<Int>.create(bufferSize: 0)
        subject.onNext(1)
        let log = EventLog<Int>()
        let subscription = subject.subscribe(log)
        subject.onNext(2)
        subject.onCompleted()
        #expect(log.events == [.next(2), .completed])
        subscription.dispose()
    }

    @Test func asyncSendsTheLastElementOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = AsyncSubject<Int>()
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(220) { subject.onNext(2) }
        scheduler.scheduleAt(250) { subject.onCompleted() }
        let early = window(scheduler, subject, 200, 1000)
        let late = window(scheduler, subject, 300, 1000)
        scheduler.start()
        #expect(early.events == [.next(250, 2), .completed(250)])
        #expect(late.events == [.next(300, 2), .completed(300)])
    }

    @Test func asyncErrorSendsOnlyTheError() {
        let subject = AsyncSubject<Int>()
        let log = EventLog<Int>()
        let subscription = subject.subscribe(log)
        #expect(subject.hasObservers)
        subject.onNext(1)
        subject.onError(TestError())
        subject.onNext(2)
        #expect(log.events == [.error(TestError())])
        #expect(!subject.hasObservers)
        subscription.dispose()
    }

    @Test func asyncEmptyCompletes() {
        let subject = AsyncSubject<Int>()
        subject.onCompleted()
        let log = EventLog<Int>()
        _ = subject.subscribe(log)
        #expect(log.events == [.completed])
    }

    @Test func publishRelayNeverEnds() {
        let relay = PublishRelay<Int>()
        let got = Collected<Event<Int>>()
        #expect(!relay.hasObservers)
        let subscription = relay.subscribe { got.append($0) }
        #expect(relay.hasObservers)
        relay.accept(1)
        relay.accept(2)
        subscription.dispose()
        relay.accept(3)
        #expect(got.all == [.next(1), .next(2)])
        #expect(!relay.hasObservers)
    }

    @Test func behaviorRelayValueAndReplayOfTheLatest() {
        let relay = BehaviorRelay(value: 1)
        #expect(relay.value == 1)
        relay.accept(2)
        #expect(relay.value == 2)
        let got = Collected<Int>()
        let subscription = relay.asObservable().subscribe(onNext: { got.append($0) })
        relay.accept(3)
        #expect(got.all == [2, 3])
        #expect(relay.value == 3)
        #expect(relay.hasObservers)
        subscription.dispose()
        #expect(!relay.hasObservers)
    }

    @Test func subjectsCountAsResourcesByName() {
        let before = Resources.snapshot()
        let publish = PublishSubject<Int>()
        let behavior = BehaviorSubject(value: 0)
        let replay = ReplaySubject<Int>.create(bufferSize: 1)
        let async = AsyncSubject<Int>()
        let grown = Resources.snapshot().grown(since: before)
        #expect(grown["PublishSubject"] == 1)
        #expect(grown["BehaviorSubject"] == 1)
        #expect(grown["ReplaySubject"] == 1)
        #expect(grown["AsyncSubject"] == 1)
        _ = (publish, behavior, replay, async)
    }
}

/// The order subjects and hot test observables deliver in: RxSwift's `Bag`, whose first slot a
/// new subscriber takes whenever it is free, and which is called first.
@Suite(.serialized, .noLeaks)
struct SubjectDeliveryOrderTests {
    /// Subscribes observers named by letters to `subject` and records who got each element.
    final class Calls {
        var log: [String] = []
        var subscriptions: [String: Disposable] = [:]

        func subscribe<Subject: ObservableType>(_ names: String..., to subject: Subject) {
            for name in names {
                subscriptions[name] = subject.subscribe(onNext: { [unowned self] value in log.append("\(name)\(value)")
                })
            }
        }

        func dispose(_ names: String...) {
            for name in names { subscriptions.removeValue(forKey: name)?.dispose() }
        }

        func disposeAll() {
            for subscription in subscriptions.values { subscription.dispose() }
            subscriptions = [:]
        }
    }

    /// A, B; A leaves; C takes the free first slot and is called before B, D after them. B
    /// leaves: C, D, then E. C leaves: F takes the first slot, before D and E. (What a subject
    /// replays to a new subscriber is cleared from the log before each element is sent.)
    static func expectBagOrder<Subject: ObservableType & ObserverType>(
        _ subject: Subject, values: [Subject.Element]
    ) where Subject.Element == Int {
        let calls = Calls()
        calls.subscribe("A", "B", to: subject)
        calls.dispose("A")
        calls.subscribe("C", "D", to: subject)
        calls.log.removeAll()
        subject.onNext(values[0])
        #expect(calls.log == ["C\(values[0])", "B\(values[0])", "D\(values[0])"], "\(Subject.self)")
        calls.dispose("B")
        calls.subscribe("E", to: subject)
        calls.log.removeAll()
        subject.onNext(values[1])
        #expect(calls.log == ["C\(values[1])", "D\(values[1])", "E\(values[1])"], "\(Subject.self)")
        calls.dispose("C")
        calls.subscribe("F", to: subject)
        calls.log.removeAll()
        subject.onNext(values[2])
        #expect(calls.log == ["F\(values[2])", "D\(values[2])", "E\(values[2])"], "\(Subject.self)")
        calls.disposeAll()
    }

    @Test func subjectsDeliverInTheBagsOrder() {
        Self.expectBagOrder(PublishSubject<Int>(), values: [1, 2, 3])
        Self.expectBagOrder(BehaviorSubject(value: 0), values: [1, 2, 3])
        Self.expectBagOrder(ReplaySubject<Int>.create(bufferSize: 1), values: [1, 2, 3])
    }

    /// An observer that disposes another while an element is delivered: the element still
    /// reaches every observer subscribed when it was sent (a subject sends to a snapshot, as
    /// RxSwift's does), the disposed one gets nothing after it, and the rest keep their order.
    @Test func disposingDuringDeliveryTakesEffectAfterThatElement() {
        let log = Collected<String>()
        let subject = PublishSubject<Int>()
        let others = CompositeDisposable()
        let a = subject.subscribe(onNext: { value in
            log.append("A\(value)")
            if value == 1 { others.dispose() }
        })
        let b = subject.subscribe(onNext: { log.append("B\($0)") })
        _ = others.insert(b)
        let c = subject.subscribe(onNext: { log.append("C\($0)") })
        subject.onNext(1)
        subject.onNext(2)
        #expect(log.all == ["A1", "B1", "C1", "A2", "C2"])
        a.dispose()
        c.dispose()
        #expect(!subject.hasObservers)
    }

    /// An observer that disposes the subject itself while an element is delivered: the
    /// observers of that element's snapshot still get it, then nothing more is sent, and a
    /// later subscriber gets `RxError.disposed`.
    @Test func aSubjectDisposedWhileDeliveringSendsNothingMore() {
        let log = Collected<String>()
        let subject = PublishSubject<Int>()
        let subscriptions = ["A", "B", "C"].map { name in
            subject.subscribe(onNext: { value in
                log.append("\(name)\(value)")
                if name == "B" { subject.dispose() }
            })
        }
        subject.onNext(1)
        subject.onNext(2)
        let late = subject.subscribe(onError: { log.append("late \($0)") })
        #expect(log.all.prefix(3) == ["A1", "B1", "C1"])
        #expect(log.all.count == 4 && log.all[3].hasPrefix("late Object `"))
        for subscription in subscriptions + [late] { subscription.dispose() }
        #expect(!subject.hasObservers)
    }

    /// `AsyncSubject` delivers once, at completion, in the same order.
    @Test func asyncSubjectDeliversItsLastElementInTheBagsOrder() {
        let subject = AsyncSubject<Int>()
        let calls = Calls()
        calls.subscribe("A", "B", to: subject)
        calls.dispose("A")
        calls.subscribe("C", to: subject)
        subject.onNext(7)
        subject.onCompleted()
        #expect(calls.log == ["C7", "B7"])
        calls.disposeAll()
    }

    /// At completion `AsyncSubject` sends its last element to every observer, then the
    /// completion to every observer, as RxSwift's does.
    @Test func asyncSubjectSendsTheElementToAllBeforeCompletingAny() {
        let subject = AsyncSubject<Int>()
        var log: [String] = []
        let subscriptions = ["A", "B"].map { name in
            subject.subscribe(onNext: { log.append("\(name)\($0)") }, onCompleted: { log.append("\(name)c") })
        }
        subject.onNext(7)
        subject.onCompleted()
        #expect(log == ["A7", "B7", "Ac", "Bc"])
        for subscription in subscriptions { subscription.dispose() }
    }

    /// Relays are subjects inside: the same order.
    @Test func relaysDeliverInTheBagsOrder() {
        let relay = PublishRelay<Int>()
        let calls = Calls()
        calls.subscribe("A", "B", to: relay)
        calls.dispose("A")
        calls.subscribe("C", to: relay)
        relay.accept(1)
        #expect(calls.log == ["C1", "B1"])
        calls.disposeAll()
    }

    /// An element goes to the observers subscribed when it is sent: one that an earlier
    /// observer subscribes while it is being delivered gets the next element, not this one.
    @Test func anObserverSubscribedDuringDeliveryGetsTheNextElement() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        var b: Disposable?
        let a = subject.subscribe(onNext: { value in
            log.append("A\(value)")
            if value == 1 { b = subject.subscribe(onNext: { log.append("B\($0)") }) }
        })
        subject.onNext(1)
        subject.onNext(2)
        #expect(log == ["A1", "A2", "B2"])
        a.dispose()
        b?.dispose()
    }

    /// An observer that disposes its own subscription while an element is delivered: the subject
    /// lets go of it, yet the snapshot being delivered to keeps it until the element has reached
    /// every observer (the element loop reads the snapshot without retaining each observer); it
    /// is released as soon as that `onNext` returns, and the others keep receiving.
    @Test func anObserverDisposingItselfDuringDeliveryIsReleasedAfterThatElement() {
        final class Witness {}
        let subject = PublishSubject<Int>()
        var log: [String] = []
        weak var released: Witness?
        var own: Disposable?
        do {
            let witness = Witness()
            released = witness
            own = subject.subscribe(onNext: { value in
                withExtendedLifetime(witness) { log.append("A\(value)") }
                own?.dispose()
                own = nil
            })
        }
        let b = subject.subscribe(onNext: { log.append("B\($0)") })
        #expect(released != nil)
        subject.onNext(1)
        #expect(released == nil)
        subject.onNext(2)
        #expect(log == ["A1", "B1", "B2"])
        b.dispose()
        #expect(!subject.hasObservers)
    }

    /// A subject's subscription keeps no disposed flag, as RxSwift's keeps none: disposing it again
    /// finds its key gone and removes nothing else, for every kind of subject, and disposing it
    /// after the subject is gone does nothing.
    @Test func disposingASubjectsSubscriptionTwiceRemovesOnlyItsObserver() {
        func check<Subject: SubjectType & ObserverType>(_ subject: Subject) where Subject.Element == Int {
            var log: [String] = []
            let a = subject.subscribe(onNext: { log.append("A\($0)") })
            let b = subject.subscribe(onNext: { log.append("B\($0)") })
            a.dispose()
            a.dispose()
            let c = subject.subscribe(onNext: { log.append("C\($0)") })
            a.dispose()
            subject.onNext(1)
            subject.onCompleted()
            #expect(log.filter { $0.hasSuffix("1") } == ["C1", "B1"], "\(Subject.self)")
            b.dispose()
            c.dispose()
        }
        check(PublishSubject<Int>())
        check(BehaviorSubject(value: 0))
        check(ReplaySubject<Int>.create(bufferSize: 1))
        check(AsyncSubject<Int>())
        var late: Disposable?
        do {
            let subject = PublishSubject<Int>()
            late = subject.subscribe(onNext: { _ in })
        }
        late?.dispose()
        late?.dispose()
    }

    /// RxTest's hot observables keep their observers in a `Bag` too, and deliver each event to
    /// a snapshot of the observers subscribed when its time comes.
    @Test func hotObservablesDeliverInTheBagsOrderToASnapshot() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3)])
        let calls = Calls()
        // B is a plain observer, not a sink: it records what it is handed, disposed or not.
        let b = AnyObserver<Int> { event in
            if case .next(let value) = event { calls.log.append("B\(value)") }
        }
        scheduler.scheduleAt(200) {
            calls.subscribe("A", to: xs)
            calls.subscriptions["B"] = xs.subscribe(b)
        }
        scheduler.scheduleAt(220) {
            calls.dispose("A")
            calls.subscribe("C", to: xs)
        }
        // C leaves and E takes the first slot. At 250 E disposes B and subscribes D from its
        // handler: B, in the snapshot, still gets 3; D, not in it, does not.
        scheduler.scheduleAt(240) {
            calls.dispose("C")
            calls.subscriptions["E"] = xs.subscribe(onNext: { value in
                calls.log.append("E\(value)")
                calls.dispose("B")
                calls.subscribe("D", to: xs)
            })
        }
        scheduler.start()
        #expect(calls.log == ["A1", "B1", "C2", "B2", "E3", "B3"])
        #expect(
            xs.subscriptions == [
                Subscription(200, 220), Subscription(200, 250), Subscription(220, 240), Subscription(240),
                Subscription(250),
            ])
        calls.disposeAll()
    }
}

/// A subject keeps each subscriber as two words, the observer and a deliverer for its type: a
/// class observer (every sink, `AnonymousObserver`, a `TestableObserver`) is kept as itself, any
/// other (a struct such as `AnyObserver`) in a small entry. Whatever the mix, every observer gets
/// what RxSwift's subject would send it, in the `Bag`'s order, and is let go when the subject lets
/// go of it.
@Suite(.serialized, .noLeaks)
struct SubjectObserverKindsTests {
    /// An observer that is a struct (the subject boxes it) and records into a class.
    struct Forwarding: ObserverType {
        let target: TestableObserver<Int>
        func on(_ event: Event<Int>) { target.on(event) }
    }

    /// Subscribes at `subscribe` and disposes at `dispose`, as `window`, with `wrap` deciding
    /// which observer the subject gets for the recording one.
    static func window<Source: ObservableType, Observer: ObserverType>(
        _ scheduler: TestScheduler, _ source: Source, _ subscribe: TestTime, _ dispose: TestTime,
        _ wrap: @escaping (TestableObserver<Int>) -> Observer
    ) -> TestableObserver<Int> where Source.Element == Int, Observer.Element == Int {
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(subscribe) { subscription = source.subscribe(wrap(observer)) }
        scheduler.scheduleAt(dispose) {
            subscription?.dispose(); subscription = nil
        }
        return observer
    }

    /// A class observer, an `AnyObserver` (a struct), a struct of ours and `subscribe(onNext:)`'s
    /// observer on one `PublishSubject`, the struct first: each gets exactly its window.
    @Test func classAndStructObserversOnOnePublishSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(230) { subject.onNext(2) }
        scheduler.scheduleAt(250) { subject.onNext(3) }
        scheduler.scheduleAt(270) { subject.onCompleted() }
        let anyObserver = Self.window(scheduler, subject, 200, 1000) { AnyObserver($0) }
        let plain = Self.window(scheduler, subject, 205, 240) { $0 }
        let ours = Self.window(scheduler, subject, 220, 1000) { Forwarding(target: $0) }
        var closure: [Recorded<Event<Int>>] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.subscribe(
                onNext: { closure.append(.next(scheduler.clock, $0)) },
                onCompleted: { closure.append(.completed(scheduler.clock)) })
        }
        scheduler.start()
        #expect(anyObserver.events == [.next(210, 1), .next(230, 2), .next(250, 3), .completed(270)])
        #expect(plain.events == [.next(210, 1), .next(230, 2)])
        #expect(ours.events == [.next(230, 2), .next(250, 3), .completed(270)])
        #expect(closure == [.next(210, 1), .next(230, 2), .next(250, 3), .completed(270)])
        #expect(!subject.hasObservers)
        subscription?.dispose()
    }

    /// The same mix on the other subjects: what each replays, sends and ends with reaches class
    /// and struct observers alike.
    @Test func classAndStructObserversOnEverySubject() {
        func histories<Subject: SubjectType & ObserverType>(
            _ subject: Subject
        ) -> [[Recorded<Event<Int>>]] where Subject.Element == Int {
            let scheduler = TestScheduler(initialClock: 0)
            scheduler.scheduleAt(210) { subject.onNext(1) }
            scheduler.scheduleAt(230) { subject.onNext(2) }
            scheduler.scheduleAt(250) { subject.onCompleted() }
            let byClass = Self.window(scheduler, subject, 220, 1000) { $0 }
            let byStruct = Self.window(scheduler, subject, 220, 1000) { AnyObserver($0) }
            let early = Self.window(scheduler, subject, 200, 240) { Forwarding(target: $0) }
            scheduler.start()
            return [byClass.events, byStruct.events, early.events]
        }
        let behavior = [Recorded.next(220, 1), .next(230, 2), .completed(250)]
        #expect(
            histories(BehaviorSubject(value: 0)) == [
                behavior, behavior, [.next(200, 0), .next(210, 1), .next(230, 2)],
            ])
        let replay = [Recorded.next(220, 1), .next(230, 2), .completed(250)]
        #expect(
            histories(ReplaySubject<Int>.create(bufferSize: 1)) == [replay, replay, [.next(210, 1), .next(230, 2)]])
        let async = [Recorded.next(250, 2), .completed(250)]
        #expect(histories(AsyncSubject<Int>()) == [async, async, []])
    }

    /// The `Bag`'s order holds across observer kinds: A (a closure's observer) and B (an
    /// `AnyObserver`); A leaves and C, a class of another type, takes the first slot; B leaves and
    /// D, a struct, goes last; C leaves and E, an `AnyObserver`, takes the first slot again.
    @Test func theBagsOrderHoldsAcrossObserverKinds() {
        final class Recorder: ObserverType {
            let name: String
            let log: Collected<String>
            init(_ name: String, _ log: Collected<String>) { (self.name, self.log) = (name, log) }
            func on(_ event: Event<Int>) { if let value = event.element { log.append("\(name)\(value)") } }
        }
        struct Named: ObserverType {
            let recorder: Recorder
            func on(_ event: Event<Int>) { recorder.on(event) }
        }
        func check<Subject: SubjectType & ObserverType>(_ subject: Subject) where Subject.Element == Int {
            let log = Collected<String>()
            // Who got `value`, leaving out what a subject sends a new subscriber.
            func send(_ value: Int) -> [String] {
                let start = log.count
                subject.onNext(value)
                return Array(log.all[start...])
            }
            let a = subject.subscribe(onNext: { log.append("A\($0)") })
            let b = subject.subscribe(AnyObserver(Recorder("B", log)))
            a.dispose()
            let c = subject.subscribe(Recorder("C", log))
            #expect(send(1) == ["C1", "B1"], "\(Subject.self)")
            b.dispose()
            let d = subject.subscribe(Named(recorder: Recorder("D", log)))
            #expect(send(2) == ["C2", "D2"], "\(Subject.self)")
            c.dispose()
            let e = subject.subscribe(AnyObserver(Recorder("E", log)))
            #expect(send(3) == ["E3", "D3"], "\(Subject.self)")
            d.dispose()
            e.dispose()
            #expect(send(4) == [], "\(Subject.self)")
        }
        check(PublishSubject<Int>())
        check(BehaviorSubject(value: 0))
        check(ReplaySubject<Int>.create(bufferSize: 0))
    }

    /// The subject holds its observers, the disposable `subscribe` returns does not (as in
    /// RxSwift): when the subject completes, or is disposed, its observers are released at once,
    /// class and struct alike, though their disposables are still held; disposing them later
    /// does nothing.
    @Test func observersAreReleasedWhenTheSubjectLetsGoOfThem() {
        final class Watched: ObserverType {
            var events: [Event<Int>] = []
            func on(_ event: Event<Int>) { events.append(event) }
        }
        func check<Subject: SubjectType & ObserverType>(
            _ subject: Subject, end: (Subject) -> Void
        ) where Subject.Element == Int {
            weak var byClass: Watched?
            weak var inStruct: Watched?
            var subscriptions: [Disposable] = []
            do {
                let first = Watched()
                let second = Watched()
                (byClass, inStruct) = (first, second)
                subscriptions = [subject.subscribe(first), subject.subscribe(AnyObserver(second))]
            }
            #expect(byClass != nil && inStruct != nil, "\(Subject.self)")
            end(subject)
            #expect(byClass == nil && inStruct == nil, "\(Subject.self): released while the disposables are held")
            for subscription in subscriptions { subscription.dispose() }
        }
        check(PublishSubject<Int>()) { $0.onCompleted() }
        check(PublishSubject<Int>()) { $0.dispose() }
        check(BehaviorSubject(value: 0)) { $0.onError(TestError()) }
        check(BehaviorSubject(value: 0)) { $0.dispose() }
        check(ReplaySubject<Int>.create(bufferSize: 1)) { $0.onCompleted() }
        check(ReplaySubject<Int>.create(bufferSize: 1)) { $0.dispose() }
        check(AsyncSubject<Int>()) { $0.onCompleted() }
    }

    /// Disposing a subscription releases its observer, whatever its kind, and the others stay; a
    /// disposable outliving its subject keeps neither the subject nor the observer.
    @Test func disposingReleasesTheObserverAndTheDisposableKeepsNothing() {
        final class Watched: ObserverType {
            func on(_ event: Event<Int>) {}
        }
        weak var inStruct: Watched?
        weak var byClass: Watched?
        weak var released: PublishSubject<Int>?
        var kept: Disposable?
        do {
            let subject = PublishSubject<Int>()
            released = subject
            let a: Disposable
            do {
                let first = Watched()
                inStruct = first
                a = subject.subscribe(AnyObserver(first))
            }
            do {
                let second = Watched()
                byClass = second
                kept = subject.subscribe(second)
            }
            #expect(inStruct != nil && byClass != nil)
            a.dispose()
            #expect(inStruct == nil)
            #expect(byClass != nil)
            #expect(subject.hasObservers)
        }
        #expect(released == nil)
        #expect(byClass == nil, "the subject held the observer; its disposable does not")
        kept?.dispose()
    }
}
