import RxCore
import RxTesting
import Testing

private final class Owner {
    let name: String
    init(_ name: String) { self.name = name }
}

@Suite(.serialized, .noLeaks)
struct WithUnretainedTests {
    @Test func pairsEachElementWithTheObject() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("a")
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.withUnretained(owner).map { "\($0.name)\($1)" } }
        #expect(res.events == [.next(210, "a1"), .next(220, "a2"), .completed(300)])
    }

    @Test func completesOnceTheObjectIsGone() {
        let scheduler = TestScheduler(initialClock: 0)
        var owner: Owner? = Owner("a")
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(240, 3), .completed(300)])
        scheduler.scheduleAt(220) { owner = nil }
        let res = scheduler.start { xs.withUnretained(owner!) { "\($0.name)\($1)" } }
        #expect(res.events == [.next(210, "a1"), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func doesNotKeepTheObjectAlive() {
        weak var weakOwner: Owner?
        let subject = PublishSubject<Int>()
        var received: [String] = []
        let subscription: Disposable
        do {
            let owner = Owner("a")
            weakOwner = owner
            subscription = subject.withUnretained(owner).subscribe(onNext: { received.append("\($0.name)\($1)") })
            subject.onNext(1)
        }
        #expect(weakOwner == nil)
        subject.onNext(2)
        #expect(received == ["a1"])
        subscription.dispose()
    }

    @Test func errorsPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("a")
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, opTestError)])
        #expect(
            scheduler.start { xs.withUnretained(owner) { $1 } }.events == [.next(210, 1), .error(220, opTestError)])
    }
}
