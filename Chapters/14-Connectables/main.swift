// Chapter 14 — connectables (003 "热信号vs冷信号", and its "Connectable" section, which the
// document left empty: "坑待填"). publish + connect, replay(n) / replayAll, multicast with a
// subject, refCount, share(replay:scope:), all on virtual time.
import RxCore
import Workbook

/// A cold source on the chapter's clock: a tick every second, 0, 1, 2, 3, then completed. Each
/// subscription to it starts its own timer, and says so. (Its nodes carry the caller's line.)
func ticks(
    on clock: VirtualClock, _ count: Int = 4, file: StaticString = #fileID, line: UInt = #line
) -> Observable<Int> {
    Observable<Int>.interval(.seconds(1), scheduler: clock.scheduler, file: file, line: line)
        .take(count, file: file, line: line)
        .do(
            onSubscribe: { print("\(clock.stamp) the source is subscribed (a timer starts)") },
            onDispose: { print("\(clock.stamp) the source's subscription is disposed") }, file: file, line: line)
}

/// `subscribe` that prints each event with the virtual time and the subscriber's name. The
/// observer carries the caller's line, so the diagrams name the example's lines.
extension ObservableType {
    func subscribe(
        _ name: String, on clock: VirtualClock, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        subscribe({ event in print("\(clock.stamp) \(name): \(event)") }, file: file, line: line)
    }
}

// 003 热信号vs冷信号: a cold signal starts sending when it is subscribed, so a late subscriber
// still gets the whole sequence; a hot one sends whether anyone listens or not, so a late
// subscriber misses what came before. The same ticks, both ways, side by side: A subscribes at
// 0, B at 2.5 s.
example("hot and cold", draw: true) {
    onVirtualTime { clock in
        let cold = ticks(on: clock, 3)
        let hot = ticks(on: clock, 3).publish()
        _ = hot.connect()
        cold.subscribe("cold A", on: clock).disposed(by: clock.disposeBag)
        hot.subscribe("hot A", on: clock).disposed(by: clock.disposeBag)
        clock.at(2.5) {
            cold.subscribe("cold B", on: clock).disposed(by: clock.disposeBag)
            hot.subscribe("hot B", on: clock).disposed(by: clock.disposeBag)
        }
    }
}

// publish: subscribing to a connectable only subscribes to its subject; nothing flows until
// connect() subscribes that subject to the source — once, for every subscriber. Disposing the
// connection unsubscribes the source; the subscribers hear nothing more (not even completed).
example("publish and connect", draw: true) {
    onVirtualTime { clock in
        let published = ticks(on: clock).publish()
        published.subscribe("A", on: clock).disposed(by: clock.disposeBag)
        published.subscribe("B", on: clock).disposed(by: clock.disposeBag)
        print("\(clock.stamp) A and B subscribed; nothing flows yet")
        var connection: Disposable?
        clock.at(1) {
            print("\(clock.stamp) connect()")
            connection = published.connect()
        }
        clock.at(2.5) { published.subscribe("C", on: clock).disposed(by: clock.disposeBag) }
        clock.at(3.5) {
            print("\(clock.stamp) the connection is disposed")
            connection?.dispose()
        }
    }
}

// replay(n): the connectable's subject is a ReplaySubject, so a late subscriber first gets the
// last n elements; replayAll keeps them all.
example("replay and replayAll") {
    onVirtualTime { clock in
        let lastTwo = ticks(on: clock).replay(2)
        let all = ticks(on: clock).replayAll()
        _ = lastTwo.connect()
        _ = all.connect()
        clock.at(3.5) {
            lastTwo.subscribe("replay(2) late", on: clock).disposed(by: clock.disposeBag)
            all.subscribe("replayAll late", on: clock).disposed(by: clock.disposeBag)
        }
    }
}

// multicast(subject): publish and replay are multicast with a subject made for each connection.
// With a subject of your own, every connection uses that one subject: once the source has
// completed it, a second connect() subscribes the source again, but nobody can hear it any more —
// the subject is terminated. publish() makes a fresh subject for the second connection.
example("multicast with a subject") {
    onVirtualTime { clock in
        let subject = PublishSubject<Int>()
        let mine = ticks(on: clock, 2).multicast(subject)
        let published = ticks(on: clock, 2).publish()
        mine.subscribe("multicast(subject) 1st", on: clock).disposed(by: clock.disposeBag)
        published.subscribe("publish() 1st", on: clock).disposed(by: clock.disposeBag)
        _ = mine.connect()
        _ = published.connect()
        clock.at(3) {
            print("\(clock.stamp) both connect again")
            mine.subscribe("multicast(subject) 2nd", on: clock).disposed(by: clock.disposeBag)
            published.subscribe("publish() 2nd", on: clock).disposed(by: clock.disposeBag)
            _ = mine.connect()
            _ = published.connect()
        }
    }
}

// refCount: connect when the first subscriber comes, disconnect when the last one leaves. A
// subscriber after that starts a new connection, and so a new subscription to the source.
example("refCount", draw: true) {
    onVirtualTime { clock in
        let shared = ticks(on: clock).publish().refCount()
        let a = shared.subscribe("A", on: clock)
        var b: Disposable?
        clock.at(1.5) { b = shared.subscribe("B", on: clock) }
        clock.at(2.5) {
            print("\(clock.stamp) A leaves")
            a.dispose()
        }
        clock.at(3.5) {
            print("\(clock.stamp) B leaves, the last one")
            b?.dispose()
        }
        clock.at(4) { shared.subscribe("C", on: clock).disposed(by: clock.disposeBag) }
    }
}

// share(replay:scope:) is multicast + refCount: .whileConnected makes a subject per connection
// (the default), .forever keeps one subject for the life of the shared sequence. They differ
// when a subscriber comes after every earlier one has left: A listens from 0 to 2.5 s, B comes
// at 4 s.
example("share(replay:scope:)") {
    for scope in [SubjectLifetimeScope.whileConnected, .forever] {
        print(scope == .whileConnected ? ".whileConnected" : ".forever")
        onVirtualTime { clock in
            let shared = ticks(on: clock).share(replay: 1, scope: scope)
            let a = shared.subscribe("  A", on: clock)
            clock.at(2.5) { a.dispose() }
            clock.at(4) { shared.subscribe("  B", on: clock).disposed(by: clock.disposeBag) }
        }
    }
}

// After the source has completed: with .whileConnected a new subscriber starts over (the source
// is subscribed again); with .forever it gets the replayed element and the completion of the
// one subject, and the source is not subscribed again.
example("share after completion") {
    for scope in [SubjectLifetimeScope.whileConnected, .forever] {
        print(scope == .whileConnected ? ".whileConnected" : ".forever")
        onVirtualTime { clock in
            let shared = ticks(on: clock, 2).share(replay: 1, scope: scope)
            shared.subscribe("  A", on: clock).disposed(by: clock.disposeBag)
            clock.at(3) { shared.subscribe("  B", on: clock).disposed(by: clock.disposeBag) }
        }
    }
}

// MARK: - Exercises (the answers: make chapter N=14 ARGS=--answers)

exercise(1) {
    onVirtualTime { clock in
        let shared = Observable<Int>.interval(.seconds(1), scheduler: clock.scheduler).take(3).publish()
        shared.subscribe(onNext: { print("A", $0) }).disposed(by: clock.disposeBag)
        clock.at(1.5) { shared.connect().disposed(by: clock.disposeBag) }
        clock.at(3) { shared.subscribe(onNext: { print("B", $0) }).disposed(by: clock.disposeBag) }
    }
} why: {
    Why(
        """
        `publish()` sends nothing before `connect()`: the interval starts at 1.5 s and ticks at 2.5, 3.5 and 4.5 s. A,
        subscribed before, gets all three. B joins at 3 s, after 0 went by, and a published sequence replays nothing:
        B gets 1 and 2.
        """,
        zh: """
            `publish()` 在 `connect()` 之前什么也不发：interval 从 1.5 秒开始，在 2.5、3.5、4.5 秒各响一次。A 订阅得
            早，三个全收到。B 3 秒才来，0 已经过去，而 publish 出来的序列不重放，所以 B 只收到 1 和 2。
            """)
}

exercise(2) {
    let shared = Observable.of(1, 2, 3)
        .do(onSubscribe: { print("subscribed") })
        .share(replay: 1)
    _ = shared.subscribe(onNext: { print("A", $0) })
    _ = shared.subscribe(onNext: { print("B", $0) })
} why: {
    Why(
        """
        `share` connects at the first subscriber and disconnects when the last one leaves. `of` completes during A's
        subscription, which ends the connection, and with the scope `.whileConnected` the replay buffer goes with it:
        B starts a new connection, and the source is subscribed again.
        """,
        zh: """
            `share` 在第一个订阅者到来时连接，最后一个离开时断开。`of` 在 A 的订阅里就完成了，连接随之结束；作用域是
            `.whileConnected`，重放缓冲也一起丢掉。B 来时开的是一条新连接，源序列又被订阅了一次。
            """)
}

exercise(3) {
    let subject = PublishSubject<String>()
    let shared = subject.replay(1)
    subject.onNext("a")
    let connection = shared.connect()
    subject.onNext("b")
    _ = shared.subscribe(onNext: { print("A", $0) })
    subject.onNext("c")
    connection.dispose()
    subject.onNext("d")
    _ = shared.subscribe(onNext: { print("B", $0) })
} why: {
    Why(
        """
        Before `connect()` nobody listens, so `a` is lost. A subscribes after `b`, and the replay of one gives it `b`,
        then `c`. Disposing the connection also drops the `ReplaySubject` it multicast through: `d` goes nowhere, and
        B gets nothing, not even `c`, because it subscribes to a new, empty subject that waits for the next
        `connect()`.
        """,
        zh: """
            `connect()` 之前没人在听，`a` 就丢了。A 在 `b` 之后订阅，容量为 1 的重放先给它补上 `b`，接着是 `c`。释放
            连接的同时，也丢掉了用来广播的那个 `ReplaySubject`：`d` 无处可去；B 订阅到的是一个新的、空的 subject，它
            要等下一次 `connect()`，所以 B 什么也收不到，连 `c` 也没有。
            """)
}
