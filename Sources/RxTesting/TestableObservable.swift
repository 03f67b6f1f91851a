import RxCore

/// An observable made of recorded events, which records its subscriptions.
///
/// `TestScheduler.createHotObservable` and `createColdObservable` make them.
public class TestableObservable<Element>: Observable<Element> {
    /// The scheduler that plays the events.
    public let testScheduler: TestScheduler
    /// The events it plays.
    public let recordedEvents: [Recorded<Event<Element>>]
    /// Every subscription so far, with when it started and ended.
    public internal(set) var subscriptions: [Subscription] = []

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>], counter: String) {
        self.testScheduler = testScheduler
        self.recordedEvents = recordedEvents
        super.init(kind: .observable, counter: ResourceCounter.named(counter))
    }

    /// A new `Observable` over this one, not itself: RxTest's testable observables are not
    /// `Observable`s, so RxSwift code and tests see `xs.asObservable() !== xs`.
    public override func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }

    /// Records a subscription starting now; returns its index.
    func recordSubscribe() -> Int {
        subscriptions.append(Subscription(testScheduler.clock))
        return subscriptions.count - 1
    }

    /// Records that subscription `index` ended now.
    func recordUnsubscribe(_ index: Int) {
        subscriptions[index] = Subscription(subscriptions[index].subscribe, testScheduler.clock)
    }
}

/// Plays its events at their absolute times to whoever is subscribed at that moment, in the
/// order RxTest's `Bag` keeps them (`BagOrder`). As in RxTest, an event goes to a snapshot of
/// the observers: one that another's handler disposes still gets it, one it subscribes does not.
final class HotObservable<Element>: TestableObservable<Element> {
    private var order = BagOrder()
    private var observers: [(Event<Element>) -> Void] = []

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents, counter: "HotObservable")
        for recorded in recordedEvents {
            testScheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                for observer in self.observers { observer(recorded.value) }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let (key, position) = order.insert()
        observers.insert(observer.on, at: position)
        let index = recordSubscribe()
        var disposed = false
        return Disposables.create { [self] in
            if let position = order.remove(key) { observers.remove(at: position) }
            if !disposed {
                disposed = true
                recordUnsubscribe(index)
            }
        }
    }
}

/// Plays its events to each subscriber, their times taken as offsets from the subscription.
final class ColdObservable<Element>: TestableObservable<Element> {
    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents, counter: "ColdObservable")
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let index = recordSubscribe()
        let scheduled = CompositeDisposable()
        for recorded in recordedEvents {
            _ = scheduled.insert(
                testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                    observer.on(recorded.value)
                    return Disposables.create()
                })
        }
        var disposed = false
        return Disposables.create { [self] in
            if !disposed {
                disposed = true
                recordUnsubscribe(index)
            }
            scheduled.dispose()
        }
    }
}
