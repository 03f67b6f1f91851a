import Foundation
import RxCocoa
import RxTesting
import Testing

/// The error the tests' sources fail with.
struct TestError: Error, Equatable, CustomStringConvertible {
    var description: String { "TestError" }
}

let testError = TestError()

/// What two observers, subscribed together to one shared sequence, received, and the
/// subscriptions its sources saw.
struct SharedRun<Element> {
    let first: [Recorded<Event<Element>>]
    let second: [Recorded<Event<Element>>]
    let sources: [[Subscription]]
}

/// Builds a shared sequence inside `SharingScheduler.mock` (operators read the scheduler when
/// built), subscribes two observers to it at 200 and disposes them at `disposed`: RxCocoa's
/// tests of Driver and Signal operators check that both see the same events while the sources
/// are subscribed once, and that delivery goes through the sharing scheduler.
func runTwice<Strategy, Element>(
    disposed: TestTime = 1000,
    _ make: (TestScheduler) -> (SharedSequence<Strategy, Element>, [TestableObservable<Int>])
) -> SharedRun<Element> {
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createObserver(Element.self)
    let second = scheduler.createObserver(Element.self)
    var subscriptions: [Disposable] = []
    var sources: [TestableObservable<Int>] = []
    SharingScheduler.mock(scheduler: scheduler) {
        let (sequence, made) = make(scheduler)
        sources = made
        scheduler.scheduleAt(200) {
            subscriptions.append(sequence.asObservable().subscribe(first))
            subscriptions.append(sequence.asObservable().subscribe(second))
        }
        scheduler.scheduleAt(disposed) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
    }
    return SharedRun(first: first.events, second: second.events, sources: sources.map(\.subscriptions))
}

/// `scheduler.start { make() }` with `scheduler` as the sharing scheduler.
func startMocked<Strategy, Element>(
    _ make: @escaping (TestScheduler) -> SharedSequence<Strategy, Element>
) -> [Recorded<Event<Element>>] {
    let scheduler = TestScheduler(initialClock: 0)
    var events: [Recorded<Event<Element>>] = []
    SharingScheduler.mock(scheduler: scheduler) {
        events = scheduler.start { make(scheduler).asObservable() }.events
    }
    return events
}

/// A hot source that repeats an element and fails: 1, 2, 2, 3, then an error at 250 (and an
/// element at 150, before anyone subscribes).
func failingSource(_ scheduler: TestScheduler) -> TestableObservable<Int> {
    scheduler.createHotObservable([
        .next(150, -9), .next(210, 1), .next(220, 2), .next(230, 2), .next(240, 3), .error(250, testError),
    ])
}

/// A hot source that completes: 10, 20, 30, completed at 245.
func completingSource(_ scheduler: TestScheduler) -> TestableObservable<Int> {
    scheduler.createHotObservable([.next(205, 10), .next(215, 20), .next(235, 30), .completed(245)])
}

/// Waits, without blocking the main queue, until `condition` holds or `seconds` pass.
func eventually(seconds: Double = 5, _ condition: @escaping () -> Bool) async -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        if Date() >= deadline { return false }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return true
}

/// A thread-safe list, for what closures on other threads collect.
final class Collected<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ item: T) { lock.withLock { items.append(item) } }
    var all: [T] { lock.withLock { items } }
}
