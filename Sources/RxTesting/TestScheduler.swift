import Foundation
import RxCore

/// Virtual time of a `TestScheduler`, in ticks.
public typealias TestTime = Int

/// A virtual time scheduler for tests, as RxTest's: time is an `Int` number of ticks, and one
/// tick is `resolution` seconds (1 second by default), so `interval(.seconds(10), …)` ticks
/// every 10 ticks.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
/// let res = scheduler.start { xs.map { $0 * 10 } }
/// #expect(res.events == [.next(210, 20), .completed(300)])
/// #expect(xs.subscriptions == [Subscription(200, 300)])
/// ```
///
/// Not thread-safe: drive it from one thread.
public class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter> {
    /// The times `start` uses when none are given.
    public struct Defaults {
        /// When the tested sequence is created.
        public static let created = 100
        /// When it is subscribed to.
        public static let subscribed = 200
        /// When the subscription is disposed.
        public static let disposed = 1000
    }

    private let simulateProcessingDelay: Bool

    /// Creates a test scheduler.
    ///
    /// - Parameters:
    ///   - initialClock: The clock's first value.
    ///   - resolution: Seconds per tick (real time = ticks × resolution).
    ///   - simulateProcessingDelay: When true, work scheduled relatively (`schedule`,
    ///     `scheduleRelative`: what operators such as `observe(on:)` or `delay` ask for) at or
    ///     before the current time runs one tick later (`clock + 1`), as RxTest does. Absolute
    ///     times (`scheduleAt`, `start`'s three times, hot observables' events, cold observables'
    ///     offsets) are never moved.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
    }

    /// Relative work due now or in the past runs at `clock + 1` (or `clock` without simulated
    /// delay).
    public override func adjustScheduledTime(_ time: TestTime) -> TestTime {
        time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }

    /// A hot observable: sends `events` at their absolute times to whoever is subscribed then.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(testScheduler: self, recordedEvents: events)
    }

    /// A cold observable: each subscriber gets `events`, their times taken as offsets from its
    /// subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(testScheduler: self, recordedEvents: events)
    }

    /// An observer that records every event it receives with the virtual time of arrival.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Runs `action` at absolute virtual time `time`.
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    /// Creates the sequence at `created`, subscribes to it at `subscribed`, disposes the
    /// subscription at `disposed`, runs the scheduler and returns what the observer recorded.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        created: TestTime,
        subscribed: TestTime,
        disposed: TestTime,
        create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        var source: Observable<Element>?
        var subscription: Disposable?
        let observer = createObserver(Element.self)

        _ = scheduleAbsoluteVirtual((), time: created) { _ in
            source = create().asObservable()
            return Disposables.create()
        }
        _ = scheduleAbsoluteVirtual((), time: subscribed) { _ in
            subscription = source?.subscribe(observer)
            return Disposables.create()
        }
        _ = scheduleAbsoluteVirtual((), time: disposed) { _ in
            subscription?.dispose()
            subscription = nil
            source = nil
            return Disposables.create()
        }
        start()
        return observer
    }

    /// `start` with creation at 100 and subscription at 200.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        disposed: TestTime,
        create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// `start` with creation at 100, subscription at 200 and disposal at 1000.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        _ create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }
}

/// Converts `TestScheduler` ticks to dates and spans: real time = ticks × resolution.
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType {
    public typealias VirtualTimeUnit = Int
    public typealias VirtualTimeIntervalUnit = Int

    private let resolution: Double

    init(resolution: Double) {
        precondition(resolution > 0, "resolution must be positive")
        self.resolution = resolution
    }

    public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: Double(virtualTime) * resolution)
    }

    public func convertToVirtualTime(_ time: RxTime) -> Int {
        Int((time.timeIntervalSince1970 / resolution).rounded())
    }

    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        Double(virtualTimeInterval) * resolution
    }

    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
        Int((timeInterval / resolution).rounded())
    }

    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        time + offset
    }

    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}
