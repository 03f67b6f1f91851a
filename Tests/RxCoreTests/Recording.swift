import RxCore
import RxTesting

/// What a subscriber at 200 records of the sequence `make` builds on a fresh `TestScheduler`,
/// so that each check in a test runs on a clock of its own.
///
/// ```swift
/// #expect(recorded { $0.createHotObservable(events).map { $0 * 2 } } == [.next(210, 2), .completed(300)])
/// ```
func recorded<Sequence: ObservableConvertibleType>(
    disposed: TestTime = TestScheduler.Defaults.disposed, _ make: @escaping (TestScheduler) -> Sequence
) -> [Recorded<Event<Sequence.Element>>] {
    let scheduler = TestScheduler(initialClock: 0)
    return scheduler.start(disposed: disposed) { make(scheduler) }.events
}
