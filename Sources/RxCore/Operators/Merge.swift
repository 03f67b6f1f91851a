import Foundation
import Synchronization

extension ObservableType {
    /// Maps each element to an observable and merges the elements of all of them ("升维" then
    /// "降维": an observable of observables flattened back into one).
    ///
    /// ```swift
    /// Observable.of(1, 2).flatMap { Observable.of($0, $0 * 10) }   // 1, 10, 2, 20
    /// ```
    public func flatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Source.Element> {
        FlatMap(
            source: asObservable(), selector: selector, limit: .none, counter: .flatMap, callSite: CallSite(file, line))
    }

    /// Like `flatMap`, but ignores elements that arrive while an inner observable is still
    /// running.
    public func flatMapFirst<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Source.Element> {
        FlatMap(
            source: asObservable(), selector: selector, limit: .firstOnly, counter: .flatMapFirst,
            callSite: CallSite(file, line))
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the elements of every inner observable; completes when the outer and all inner
    /// observables have completed.
    public func merge(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element.Element> {
        FlatMap(
            source: asObservable(), selector: { $0 }, limit: .none, counter: .flatMap, callSite: CallSite(file, line))
    }

    /// Merges the inner observables, with at most `maxConcurrent` subscribed at a time; the
    /// others wait in arrival order.
    public func merge(
        maxConcurrent: Int, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element.Element> {
        precondition(maxConcurrent > 0, "merge(maxConcurrent:): maxConcurrent must be positive")
        return FlatMap(
            source: asObservable(), selector: { $0 }, limit: .maxConcurrent(maxConcurrent), counter: .mergeLimited,
            callSite: CallSite(file, line))
    }
}

extension ObservableType {
    /// Merges the elements of `sources`; completes when all of them have completed.
    public static func merge<Collection: Swift.Collection>(
        _ sources: Collection, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Collection.Element == Observable<Element> {
        MergeArray(sources: Array(sources), callSite: CallSite(file, line))
    }

    /// Merges the elements of `sources`; completes when all of them have completed.
    public static func merge(
        _ sources: [Observable<Element>], file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        MergeArray(sources: sources, callSite: CallSite(file, line))
    }

    /// Merges the elements of `sources`; completes when all of them have completed.
    public static func merge(
        _ sources: Observable<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        MergeArray(sources: sources, callSite: CallSite(file, line))
    }
}

// MARK: - The sinks

/// What every merging sink shares: `MergeSink` (`flatMap`, `flatMapFirst`, `merge()`, static
/// `merge`) and `MergeLimitedSink` (`merge(maxConcurrent:)`, `concatMap`, `concat()`). They differ
/// only in what an outer element does (`onNext`) and in sources waiting their turn.
///
/// Events arrive from the outer source and from every inner one, possibly on several threads
/// and possibly re-entrantly (an inner source fed from a subscriber downstream). A recursive
/// lock serializes them, as in RxSwift, so downstream sees `next* (error | completed)?`.
///
/// The running inner observers form an intrusive doubly linked list, newest first (RxSwift keeps
/// them in a `CompositeDisposable`): adding and removing one costs no allocation and no hashing,
/// which is most of the cost of a short-lived inner such as `just`. Disposal walks it backwards,
/// oldest first, the order of the `CompositeDisposable`'s `Bag`.
class MergeSinkBase<SourceElement, Source: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>,
    ObserverType
where Observer.Element == Source.Element {
    typealias Element = SourceElement
    typealias ResultElement = Source.Element
    typealias Inner = MergeInnerObserver<SourceElement, Source, Observer>

    let lock = NSRecursiveLock()
    /// Guards the list of running inners (`head`, `innersDisposed`, each inner's links and
    /// subscription) and is never held while calling out. Disposal takes only this one: taking
    /// `lock` there deadlocks two nested merges fed from two threads (the outer disposing the
    /// inner under its lock while the inner forwards into the outer under its own).
    private let listLock = Mutex(())
    private let selector: (SourceElement) throws -> Source
    /// Names the inner observers in live counts and traces.
    private let innerCounter: ResourceCounter
    /// `Inner`, looked up once: naming it in `subscribeInner` would look its generic type up
    /// at every inner (about 330 instructions, a tenth of a `just` inner's cost).
    private let innerType: Inner.Type
    fileprivate let sourceSubscription = SingleAssignmentDisposable()
    // Guarded by `lock` (so no dynamic exclusivity checks: the lock orders every access).
    @exclusivity(unchecked) var activeCount = 0
    @exclusivity(unchecked) var stopped = false
    // Guarded by `listLock`.
    @exclusivity(unchecked) private var innersDisposed = false
    @exclusivity(unchecked) fileprivate var head: Inner?
    // Set in `run`, before any event can arrive.
    @exclusivity(unchecked) private var groupTraceID: UInt64 = 0

    init(
        selector: @escaping (SourceElement) throws -> Source, innerCounter: ResourceCounter, observer: Observer,
        cancel: SinkDisposer, counter: ResourceCounter
    ) {
        self.selector = selector
        self.innerCounter = innerCounter
        self.innerType = Inner.self
        super.init(observer: observer, cancel: cancel, counter: counter)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        let group = makeGroup()
        sourceSubscription.setDisposable(source.subscribe(self))
        return group
    }

    /// The subscription `run` returns; in a trace it owns the outer subscription and every inner.
    final func makeGroup() -> Disposable {
        let group = Disposables.create(with: disposeAll)
        if traceID != 0 {
            groupTraceID = traceNodeID(of: group)
            traceEdge(groupTraceID, sourceSubscription.traceID, .owns)
        }
        return group
    }

    /// An outer element. Subclasses override it.
    func onNext(_ element: SourceElement) {
        fatalError("MergeSinkBase.onNext must be overridden")
    }

    /// The source `selector` makes of an outer element; nil when it threw, which ends the
    /// sequence with that error. Called under `lock`.
    final func source(for element: SourceElement) -> Observable<ResultElement>? {
        do {
            return try selector(element).asObservable()
        } catch {
            forwardErrorAndDispose(error)
            return nil
        }
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            lock.lock(); defer { lock.unlock() }
            forwardOn(.error(error))
            dispose()
        case .completed:
            lock.lock(); defer { lock.unlock() }
            stopped = true
            outerCompleted()
        }
    }

    /// The outer source completed: `flatMap`'s family disposes it, then ends unless an inner still
    /// runs (RxSwift's `MergeSink`: `sourceSubscription.dispose()`, then `checkCompleted()`).
    /// `MergeLimitedSink` overrides it. Called under `lock`.
    func outerCompleted() {
        sourceSubscription.dispose()
        if activeCount == 0 { forwardCompletedAndDispose() }
    }

    /// Subscribes a new inner observer to `source`, unless everything was disposed.
    final func subscribeInner(_ source: Observable<ResultElement>) {
        let inner = innerType.init(parent: self, counter: innerCounter)
        if groupTraceID != 0 { traceEdge(groupTraceID, inner.traceID, .owns) }
        let linked = listLock.withLock { _ in
            if innersDisposed { return false }
            inner.next = head
            head?.previous = inner
            head = inner
            return true
        }
        if !linked { return }

        let subscription = inner.subscribe(to: source)
        if inner.traceID != 0 { traceEdge(inner.traceID, traceNodeID(of: subscription), .owns) }

        // The inner may have finished (or everything may have been disposed) during subscribe.
        let disposeNow = listLock.withLock { _ in
            let disposeNow = inner.finished || innersDisposed
            if !disposeNow { inner.subscription = subscription }
            return disposeNow
        }
        if disposeNow { subscription.dispose() }
    }

    /// Takes `inner` out of the list and returns its subscription (a no-op when it had none).
    private func unlink(_ inner: Inner) -> Disposable {
        var subscription: Disposable = NopDisposable()
        listLock.withLock { _ in subscription = unlinkLocked(inner) }
        return subscription
    }

    private func unlinkLocked(_ inner: Inner) -> Disposable {
        if inner.finished { return NopDisposable() }
        inner.finished = true
        if let previous = inner.previous { previous.next = inner.next } else if head === inner { head = inner.next }
        inner.next?.previous = inner.previous
        inner.previous = nil
        inner.next = nil
        return takeDisposable(&inner.subscription)
    }

    /// An inner source completed: the next waiting source takes its place, else the sequence
    /// ends once the outer one has. Called under `lock`.
    fileprivate final func innerCompleted(_ inner: Inner) {
        unlink(inner).dispose()
        if subscribeNextWaiting() { return }
        activeCount -= 1
        if stopped && activeCount == 0 { forwardCompletedAndDispose() }
    }

    /// Subscribes the next source waiting its turn, if any; true when there was one. Called
    /// under `lock`.
    func subscribeNextWaiting() -> Bool { false }

    /// The subscription `run` returns: disposes the outer subscription, then every inner one,
    /// oldest first (the order of RxSwift's `CompositeDisposable`).
    /// Sources still waiting their turn stay until the sink goes: they are guarded by `lock`,
    /// which disposal must not take, and nothing subscribes them any more.
    private func disposeAll() {
        sourceSubscription.dispose()
        var subscriptions: [Disposable] = []
        listLock.withLock { _ in
            innersDisposed = true
            while let inner = head { subscriptions.append(unlinkLocked(inner)) }
        }
        for subscription in subscriptions.reversed() { subscription.dispose() }
    }
}

/// Subscribed to one inner source of a merging sink; a node of the sink's list of running inners.
final class MergeInnerObserver<SourceElement, Source: ObservableConvertibleType, Observer: ObserverType>: ObserverBase<
    Source.Element
>
where Observer.Element == Source.Element {
    private let parent: MergeSinkBase<SourceElement, Source, Observer>
    // Guarded by the parent's `listLock` (so no dynamic exclusivity checks).
    @exclusivity(unchecked) fileprivate var previous: MergeInnerObserver?
    @exclusivity(unchecked) fileprivate var next: MergeInnerObserver?
    // A no-op until subscribed and after (docs/architecture.md, "No optional existentials").
    @exclusivity(unchecked) fileprivate var subscription: Disposable = NopDisposable()
    @exclusivity(unchecked) fileprivate var finished = false

    required init(parent: MergeSinkBase<SourceElement, Source, Observer>, counter: ResourceCounter) {
        self.parent = parent
        super.init(counter: counter)
        traceEdge(traceID, parent.traceID, .forward)
    }

    /// `source.subscribe(self)`, from here so that the witness table is found through this
    /// object's own type rather than by looking `MergeInnerObserver<…>` up.
    func subscribe(to source: Observable<Source.Element>) -> Disposable {
        source.subscribe(self)
    }

    override func onNextCore(_ element: Source.Element) {
        parent.lock.lock(); defer { parent.lock.unlock() }
        parent.forwardNext(element)
    }

    override func onCore(_ event: Event<Source.Element>) {
        switch event {
        case .next(let element):
            onNextCore(element)
        case .error:
            parent.lock.lock(); defer { parent.lock.unlock() }
            parent.forwardOn(event)
            parent.dispose()
        case .completed:
            onCompletedCore()
        }
    }

    /// The end of an inner source, without an `Event`: most inners (`just`) end this way.
    override func onCompletedCore() {
        parent.lock.lock(); defer { parent.lock.unlock() }
        parent.innerCompleted(self)
    }
}

/// The sink of `flatMap`, `flatMapFirst`, `merge()` and static `merge`: every outer element's
/// source is subscribed at once (`flatMapFirst`: only while none is running).
final class MergeSink<SourceElement, Source: ObservableConvertibleType, Observer: ObserverType>: MergeSinkBase<
    SourceElement, Source, Observer
>
where Observer.Element == Source.Element {
    private let firstOnly: Bool

    init(
        selector: @escaping (SourceElement) throws -> Source, firstOnly: Bool, observer: Observer, cancel: SinkDisposer
    ) {
        self.firstOnly = firstOnly
        super.init(
            selector: selector, innerCounter: .mergeInnerObserver, observer: observer, cancel: cancel,
            counter: .mergeSink)
    }

    /// Static `merge`: every source is an inner one. The "outer" ends once all are subscribed,
    /// so sources that complete while being subscribed end the merge only after the last one's
    /// `subscribe` (RxSwift's `MergeSink.run(_ sources:)` sets `stopped` after its loop).
    func run(sources: [Observable<ResultElement>]) -> Disposable {
        let group = makeGroup()
        lock.lock()
        activeCount = sources.count
        lock.unlock()
        for source in sources { subscribeInner(source) }
        lock.lock(); defer { lock.unlock() }
        stopped = true
        if activeCount == 0 { forwardCompletedAndDispose() }
        return group
    }

    override func onNext(_ element: SourceElement) {
        lock.lock()
        guard !(firstOnly && activeCount > 0), let inner = source(for: element) else {
            lock.unlock()
            return
        }
        activeCount += 1
        lock.unlock()
        subscribeInner(inner)
    }
}

/// The sink of `merge(maxConcurrent:)`, `concatMap` and `concat()` (static `concat` has its own,
/// `ConcatSink`, as in RxSwift).
///
/// Sources beyond `maxConcurrent` wait in `queue`. When an inner source completes, the next
/// waiting one is subscribed.
/// Inner sources that complete synchronously inside `subscribe` would make that a recursion as
/// deep as the number of sources; instead the thread already subscribing picks them up in a loop
/// (`handoff`), so `concat` of 100,000 `just`s runs in constant stack.
final class MergeLimitedSink<SourceElement, Source: ObservableConvertibleType, Observer: ObserverType>:
    MergeSinkBase<SourceElement, Source, Observer>
where Observer.Element == Source.Element {
    private let maxConcurrent: Int
    // Guarded by `lock`.
    private var queue = FIFOQueue<Observable<ResultElement>>()
    private var subscribing = false
    private var handoff: [Observable<ResultElement>] = []

    init(
        selector: @escaping (SourceElement) throws -> Source, maxConcurrent: Int, observer: Observer,
        cancel: SinkDisposer
    ) {
        self.maxConcurrent = maxConcurrent
        super.init(
            selector: selector, innerCounter: .mergeLimitedInnerObserver, observer: observer, cancel: cancel,
            counter: .mergeLimitedSink)
    }

    override func onNext(_ element: SourceElement) {
        lock.lock()
        guard let inner = source(for: element) else {
            lock.unlock()
            return
        }
        if activeCount < maxConcurrent {
            activeCount += 1
            if subscribing {
                handoff.append(inner)
                lock.unlock()
            } else {
                subscribing = true
                lock.unlock()
                subscribeLoop(inner)
            }
        } else {
            queue.append(inner)
            lock.unlock()
        }
    }

    /// Subscribes `first`, then whatever was handed off while subscribing. The caller has set
    /// `subscribing`.
    private func subscribeLoop(_ first: Observable<ResultElement>) {
        var current: Observable<ResultElement>? = first
        while let source = current {
            subscribeInner(source)
            lock.lock()
            if handoff.isEmpty || isDisposed {
                subscribing = false
                handoff.removeAll()
                current = nil
            } else {
                current = handoff.removeFirst()
            }
            lock.unlock()
        }
    }

    /// RxSwift's `MergeLimitedSink` passes the outer completion on before disposing the outer
    /// subscription, and disposes it first only when inners still run.
    override func outerCompleted() {
        if activeCount == 0 { forwardCompletedAndDispose() } else { sourceSubscription.dispose() }
    }

    override func subscribeNextWaiting() -> Bool {
        guard let next = queue.popFirst() else { return false }
        if subscribing {
            handoff.append(next)
        } else {
            subscribing = true
            subscribeLoop(next)
        }
        return true
    }
}

// MARK: - Producers

/// The producer of every merge of a source's inner observables: `flatMap`, `flatMapFirst`,
/// `merge()`, `merge(maxConcurrent:)`, `concatMap`, `concat()`.
final class FlatMap<SourceElement, Source: ObservableConvertibleType>: Producer<Source.Element> {
    /// How many inner sources run at once.
    enum Limit {
        /// All of them (`flatMap`, `merge()`).
        case none
        /// One; elements that arrive while it runs are dropped (`flatMapFirst`).
        case firstOnly
        /// At most this many; the others wait their turn (`merge(maxConcurrent:)`, `concat`).
        case maxConcurrent(Int)
    }

    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Source
    private let limit: Limit

    init(
        source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Source, limit: Limit,
        counter: ResourceCounter, callSite: CallSite?
    ) {
        self.source = source
        self.selector = selector
        self.limit = limit
        super.init(counter: counter, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Source.Element {
        let sink: MergeSinkBase<SourceElement, Source, Observer>
        switch limit {
        case .none, .firstOnly:
            let firstOnly = if case .firstOnly = limit { true } else { false }
            sink = MergeSink(selector: selector, firstOnly: firstOnly, observer: observer, cancel: cancel)
        case .maxConcurrent(let count):
            sink = MergeLimitedSink(selector: selector, maxConcurrent: count, observer: observer, cancel: cancel)
        }
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

final class MergeArray<Element>: Producer<Element> {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>], callSite: CallSite?) {
        self.sources = sources
        super.init(counter: ResourceCounter.mergeArray, callSite: callSite)
        for source in sources { traceSource(source) }
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = MergeSink<Observable<Element>, Observable<Element>, Observer>(
            selector: { $0 }, firstOnly: false, observer: observer, cancel: cancel)
        let subscription = sink.run(sources: sources)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let flatMap = named("FlatMap")
    fileprivate static let mergeSink = named("MergeSink")
    fileprivate static let mergeInnerObserver = named("MergeInnerObserver")
    fileprivate static let mergeLimitedInnerObserver = named("MergeLimitedInnerObserver")
    fileprivate static let flatMapFirst = named("FlatMapFirst")
    fileprivate static let mergeArray = named("MergeArray")
    fileprivate static let mergeLimited = named("MergeLimited")
    fileprivate static let mergeLimitedSink = named("MergeLimitedSink")
}
