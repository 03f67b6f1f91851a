import Foundation
import Synchronization

extension ObservableType {
    /// Maps each element to an observable and mirrors only the latest one: a new element
    /// disposes the previous inner subscription before subscribing the new one.
    ///
    /// ```swift
    /// searchText.flatMapLatest { query in api.search(query) }   // stale searches are cancelled
    /// ```
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Source.Element> {
        FlatMapLatest(
            source: asObservable(), selector: selector, callSite: CallSite(file, line),
            counter: ResourceCounter.flatMapLatest)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Mirrors the most recent inner observable, disposing the previous one.
    public func switchLatest(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element.Element> {
        FlatMapLatest(
            source: asObservable(), selector: { $0 }, callSite: CallSite(file, line),
            counter: ResourceCounter.switchLatest)
    }
}

/// What `switchLatest` knows about its outer and inner subscriptions.
///
/// Inner subscriptions are numbered; events of an inner that is no longer the latest are
/// dropped, which is what makes the switch safe when an old inner fires while being disposed.
struct SwitchStateMachine {
    enum State {
        /// The outer source runs; no inner is subscribed (none yet, or the latest completed).
        case waiting
        /// The outer source runs and inner `id` is the latest.
        case switching(id: UInt64)
        /// The outer source completed; inner `id` is still running and will end the sequence.
        case draining(id: UInt64)
        /// Terminated: completed, failed or disposed.
        case finished
    }

    /// What the sink must do after a transition, outside the state lock.
    enum Action {
        /// Nothing.
        case none
        /// Subscribe the new latest inner under `id` (replacing the previous one).
        case subscribeInner(id: UInt64)
        /// Forward the inner element.
        case forward
        /// Dispose the outer subscription only; the latest inner keeps running.
        case disposeOuter
        /// Send `completed` and dispose everything.
        case complete
        /// Dispose the outer subscription, then send `completed` and dispose everything (the outer
        /// source completed with no inner running: RxSwift's `SwitchSink` disposes it first).
        case disposeOuterAndComplete
        /// Send the error and dispose everything.
        case fail
    }

    private(set) var state = State.waiting
    private var lastID: UInt64 = 0

    mutating func outerNext() -> Action {
        switch state {
        case .waiting, .switching:
            lastID &+= 1
            state = .switching(id: lastID)
            return .subscribeInner(id: lastID)
        case .draining, .finished:
            return .none
        }
    }

    mutating func outerCompleted() -> Action {
        switch state {
        case .waiting:
            state = .finished
            return .disposeOuterAndComplete
        case .switching(let id):
            state = .draining(id: id)
            return .disposeOuter
        case .draining, .finished:
            return .none
        }
    }

    mutating func innerNext(id: UInt64) -> Action {
        isLatest(id) ? .forward : .none
    }

    mutating func innerCompleted(id: UInt64) -> Action {
        switch state {
        case .switching(let latest) where latest == id:
            state = .waiting
            return .none
        case .draining(let latest) where latest == id:
            state = .finished
            return .complete
        default:
            return .none
        }
    }

    /// An error of the outer source, of the latest inner, or of the selector.
    mutating func failed(innerID: UInt64? = nil) -> Action {
        if let innerID, !isLatest(innerID) { return .none }
        if case .finished = state { return .none }
        state = .finished
        return .fail
    }

    private func isLatest(_ id: UInt64) -> Bool {
        switch state {
        case .switching(let latest), .draining(let latest): return latest == id
        case .waiting, .finished: return false
        }
    }
}

/// The sink of `flatMapLatest` and `switchLatest`.
///
/// The state machine lives in a `Mutex`; its actions are carried out after the mutex is
/// released. A recursive `gate` is held around each transition and its action so that
/// downstream receives one event at a time, even when an inner source is fed from inside a
/// downstream subscriber.
final class SwitchSink<SourceElement, Source: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>,
    ObserverType
where Observer.Element == Source.Element {
    typealias Element = SourceElement

    private let selector: (SourceElement) throws -> Source
    fileprivate let gate = NSRecursiveLock()
    private let machine = Mutex(SwitchStateMachine())
    private let outerSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()

    init(selector: @escaping (SourceElement) throws -> Source, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.switchSink)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        outerSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(outerSubscription, innerSubscription)
    }

    func onNext(_ element: SourceElement) {
        gate.lock(); defer { gate.unlock() }
        let inner: Observable<Observer.Element>
        do {
            inner = try selector(element).asObservable()
        } catch {
            perform(machine.withLock { $0.failed() }, error: error)
            return
        }
        if case .subscribeInner(let id) = machine.withLock({ $0.outerNext() }) {
            // Replacing the serial disposable disposes the previous inner first.
            let innerObserver = SwitchInnerObserver(parent: self, id: id)
            innerSubscription.disposable = innerObserver.subscription
            innerObserver.subscription.setDisposable(inner.subscribe(innerObserver))
        }
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            gate.lock(); defer { gate.unlock() }
            perform(machine.withLock { $0.failed() }, error: error)
        case .completed:
            gate.lock(); defer { gate.unlock() }
            perform(machine.withLock { $0.outerCompleted() })
        }
    }

    fileprivate func innerNext(_ element: Observer.Element, id: UInt64) {
        gate.lock(); defer { gate.unlock() }
        if case .forward = machine.withLock({ $0.innerNext(id: id) }) { forwardNext(element) }
    }

    fileprivate func innerOn(_ event: Event<Observer.Element>, id: UInt64) {
        switch event {
        case .next(let element):
            innerNext(element, id: id)
        case .error(let error):
            gate.lock(); defer { gate.unlock() }
            perform(machine.withLock { $0.failed(innerID: id) }, error: error)
        case .completed:
            gate.lock(); defer { gate.unlock() }
            perform(machine.withLock { $0.innerCompleted(id: id) })
        }
    }

    private func perform(_ action: SwitchStateMachine.Action, error: Swift.Error? = nil) {
        switch action {
        case .none, .subscribeInner, .forward:
            break
        case .disposeOuter:
            outerSubscription.dispose()
        case .disposeOuterAndComplete:
            outerSubscription.dispose()
            forwardOn(.completed)
            dispose()
        case .complete:
            forwardOn(.completed)
            dispose()
        case .fail:
            forwardOn(.error(error ?? RxError.unknown))
            dispose()
        }
    }
}

/// Subscribed to one inner source of a `SwitchSink`, tagged with its number.
final class SwitchInnerObserver<SourceElement, Source: ObservableConvertibleType, Observer: ObserverType>: ObserverBase<
    Source.Element
>
where Observer.Element == Source.Element {
    private let parent: SwitchSink<SourceElement, Source, Observer>
    private let id: UInt64
    /// This inner's subscription; released as soon as the inner ends.
    let subscription = SingleAssignmentDisposable()

    init(parent: SwitchSink<SourceElement, Source, Observer>, id: UInt64) {
        self.parent = parent
        self.id = id
        super.init(counter: ResourceCounter.switchInnerObserver)
        traceEdge(traceID, parent.traceID, .forward)
    }

    override func onNextCore(_ element: Source.Element) {
        parent.innerNext(element, id: id)
    }

    override func onCore(_ event: Event<Source.Element>) {
        if event.isStopEvent { subscription.dispose() }
        parent.innerOn(event, id: id)
    }
}

final class FlatMapLatest<SourceElement, Source: ObservableConvertibleType>: Producer<Source.Element> {
    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Source

    init(
        source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Source, callSite: CallSite?,
        counter: ResourceCounter
    ) {
        self.source = source
        self.selector = selector
        super.init(counter: counter, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Source.Element {
        let sink = SwitchSink(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let flatMapLatest = named("FlatMapLatest")
    fileprivate static let switchLatest = named("Switch")
    fileprivate static let switchInnerObserver = named("SwitchInnerObserver")
    fileprivate static let switchSink = named("SwitchSink")
}
