import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct EventTests {
    @Test func descriptionsAreRxSwifts() {
        #expect(Event<Int>.next(32).debugDescription == "next(32)")
        #expect(Event<Int>.completed.debugDescription == "completed")
        #expect(Event<Int>.error(TestError()).debugDescription == "error(TestError(boom))")
        #expect("\(Event<String>.next("a"))" == "next(a)")
    }

    @Test func accessors() {
        #expect(Event.next(1).element == 1)
        #expect(Event<Int>.completed.element == nil)
        #expect(Event<Int>.error(TestError()).error is TestError)
        #expect(Event.next(1).error == nil)
        #expect(!Event.next(1).isStopEvent)
        #expect(Event<Int>.completed.isStopEvent && Event<Int>.completed.isStopObservable)
        #expect(Event<Int>.error(TestError()).isStopEvent)
        #expect(Event<Int>.completed.isCompleted && !Event.next(1).isCompleted)
    }

    @Test func mapTurnsAThrowIntoAnError() {
        #expect(Event.next(2).map { $0 * 3 } == .next(6))
        #expect(Event<Int>.completed.map { $0 * 3 } == .completed)
        #expect(Event.next(2).map { _ -> Int in throw TestError("map") } == .error(TestError("map")))
    }

    @Test func equalityComparesErrorsByTypeAndDescription() {
        #expect(Event<Int>.error(TestError("a")) == .error(TestError("a")))
        #expect(Event<Int>.error(TestError("a")) != .error(TestError("b")))
        #expect(Event<Int>.error(RxError.noElements) != .error(TestError("a")))
        #expect(Event.next(1) != .completed)
    }
}

/// An `ObserverBase` that logs what reaches `onCore`.
private final class LoggingObserver: ObserverBase<Int> {
    var received: [Event<Int>] = []
    override func onCore(_ event: Event<Int>) { received.append(event) }
}

@Suite(.serialized, .noLeaks)
struct ObserverTests {
    @Test func observerBaseStopsAtTheFirstStopEvent() {
        let observer = LoggingObserver()
        observer.onNext(1)
        observer.onCompleted()
        observer.onNext(2)
        observer.onError(TestError())
        observer.onCompleted()
        #expect(observer.received == [.next(1), .completed])
    }

    @Test func observerBaseStopsAfterAnErrorToo() {
        let observer = LoggingObserver()
        observer.onError(TestError())
        observer.onNext(2)
        #expect(observer.received == [.error(TestError())])
    }

    @Test func disposingAnObserverBaseStopsIt() {
        let observer = LoggingObserver()
        observer.onNext(1)
        observer.dispose()
        observer.onNext(2)
        observer.onCompleted()
        #expect(observer.received == [.next(1)])
    }

    @Test func anonymousObserverCallsItsHandler() {
        let got = Collected<Event<Int>>()
        let observer = AnonymousObserver<Int> { got.append($0) }
        observer.onNext(1)
        observer.onCompleted()
        observer.onNext(3)
        #expect(got.all == [.next(1), .completed])
    }

    @Test func anyObserverForwardsToAClosureOrAnObserver() {
        let got = Collected<Event<Int>>()
        let fromClosure = AnyObserver<Int> { got.append($0) }
        fromClosure.onNext(1)
        let log = EventLog<Int>()
        let wrapped = AnyObserver(log)
        wrapped.onNext(2)
        wrapped.onCompleted()
        #expect(got.all == [.next(1)])
        #expect(log.events == [.next(2), .completed])
        // AnyObserver itself has no stopped flag: it forwards everything.
        wrapped.onNext(3)
        #expect(log.events == [.next(2), .completed, .next(3)])
    }
}

@Suite(.serialized, .noLeaks)
struct SubscribeTests {
    @Test func subscribeWithAnEventClosure() {
        let got = Collected<Event<Int>>()
        _ = Observable.of(1, 2).subscribe { got.append($0) }
        #expect(got.all == [.next(1), .next(2), .completed])
    }

    @Test func subscribeWithAnObserver() {
        let log = EventLog<Int>()
        _ = Observable.of(1, 2).subscribe(log)
        #expect(log.events == [.next(1), .next(2), .completed])
    }

    @Test func subscribeWithClosuresCallsOnDisposedAfterTheEnd() {
        let calls = Collected<String>()
        _ = Observable.of(1, 2).subscribe(
            onNext: { calls.append("next \($0)") },
            onError: { calls.append("error \($0)") },
            onCompleted: { calls.append("completed") },
            onDisposed: { calls.append("disposed") }
        )
        #expect(calls.all == ["next 1", "next 2", "completed", "disposed"])

        let failing = Collected<String>()
        _ = Observable<Int>.error(TestError()).subscribe(
            onError: { failing.append("error \($0)") },
            onDisposed: { failing.append("disposed") }
        )
        #expect(failing.all == ["error TestError(boom)", "disposed"])
    }

    @Test func disposingEarlyCallsOnDisposedOnce() {
        let calls = Collected<String>()
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(
            onNext: { calls.append("next \($0)") }, onDisposed: { calls.append("disposed") })
        subject.onNext(1)
        subscription.dispose()
        subject.onNext(2)
        subscription.dispose()
        #expect(calls.all == ["next 1", "disposed"])
        #expect(!subject.hasObservers)
    }

    @Test func subscribeWithPassesTheObjectWhileItLives() {
        final class Owner { var seen: [Int] = [] }
        let subject = PublishSubject<Int>()
        var owner: Owner? = Owner()
        let subscription = subject.subscribe(with: owner!, onNext: { owner, value in owner.seen.append(value) })
        subject.onNext(1)
        #expect(owner?.seen == [1])
        weak let weakOwner = owner
        owner = nil
        // Held weakly: the subscription does not keep it alive, and events are dropped.
        #expect(weakOwner == nil)
        subject.onNext(2)
        subscription.dispose()
    }

    /// `AnonymousObserver` keeps `onNext` itself and the other handlers in a box made only when
    /// one is given: each shape still routes every event to its handler, and only once.
    @Test func eachHandlerShapeRoutesEveryEvent() {
        let saved = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = saved }
        let calls = Collected<String>()
        Hooks.defaultErrorHandler = { _, error in calls.append("default \(error)") }
        for ending in [Event<Int>.completed, .error(TestError("e"))] {
            let subject = PublishSubject<Int>()
            let bare = subject.subscribe(onNext: { calls.append("bare \($0)") })
            let full = subject.subscribe(
                onNext: { calls.append("full \($0)") }, onError: { calls.append("full \($0)") },
                onCompleted: { calls.append("full completed") }, onDisposed: { calls.append("full disposed") })
            let endsOnly = subject.subscribe(onCompleted: { calls.append("ends completed") })
            let events = subject.subscribe { calls.append("events \($0)") }
            subject.onNext(1)
            subject.on(ending)
            subject.onNext(2)
            for subscription in [bare, full, endsOnly, events] { subscription.dispose() }
        }
        #expect(
            calls.all == [
                "bare 1", "full 1", "events next(1)",
                "full completed", "full disposed", "ends completed", "events completed",
                "bare 1", "full 1", "events next(1)",
                "default TestError(e)", "full TestError(e)", "full disposed", "default TestError(e)",
                "events error(TestError(e))",
            ])
    }

    @Test func unhandledErrorsReachTheDefaultErrorHandler() {
        let saved = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = saved }
        let errors = Collected<String>()
        Hooks.defaultErrorHandler = { _, error in errors.append("\(error)") }
        _ = Observable<Int>.error(TestError("unhandled")).subscribe(onNext: { _ in })
        _ = Observable<Int>.error(TestError("handled")).subscribe(onError: { _ in })
        #expect(errors.all == ["TestError(unhandled)"])
    }

    @Test func recordCallStackOnErrorUsesTheCustomCapture() {
        let savedHandler = Hooks.defaultErrorHandler
        let savedCapture = Hooks.customCaptureSubscriptionCallstack
        let savedRecord = Hooks.recordCallStackOnError
        defer {
            Hooks.defaultErrorHandler = savedHandler
            Hooks.customCaptureSubscriptionCallstack = savedCapture
            Hooks.recordCallStackOnError = savedRecord
        }
        let stacks = Collected<[String]>()
        Hooks.defaultErrorHandler = { stack, _ in stacks.append(stack) }
        Hooks.customCaptureSubscriptionCallstack = { ["frame 1", "frame 2"] }
        Hooks.recordCallStackOnError = true
        _ = Observable<Int>.error(TestError()).subscribe()
        Hooks.recordCallStackOnError = false
        _ = Observable<Int>.error(TestError()).subscribe()
        #expect(stacks.all == [["frame 1", "frame 2"], []])
    }
}
