import RxCore
import RxTesting
import Testing

private struct Failure: Error, Equatable, CustomStringConvertible {
    var description: String { "Failure" }
}

@Suite(.serialized, .noLeaks)
struct MulticastTests {
    @Test func nothingFlowsBeforeConnect() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(240, 2), .next(310, 3), .next(420, 4), .completed(500),
        ])
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var connectable: ConnectableObservable<Int>? = xs.publish()
        var connection: Disposable?
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(connectable!.subscribe(a)) }
        scheduler.scheduleAt(230) { connection = connectable!.connect() }
        scheduler.scheduleAt(300) { subscriptions.append(connectable!.subscribe(b)) }
        scheduler.scheduleAt(400) { connection?.dispose() }
        scheduler.start()
        #expect(a.events == [.next(240, 2), .next(310, 3)])
        #expect(b.events == [.next(310, 3)])
        #expect(xs.subscriptions == [Subscription(230, 400)])
        subscriptions.forEach { $0.dispose() }
        connectable = nil
        connection = nil
    }

    @Test func connectTwiceGivesTheSameConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        var connectable: ConnectableObservable<Int>? = xs.publish()
        var first: Disposable?
        var second: Disposable?
        scheduler.scheduleAt(200) {
            first = connectable!.connect()
            second = connectable!.connect()
        }
        scheduler.scheduleAt(300) { second?.dispose() }
        scheduler.start()
        #expect(xs.subscriptions == [Subscription(200, 300)])
        first?.dispose()
        connectable = nil; first = nil; second = nil
    }

    @Test func replayGivesLateSubscribersTheBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .completed(260),
        ])
        let replayed = scheduler.createObserver(Int.self)
        let all = scheduler.createObserver(Int.self)
        let afterCompletion = scheduler.createObserver(Int.self)
        var r2: ConnectableObservable<Int>? = xs.replay(2)
        var rAll: ConnectableObservable<Int>? = xs.replayAll()
        var disposables: [Disposable] = []
        scheduler.scheduleAt(200) {
            disposables.append(r2!.connect())
            disposables.append(rAll!.connect())
        }
        scheduler.scheduleAt(240) {
            disposables.append(r2!.subscribe(replayed))
            disposables.append(rAll!.subscribe(all))
        }
        // As in RxSwift 6 (`multicast(makeSubject:)`): a finished connection drops its subject,
        // so a subscriber after completion waits for the next `connect()`.
        scheduler.scheduleAt(300) { disposables.append(r2!.subscribe(afterCompletion)) }
        scheduler.start()
        #expect(replayed.events == [.next(240, 2), .next(240, 3), .next(250, 4), .completed(260)])
        #expect(all.events == [.next(240, 1), .next(240, 2), .next(240, 3), .next(250, 4), .completed(260)])
        #expect(afterCompletion.events.isEmpty)
        disposables.forEach { $0.dispose() }
        r2 = nil; rAll = nil
    }

    @Test func multicastIntoAGivenSubjectFeedsThatSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let subject = PublishSubject<Int>()
        let direct = scheduler.createObserver(Int.self)
        var connectable: ConnectableObservable<Int>? = xs.multicast(subject)
        var disposables: [Disposable] = [subject.subscribe(direct)]
        scheduler.scheduleAt(215) { disposables.append(connectable!.connect()) }
        scheduler.start()
        #expect(direct.events == [.next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(215, 230)])
        disposables.forEach { $0.dispose() }
        connectable = nil
    }

    @Test func multicastWithAFactoryMakesAFreshSubjectPerConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        var made = 0
        let late = scheduler.createObserver(Int.self)
        var connectable: ConnectableObservable<Int>? = xs.multicast(makeSubject: { () -> ReplaySubject<Int> in
            made += 1
            return ReplaySubject.create(bufferSize: 1)
        })
        var disposables: [Disposable] = []
        scheduler.scheduleAt(200) { disposables.append(connectable!.connect()) }
        // After the first connection completed, a new subscriber gets a new, empty subject…
        scheduler.scheduleAt(300) { disposables.append(connectable!.subscribe(late)) }
        // …which a second connection feeds.
        scheduler.scheduleAt(400) { disposables.append(connectable!.connect()) }
        scheduler.start()
        #expect(made == 2)
        #expect(late.events == [.next(410, 1), .completed(420)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(400, 420)])
        disposables.forEach { $0.dispose() }
        connectable = nil
    }
}

@Suite(.serialized, .noLeaks)
struct RefCountTests {
    @Test func connectsOnTheFirstSubscriberAndDisconnectsAfterTheLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(320, 3), .next(420, 4)])
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var shared: Observable<Int>? = xs.publish().refCount()
        var da: Disposable?
        var db: Disposable?
        scheduler.scheduleAt(200) { da = shared!.subscribe(a) }
        scheduler.scheduleAt(250) { db = shared!.subscribe(b) }
        scheduler.scheduleAt(300) { da?.dispose() }
        scheduler.scheduleAt(350) { db?.dispose() }
        scheduler.scheduleAt(400) { da = shared!.subscribe(a) }
        scheduler.scheduleAt(450) { da?.dispose() }
        scheduler.start()
        #expect(a.events == [.next(210, 1), .next(260, 2), .next(420, 4)])
        #expect(b.events == [.next(260, 2), .next(320, 3)])
        #expect(xs.subscriptions == [Subscription(200, 350), Subscription(400, 450)])
        shared = nil; da = nil; db = nil
    }

    @Test func aTerminatedConnectionIsReplacedByTheNextSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, Failure())])
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var shared: Observable<Int>? = xs.publish().refCount()
        var disposables: [Disposable] = []
        scheduler.scheduleAt(200) { disposables.append(shared!.subscribe(a)) }
        scheduler.scheduleAt(205) { disposables.append(shared!.subscribe(b)) }
        scheduler.scheduleAt(300) { disposables.append(shared!.subscribe(a)) }
        scheduler.start()
        #expect(a.events == [.next(210, 1), .error(220, Failure()), .next(310, 1), .error(320, Failure())])
        #expect(b.events == [.next(210, 1), .error(220, Failure())])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
        disposables.forEach { $0.dispose() }
        shared = nil
    }
}

@Suite(.serialized, .noLeaks)
struct ShareTests {
    /// 003's "MAP printed twice": two subscribers of a plain chain run the map twice; `share`
    /// runs it once.
    @Test func shareRunsTheChainOncePerConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        var maps = 0
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var shared: Observable<Int>? = xs.map {
            maps += 1; return $0 * 10
        }.share()
        var disposables: [Disposable] = []
        scheduler.scheduleAt(200) {
            disposables.append(shared!.subscribe(a))
            disposables.append(shared!.subscribe(b))
        }
        scheduler.start()
        #expect(maps == 2)
        #expect(a.events == [.next(210, 10), .next(220, 20), .completed(300)])
        #expect(b.events == a.events)
        #expect(xs.subscriptions == [Subscription(200, 300)])
        disposables.forEach { $0.dispose() }
        shared = nil
    }

    @Test func replayOneGivesALateSubscriberTheLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3)])
        let a = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var shared: Observable<Int>? = xs.share(replay: 1)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(200) { disposables.append(shared!.subscribe(a)) }
        scheduler.scheduleAt(250) { disposables.append(shared!.subscribe(late)) }
        scheduler.start()
        #expect(late.events == [.next(250, 2), .next(260, 3)])
        #expect(xs.subscriptions == [Subscription(200)])
        disposables.forEach { $0.dispose() }
        #expect(xs.subscriptions == [Subscription(200, 260)])
        shared = nil
    }

    @Test func whileConnectedStartsAfreshAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var shared: Observable<Int>? = xs.share(replay: 1, scope: .whileConnected)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(200) { disposables.append(shared!.subscribe(a)) }
        scheduler.scheduleAt(300) { disposables.append(shared!.subscribe(b)) }
        scheduler.start()
        #expect(b.events == [.next(310, 1), .next(320, 2), .completed(330)])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(300, 330)])
        disposables.forEach { $0.dispose() }
        shared = nil
    }

    @Test func foreverKeepsTheSubjectAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        var shared: Observable<Int>? = xs.share(replay: 1, scope: .forever)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(200) { disposables.append(shared!.subscribe(a)) }
        scheduler.scheduleAt(300) { disposables.append(shared!.subscribe(b)) }
        scheduler.start()
        #expect(a.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(b.events == [.next(300, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        disposables.forEach { $0.dispose() }
        shared = nil
    }

    /// A subscriber that subscribes again from inside `onNext` (re-entrancy) shares the same
    /// connection instead of starting a second one.
    @Test func reentrantSubscriptionSharesTheConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let inner = scheduler.createObserver(Int.self)
        var shared: Observable<Int>? = xs.share(replay: 1)
        var disposables: [Disposable] = []
        var once = false
        scheduler.scheduleAt(200) {
            disposables.append(
                shared!.subscribe(onNext: { _ in
                    if !once {
                        once = true
                        disposables.append(shared!.subscribe(inner))
                    }
                }))
        }
        scheduler.start()
        #expect(inner.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        disposables.forEach { $0.dispose() }
        shared = nil
    }

    @available(*, deprecated)
    @Test func shareReplayIsShareReplayWhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let late = scheduler.createObserver(Int.self)
        var shared: Observable<Int>? = xs.shareReplay(1)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(200) { disposables.append(shared!.subscribe { _ in }) }
        scheduler.scheduleAt(250) { disposables.append(shared!.subscribe(late)) }
        scheduler.start()
        #expect(late.events == [.next(250, 2)])
        disposables.forEach { $0.dispose() }
        shared = nil
    }
}
