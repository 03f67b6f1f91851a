import Foundation
import RxCore

/// An observer that records every event it receives, stamped with the scheduler's clock.
///
/// Unlike `ObserverBase` it does not stop at the first stop event: a sequence that breaks the
/// grammar (`next` after `completed`) shows it in `events`.
public final class TestableObserver<Element>: ObserverType, TraceIdentifiable {
    /// The scheduler whose clock stamps the events.
    public let scheduler: TestScheduler
    private let lock = NSLock()
    private var recorded: [Recorded<Event<Element>>] = []
    private let node = TestNode(named: "TestableObserver")

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Everything received so far, in order.
    public var events: [Recorded<Event<Element>>] {
        lock.lock(); defer { lock.unlock() }
        return recorded
    }

    public func on(_ event: Event<Element>) {
        let time = scheduler.clock
        lock.lock()
        recorded.append(Recorded(time: time, value: event))
        lock.unlock()
    }

    /// The trace node standing for this observer (kind `observer`).
    public var traceID: UInt64 { node.traceID }
}

/// Birth, death and trace node of a test-kit object that is not itself an `ObserverBase`:
/// counted under `name` in `Resources` and traced as an `observer` node.
final class TestNode: ObserverBase<Never> {
    init(named name: String) {
        super.init(counter: ResourceCounter.named(name))
    }

    override func onCore(_ event: Event<Never>) {}
}
