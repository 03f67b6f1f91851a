import Foundation
import RxCocoa
import RxTesting
import Testing

/// On the main actor, as controls are: a control property or event subscribes its values on the
/// main thread, at once when already there.
@MainActor @Suite(.serialized, .noLeaks)
struct ControlPropertyAndEventTests {
    // MARK: - Subscribing on the main thread

    /// Subscribed from a background queue, a control property or event subscribes its values on
    /// the main queue (`ConcurrentMainScheduler`), as controls must be touched there.
    @Test(arguments: [false, true]) func subscriptionHappensOnTheMainQueue(event: Bool) async {
        let subscribedOnMain = Collected<Bool>()
        let values = Observable<Int>.deferred {
            subscribedOnMain.append(MainScheduler.isOnMainQueue)
            return .never()
        }
        let observable: Observable<Int> =
            event
            ? ControlEvent(events: values).asObservable()
            : ControlProperty(values: values, valueSink: AnyObserver<Int> { _ in }).asObservable()
        let subscriptions = Collected<Disposable>()
        DispatchQueue.global().async {
            subscriptions.append(observable.subscribe())
            subscriptions.append(observable.subscribe { _ in })
        }
        #expect(await eventually { subscribedOnMain.all.count == 2 })
        #expect(subscribedOnMain.all == [true, true])
        #expect(await eventually { subscriptions.all.count == 2 })
        subscriptions.all.forEach { $0.dispose() }
    }

    // MARK: - ControlProperty

    /// `orEmpty` reads `nil` as `""` and sets the property through the original sink.
    @Test func orEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let bound = scheduler.createObserver(String?.self)
        let observed = scheduler.createObserver(String.self)
        let property = ControlProperty<String?>(values: Observable.just(nil), valueSink: bound.asObserver())
        let text = property.orEmpty
        _ = text.subscribe(observed)
        text.on(.next("a"))
        text.onNext("b")
        #expect(observed.events == [.next(0, ""), .completed(0)])
        #expect(bound.events == [.next(0, "a"), .next(0, "b")])
    }

    /// `changed` leaves out the value the property has at subscription.
    @Test func changedSkipsTheCurrentValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let changes = scheduler.createObserver(Int.self)
        let subject = BehaviorSubject(value: 0)
        let property = ControlProperty(values: subject, valueSink: AnyObserver<Int> { _ in })
        let subscription = property.changed.subscribe(changes)
        #expect(changes.events == [])
        subject.onNext(1)
        #expect(changes.events == [.next(0, 1)])
        subscription.dispose()
        subject.onNext(2)
        #expect(changes.events == [.next(0, 1)])
    }

    /// A property is an observer: binding into it sets it; `.completed` passes on.
    @Test func bindingIntoAProperty() {
        let scheduler = TestScheduler(initialClock: 0)
        let sink = scheduler.createObserver(Int.self)
        let property = ControlProperty(values: Observable<Int>.never(), valueSink: sink)
        let input = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        scheduler.scheduleAt(200) { _ = input.bind(to: property) }
        scheduler.start()
        #expect(sink.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(property.asControlProperty().asObservable() === property.asObservable())
    }

    @Test func propertyAndEventAsDriverAndSignal() {
        let scheduler = TestScheduler(initialClock: 0)
        let eventDriver = scheduler.createObserver(Int.self)
        let eventSignal = scheduler.createObserver(Int.self)
        let propertyDriver = scheduler.createObserver(Int.self)
        let changedSignal = scheduler.createObserver(Int.self)
        let taps = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let subject = BehaviorSubject(value: 5)
        var subscriptions: [Disposable] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let event = ControlEvent(events: taps)
            let property = ControlProperty(values: subject, valueSink: AnyObserver<Int> { _ in })
            scheduler.scheduleAt(200) {
                subscriptions.append(event.asDriver().drive(eventDriver))
                subscriptions.append(event.asSignal().emit(to: eventSignal))
                subscriptions.append(property.asDriver().drive(propertyDriver))
                subscriptions.append(property.changed.asSignal().emit(to: changedSignal))
            }
            scheduler.scheduleAt(215) { subject.onNext(6) }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
        }
        #expect(eventDriver.events == [.next(211, 1), .next(221, 2), .completed(231)])
        #expect(eventSignal.events == eventDriver.events)
        #expect(propertyDriver.events == [.next(201, 5), .next(216, 6)])
        #expect(changedSignal.events == [.next(216, 6)])
        #expect(taps.subscriptions == [Subscription(200, 230), Subscription(200, 230)])
    }

    @Test func eventAsInfallible() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start { ControlEvent(events: taps).asInfallible() }
        #expect(res.events == [.next(210, 1), .completed(230)])
    }
}
