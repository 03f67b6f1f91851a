import Foundation
import Synchronization

extension ObservableType {
    /// Emits an element only after `dueTime` has passed without another one; when the source
    /// completes, the element still waiting is emitted first.
    ///
    /// ```swift
    /// searchText.debounce(.milliseconds(300), scheduler: MainScheduler.instance)
    /// ```
    public func debounce(
        _ dueTime: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Debounce(source: asObservable(), dueTime: dueTime, scheduler: scheduler, callSite: CallSite(file, line))
    }
}

/// What `debounce` remembers between events.
struct DebounceStateMachine<Element> {
    enum State {
        /// No element is waiting.
        case idle
        /// `element` waits for the timer numbered `id`; a newer element restarts the wait.
        case waiting(element: Element, id: UInt64)
        /// Terminated.
        case finished
    }

    /// What the sink must do, outside the state lock.
    enum Action {
        /// Nothing.
        case none
        /// Start timer `id` (which replaces the previous timer).
        case startTimer(id: UInt64)
        /// Send the element.
        case send(Element)
        /// Send the waiting element if any, then `completed`.
        case complete(flush: Element?)
        /// Send the error.
        case fail
    }

    private(set) var state = State.idle
    private var lastID: UInt64 = 0

    mutating func next(_ element: Element) -> Action {
        if case .finished = state { return .none }
        lastID &+= 1
        state = .waiting(element: element, id: lastID)
        return .startTimer(id: lastID)
    }

    mutating func timerFired(id: UInt64) -> Action {
        guard case .waiting(let element, let current) = state, current == id else { return .none }
        state = .idle
        return .send(element)
    }

    mutating func completed() -> Action {
        switch state {
        case .idle:
            state = .finished
            return .complete(flush: nil)
        case .waiting(let element, _):
            state = .finished
            return .complete(flush: element)
        case .finished:
            return .none
        }
    }

    mutating func failed() -> Action {
        if case .finished = state { return .none }
        state = .finished
        return .fail
    }
}

/// The sink of `debounce`. Transitions under a `Mutex`; sending outside it, under a recursive
/// `gate` shared with the timer.
final class DebounceSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let gate = NSRecursiveLock()
    private let machine = Mutex(DebounceStateMachine<Element>())
    private let timer = SerialDisposable()

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.debounceSink)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        Disposables.create(source.subscribe(self), timer)
    }

    func onNext(_ element: Element) {
        gate.lock(); defer { gate.unlock() }
        perform(machine.withLock { $0.next(element) })
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

    private func timerFired(id: UInt64) {
        gate.lock(); defer { gate.unlock() }
        perform(machine.withLock { $0.timerFired(id: id) })
    }

    private func perform(_ action: DebounceStateMachine<Element>.Action) {
        switch action {
        case .none, .fail:
            break
        case .startTimer(let id):
            timer.disposable = scheduler.scheduleRelative(id, dueTime: dueTime) { [weak self] id in
                self?.timerFired(id: id)
                return Disposables.create()
            }
        case .send(let element):
            forwardNext(element)
        case .complete(let flush):
            if let flush { forwardOn(.next(flush)) }
            forwardOn(.completed)
            dispose()
        }
    }
}

final class Debounce<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType, callSite: CallSite?) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.debounce, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = DebounceSink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let debounce = named("Debounce")
    fileprivate static let debounceSink = named("DebounceSink")
}
