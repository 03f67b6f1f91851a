import Foundation
import RxCocoa
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct NotificationCenterTests {
    let name = Notification.Name("RxCocoaTests.notification")

    @Test func notificationsOfAnyObject() {
        let center = NotificationCenter()
        var received: [String] = []
        center.post(name: name, object: nil)
        let subscription = center.rx.notification(name).subscribe(onNext: { notification in
            received.append(notification.object.map { "\(type(of: $0))" } ?? "nil")
        })
        #expect(received == [])
        center.post(name: name, object: nil)
        center.post(name: name, object: NSString(string: "sender"))
        center.post(name: Notification.Name("another"), object: nil)
        subscription.dispose()
        center.post(name: name, object: nil)
        #expect(received == ["nil", "NSString"])
    }

    @Test func notificationsOfOneObject() {
        let center = NotificationCenter()
        let target = NSObject()
        var count = 0
        center.post(name: name, object: target)
        let subscription = center.rx.notification(name, object: target).subscribe(onNext: { _ in count += 1 })
        center.post(name: name, object: target)
        center.post(name: name, object: nil)
        center.post(name: name, object: NSObject())
        center.post(name: name, object: target)
        #expect(count == 2)
        subscription.dispose()
        center.post(name: name, object: target)
        #expect(count == 2)
    }

    /// Each subscription registers its own observer and removes it when disposed.
    @Test func eachSubscriptionObservesOnItsOwn() {
        let center = NotificationCenter()
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        let names = center.rx.notification(name).map { $0.userInfo?["text"] as? String ?? "" }
        let firstSubscription = names.subscribe(first)
        center.post(name: name, object: nil, userInfo: ["text": "a"])
        let secondSubscription = names.subscribe(second)
        center.post(name: name, object: nil, userInfo: ["text": "b"])
        firstSubscription.dispose()
        center.post(name: name, object: nil, userInfo: ["text": "c"])
        secondSubscription.dispose()
        center.post(name: name, object: nil, userInfo: ["text": "d"])
        #expect(first.events == [.next(0, "a"), .next(0, "b")])
        #expect(second.events == [.next(0, "b"), .next(0, "c")])
    }
}
