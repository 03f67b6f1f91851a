import Foundation
import Synchronization

extension ObservableType {
    /// Emits an element, then ignores elements for `dueTime`. With `latest: true` (the
    /// default) the last element that arrived during the silent period is emitted when it ends.
    ///
    /// ```swift
    /// button.rx.tap.throttle(.milliseconds(500), scheduler: MainScheduler.instance)
    /// ```
    public func throttle(
        _ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Observable<Element> {
        Throttle(
            source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler,
            callSite: CallSite(file, line))
    }
}

/// What `throttle` remembers between events.
struct ThrottleStateMachine<Element> {
    enum State {
        /// Nothing sent yet, or the last send is older than the due time: the next element
        /// goes out at once.
        case open(lastSent: Date?)
        /// An element went out at `lastSent`; `pending` is the latest element held back, to be
        /// sent when the timer fires (only with `latest`).
        case throttling(lastSent: Date, pending: Element?, timerScheduled: Bool)
        /// The source completed while an element was held back; the timer sends it, then
        /// `completed`.
        case completing(pending: Element)
        /// Terminated.
        case finished
    }

    /// What the sink must do, outside the state lock.
    enum Action {
        /// Nothing.
        case none
        /// Send the element now.
        case send(Element)
        /// Start the timer; it fires after `after` seconds.
        case scheduleTimer(after: TimeInterval)
        /// Send the element, then `completed`.
        case sendAndComplete(Element)
        /// Send `completed`.
        case complete
        /// The source completed while an element is held back: stop listening to the source,
        /// the timer finishes the sequence.
        case disposeSource
        /// Send the error.
        case fail
    }

    private(set) var state = State.open(lastSent: nil)
    let dueTime: TimeInterval
    let latest: Bool

    init(dueTime: TimeInterval, latest: Bool) {
        self.dueTime = dueTime
        self.latest = latest
    }

    mutating func next(_ element: Element, now: Date) -> Action {
        switch state {
        case .open(let lastSent):
            if let lastSent, dueTime - now.timeIntervalSince(lastSent) > 0 {
                state = .throttling(lastSent: lastSent, pending: nil, timerScheduled: false)
                return next(element, now: now)
            }
            return .send(element)
        case .throttling(let lastSent, _, let timerScheduled):
            let remaining = dueTime - now.timeIntervalSince(lastSent)
            if remaining <= 0 {
                // The period is over but the timer has not run yet: send now.
                state = .open(lastSent: lastSent)
                return .send(element)
            }
            guard latest else { return .none }
            state = .throttling(lastSent: lastSent, pending: element, timerScheduled: true)
            return timerScheduled ? .none : .scheduleTimer(after: remaining)
        case .completing, .finished:
            return .none
        }
    }

    /// The element went out at `now`.
    mutating func sent(now: Date) {
        if case .finished = state { return }
        if case .completing = state { return }
        state = .throttling(lastSent: now, pending: nil, timerScheduled: false)
    }

    mutating func timerFired() -> Action {
        switch state {
        case .throttling(let lastSent, let pending, _):
            guard let pending else {
                state = .throttling(lastSent: lastSent, pending: nil, timerScheduled: false)
                return .none
            }
            return .send(pending)
        case .completing(let pending):
            state = .finished
            return .sendAndComplete(pending)
        case .open, .finished:
            return .none
        }
    }

    mutating func completed() -> Action {
        switch state {
        case .throttling(_, let pending?, _):
            state = .completing(pending: pending)
            return .disposeSource
        case .open, .throttling:
            state = .finished
            return .complete
        case .completing, .finished:
            return .none
        }
    }

    mutating func failed() -> Action {
        if case .finished = state { return .none }
        state = .finished
        return .fail
    }
}

/// The sink of `throttle`. State transitions happen under a `Mutex`; sending happens outside it,
/// under a recursive `gate` shared with the timer so downstream sees one event at a time.
final class ThrottleSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let scheduler: SchedulerType
    private let gate = NSRecursiveLock()
    private let machine: Mutex<ThrottleStateMachine<Element>>
    private let timer = SerialDisposable()
    private let sourceSubscription = SingleAssignmentDisposable()

    init(dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.scheduler = scheduler
        self.machine = Mutex(ThrottleStateMachine(dueTime: dueTime.throttleSeconds, latest: latest))
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.throttleSink)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, timer)
    }

    func onNext(_ element: Element) {
        gate.lock(); defer { gate.unlock() }
        let now = scheduler.now
        perform(machine.withLock { $0.next(element, now: now) })
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            gate.lock(); defer { gate.unlock() }
            if case .fail = machine.withLock({ $0.failed() }) {
                forwardOn(.error(error))
                dispose()
            }
        case .completed:
            gate.lock(); defer { gate.unlock() }
            perform(machine.withLock { $0.completed() })
        }
    }

    private func timerFired() {
        gate.lock(); defer { gate.unlock() }
        perform(machine.withLock { $0.timerFired() })
    }

    private func perform(_ action: ThrottleStateMachine<Element>.Action) {
        switch action {
        case .none, .fail:
            break
        case .send(let element):
            forwardNext(element)
            // Measured after sending, as RxSwift does: slow processing widens the gap.
            let now = scheduler.now
            machine.withLock { $0.sent(now: now) }
        case .scheduleTimer(let seconds):
            timer.disposable = scheduler.scheduleRelative((), dueTime: .throttleInterval(seconds)) { [weak self] _ in
                self?.timerFired()
                return Disposables.create()
            }
        case .sendAndComplete(let element):
            forwardOn(.next(element))
            forwardOn(.completed)
            dispose()
        case .complete:
            forwardOn(.completed)
            dispose()
        case .disposeSource:
            sourceSubscription.dispose()
        }
    }
}

final class Throttle<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType

    init(
        source: Observable<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType,
        callSite: CallSite?
    ) {
        self.source = source
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.throttle, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = ThrottleSink(
            dueTime: dueTime, latest: latest, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

extension DispatchTimeInterval {
    /// The span in seconds (`.never` is infinite).
    fileprivate var throttleSeconds: TimeInterval {
        switch self {
        case .seconds(let value): return TimeInterval(value)
        case .milliseconds(let value): return TimeInterval(value) / 1_000
        case .microseconds(let value): return TimeInterval(value) / 1_000_000
        case .nanoseconds(let value): return TimeInterval(value) / 1_000_000_000
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }

    /// `seconds` as a nanosecond interval, rounded.
    fileprivate static func throttleInterval(_ seconds: TimeInterval) -> DispatchTimeInterval {
        .nanoseconds(Int((seconds * 1_000_000_000).rounded()))
    }
}

extension ResourceCounter {
    fileprivate static let throttle = named("Throttle")
    fileprivate static let throttleSink = named("ThrottleSink")
}
