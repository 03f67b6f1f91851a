import RxCore
import RxTesting
import Testing

private struct Failure: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { "Failure(\(name))" }
}

@Suite(.serialized, .noLeaks)
struct CatchTests {
    @Test func passesEverythingThroughWhenThereIsNoError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(230)])
        var handlerCalls = 0
        let res = scheduler.start {
            xs.catch { _ in
                handlerCalls += 1; return .just(9)
            }
        }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(handlerCalls == 0)
    }

    @Test func continuesWithTheHandlersSequenceAfterAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .error(230, Failure())])
        let ys = scheduler.createHotObservable([.next(225, 0), .next(240, 4), .completed(250)])
        var caught: [Failure] = []
        let res = scheduler.start {
            xs.catch { error in
                caught.append(error as! Failure); return ys.asObservable()
            }
        }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(240, 4), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(230, 250)])
        #expect(caught == [Failure()])
    }

    @Test func aThrowingHandlerFailsWithItsOwnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, Failure("source"))])
        let res = scheduler.start { xs.catch { _ in throw Failure("handler") } }
        #expect(res.events == [.next(210, 2), .error(230, Failure("handler"))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposingStopsTheHandlersSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, Failure())])
        let ys = scheduler.createHotObservable([.next(240, 4), .next(310, 5), .completed(400)])
        let res = scheduler.start(disposed: 300) { xs.catch { _ in ys.asObservable() } }
        #expect(res.events == [.next(210, 2), .next(240, 4)])
        #expect(ys.subscriptions == [Subscription(230, 300)])
    }

    @Test func aCaughtErrorCanBeCaughtAgain() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, Failure("first"))])
        let ys = scheduler.createColdObservable([.next(5, 2), .error(10, Failure("second"))])
        let res = scheduler.start { xs.catch { _ in ys.asObservable() }.catch { _ in .just(3) } }
        #expect(res.events == [.next(210, 1), .next(225, 2), .next(230, 3), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(220, 230)])
    }

    @Test func catchAndReturnEmitsTheElementAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, Failure())])
        let res = scheduler.start { xs.catchAndReturn(99) }
        #expect(res.events == [.next(210, 2), .next(230, 99), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @available(*, deprecated)
    @Test func deprecatedSpellingsBehaveTheSame() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, Failure())])
        let res = scheduler.start { xs.catchErrorJustReturn(7).catchError { _ in .just(8) } }
        #expect(res.events == [.next(210, 2), .next(230, 7), .completed(230)])
    }
}

@Suite(.serialized, .noLeaks)
struct RetryTests {
    @Test func retryCountIsTheTotalNumberOfAttempts() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, Failure())])
        let res = scheduler.start { xs.retry(3) }
        #expect(res.events == [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, Failure())])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    @Test func completionEndsRetrying() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.retry() }
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func infiniteRetryRunsUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(30, Failure())])
        let res = scheduler.start(disposed: 300) { xs.retry() }
        #expect(res.events == [.next(210, 1), .next(240, 1), .next(270, 1)])
        #expect(
            xs.subscriptions == [
                Subscription(200, 230), Subscription(230, 260), Subscription(260, 290), Subscription(290, 300),
            ])
    }

    @Test func zeroAttemptsCompletesWithoutSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.retry(0) }
        #expect(res.events == [.completed(200)])
        #expect(xs.subscriptions.isEmpty)
    }

    /// A source that fails while being subscribed is retried in a loop, not by recursion:
    /// 100,000 synchronous failures must not overflow the stack.
    @Test func synchronousFailuresAreRetriedWithoutRecursion() {
        var attempts = 0
        var events: [Event<Int>] = []
        do {
            let source = Observable<Int>.create { observer in
                attempts += 1
                if attempts < 100_000 {
                    observer.onError(Failure())
                } else {
                    observer.onNext(attempts)
                    observer.onCompleted()
                }
                return Disposables.create()
            }
            _ = source.retry().subscribe { events.append($0) }
        }
        #expect(attempts == 100_000)
        #expect(events.count == 2)
        #expect(events.first?.element == 100_000)
        #expect(events.last?.isCompleted == true)
    }

    @Test func retryWhenResubscribesWhenTheTriggerEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, Failure())])
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<Failure>) in
                errors.enumerated().flatMap { attempt, error -> Observable<Int> in
                    attempt < 2 ? Observable<Int>.timer(.seconds(5), scheduler: scheduler) : .error(error)
                }
            })
        }
        #expect(res.events == [.next(210, 1), .next(235, 1), .next(260, 1), .error(270, Failure())])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(225, 245), Subscription(250, 270)])
    }

    @Test func retryWhenCompletesWhenTheTriggerCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, Failure())])
        let trigger = scheduler.createHotObservable([.completed(300)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.retry(when: { (_: Observable<Failure>) in trigger.asObservable() }) }
        #expect(res.events == [.next(210, 1), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(trigger.subscriptions == [Subscription(200, 300)])
    }

    /// RxSwift's rule: only a failed attempt listens to the trigger sequence. A trigger that
    /// completes while the source runs ends nothing: the source's own completion does.
    @Test func aTriggerThatCompletesBeforeAnyErrorLetsTheSourceFinish() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(250)])
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start(disposed: 300) { xs.retry(when: { (_: Observable<Failure>) in empty }) }
        #expect(res.events == [.next(220, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(empty.subscriptions == [Subscription(200, 210)])
    }

    /// An error after the trigger completed meets the completion at once.
    @Test func anErrorAfterTheTriggerCompletedEndsTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, Failure()), .completed(40)])
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<Failure>) in empty.asObservable() }) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    /// A trigger that emits while no attempt failed is not a retry.
    @Test func triggerElementsBeforeAnErrorAreNotRetries() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(50, Failure())])
        let trigger = scheduler.createHotObservable([.next(220, 0), .next(300, 0)])
        let res = scheduler.start(disposed: 400) { xs.retry(when: { (_: Observable<Failure>) in trigger }) }
        #expect(res.events == [.next(210, 1), .next(310, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250), Subscription(300, 350)])
    }

    /// Backing off with a notifier of `Observable<Swift.Error>` (any error type).
    @Test func backOffOnAnyErrorType() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, Failure())])
        let res = scheduler.start(disposed: 800) {
            xs.retry(when: { (errors: Observable<Swift.Error>) in
                errors.enumerated().flatMap { attempt, error -> Observable<Int64> in
                    attempt >= 3 ? .error(error) : .timer(.seconds((attempt + 1) * 50), scheduler: scheduler)
                }
            })
        }
        #expect(res.events == [.next(205, 1), .next(265, 1), .next(375, 1), .next(535, 1), .error(540, Failure())])
        #expect(
            xs.subscriptions == [
                Subscription(200, 210), Subscription(260, 270), Subscription(370, 380), Subscription(530, 540),
            ])
    }

    @available(*, deprecated)
    @Test func retryWhenIsTheOldSpellingOfBothForms() {
        var attempts = 0
        let source = Observable<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(Failure()) : .just(attempts)
        }
        var received: [Int] = []
        _ = source.retryWhen { errors in errors }.subscribe(onNext: { received.append($0) })
        _ = source.retryWhen { (errors: Observable<Failure>) in errors }.subscribe(onNext: { received.append($0) })
        #expect(received == [3, 4])
    }

    @Test func retryWhenPassesOnErrorsOfAnotherType() {
        struct Other: Error {}
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, Failure())])
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<Other>) in errors })
        }
        #expect(res.events == [.next(210, 1), .error(220, Failure())])
    }

    @Test func retryWhenDisposalEndsBothSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, Failure())])
        let trigger = scheduler.createHotObservable([.next(250, 0), .next(400, 0)])
        let res = scheduler.start(disposed: 300) {
            xs.retry(when: { (_: Observable<Failure>) in trigger.asObservable() })
        }
        #expect(res.events == [.next(210, 1), .next(260, 1)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(250, 270)])
        #expect(trigger.subscriptions == [Subscription(200, 300)])
    }
}

@Suite(.serialized, .noLeaks)
struct TimeoutTests {
    @Test func failsWhenAGapIsLongerThanTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(280, 3), .next(400, 4)])
        let res = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(240, 2), .next(280, 3), .error(330, RxError.timeout)])
        #expect(xs.subscriptions == [Subscription(200, 330)])
    }

    @Test func countsFromTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(260, 1)])
        let res = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.error(250, RxError.timeout)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func passesCompletionAndErrorsWithinTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(240)])
        let res = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .completed(240)])
        let ys = scheduler.createHotObservable([.next(1210, 1), .error(1240, Failure())])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.timeout(.seconds(50), scheduler: scheduler)
        }
        #expect(res2.events == [.next(1210, 1), .error(1240, Failure())])
        #expect(ys.subscriptions == [Subscription(1200, 1240)])
    }

    @Test func switchesToTheOtherSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(280, 3), .next(400, 4)])
        let ys = scheduler.createColdObservable([.next(5, 9), .completed(10)])
        let res = scheduler.start { xs.timeout(.seconds(50), other: ys, scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(265, 9), .completed(270)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
        #expect(ys.subscriptions == [Subscription(260, 270)])
    }

    @Test func disposalCancelsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let ys = scheduler.createColdObservable([.next(5, 9)])
        let res = scheduler.start(disposed: 250) { xs.timeout(.seconds(50), other: ys, scheduler: scheduler) }
        #expect(res.events == [.next(210, 1)])
        #expect(ys.subscriptions.isEmpty)
    }
}

@Suite(.serialized, .noLeaks)
struct CatchSequenceTests {
    @Test func eachErrorMovesOnToTheNextSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, 1), .error(20, Failure("first"))])
        let second = scheduler.createColdObservable([.next(10, 2), .error(20, Failure("second"))])
        let third = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start {
            Observable.catch(sequence: [first.asObservable(), second.asObservable(), third.asObservable()])
        }
        #expect(res.events == [.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        #expect(first.subscriptions == [Subscription(200, 220)])
        #expect(second.subscriptions == [Subscription(220, 240)])
        #expect(third.subscriptions == [Subscription(240, 260)])
    }

    @Test func completionStopsTheSequenceEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { Observable.catch(sequence: [first.asObservable(), second.asObservable()]) }
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(second.subscriptions == [])
    }

    @Test func theLastErrorEndsItWhenEverySourceFailed() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.error(10, Failure("first"))] as [Recorded<Event<Int>>])
        let second = scheduler.createColdObservable([.error(10, Failure("second"))] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.catch(sequence: [first.asObservable(), second.asObservable()]) }
        #expect(res.events == [.error(220, Failure("second"))])
    }

    @Test func noSourcesCompletesAtOnce() {
        #expect(recorded { _ in Observable<Int>.catch(sequence: [Observable<Int>]()) } == [.completed(200)])
    }

    @Test func theSequenceIsReadLazilyAndDisposalStopsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        var made = 0
        let sources = (0..<3).lazy.map { index -> Observable<Int> in
            made += 1
            return Observable.error(Failure("\(index)")).delaySubscription(.seconds(10), scheduler: scheduler)
        }
        let res = scheduler.start(disposed: 215) { Observable.catch(sequence: sources) }
        #expect(res.events == [])
        #expect(made == 2)
    }

    @available(*, deprecated)
    @Test func catchErrorIsTheOldSpelling() {
        var received: [Int] = []
        _ = Observable.catchError([Observable.error(Failure()), .just(1)]).subscribe(onNext: { received.append($0) })
        #expect(received == [1])
    }
}
