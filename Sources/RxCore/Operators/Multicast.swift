import Foundation

/// A sequence that starts sending only when `connect()` is called, sharing one subscription to
/// its source among all its subscribers.
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the shared subject to the source. Disposing the result disconnects.
    func connect() -> Disposable
}

/// Base class of connectable sequences (`publish()`, `replay(_:)`, `multicast(_:)`).
open class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType {
    public init(counter: ResourceCounter? = nil, callSite: CallSite? = nil) {
        super.init(kind: .observable, counter: counter, callSite: callSite)
    }

    open func connect() -> Disposable {
        fatalError("ConnectableObservable.connect must be overridden by \(type(of: self))")
    }
}

extension ObservableType {
    /// A connectable sequence that multicasts the source through `subject`, the same subject for
    /// every connection.
    ///
    /// ```swift
    /// let shared = source.multicast(PublishSubject<Int>())
    /// shared.subscribe(…); shared.subscribe(…)
    /// let connection = shared.connect()
    /// ```
    public func multicast<Subject: SubjectType>(
        _ subject: Subject, file: StaticString = #fileID, line: UInt = #line
    ) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: { subject }, callSite: CallSite(file, line))
    }

    /// A connectable sequence that multicasts the source through a subject made by
    /// `makeSubject`; a connection that ends (source terminated or disconnected) drops its
    /// subject, so the next connection gets a fresh one.
    public func multicast<Subject: SubjectType>(
        makeSubject: @escaping () -> Subject, file: StaticString = #fileID, line: UInt = #line
    ) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: makeSubject, callSite: CallSite(file, line))
    }

    /// `multicast` through a `PublishSubject`: subscribers get what is emitted after they subscribe.
    public func publish(file: StaticString = #fileID, line: UInt = #line) -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject<Element>(file: file, line: line) }, file: file, line: line)
    }

    /// `multicast` through a `ReplaySubject` of `bufferSize`: late subscribers get the last
    /// `bufferSize` elements first.
    public func replay(
        _ bufferSize: Int, file: StaticString = #fileID, line: UInt = #line
    ) -> ConnectableObservable<Element> {
        multicast(
            makeSubject: { ReplaySubject<Element>.create(bufferSize: bufferSize, file: file, line: line) }, file: file,
            line: line)
    }

    /// `multicast` through an unbounded `ReplaySubject`: late subscribers get every element.
    public func replayAll(file: StaticString = #fileID, line: UInt = #line) -> ConnectableObservable<Element> {
        multicast(
            makeSubject: { ReplaySubject<Element>.createUnbounded(file: file, line: line) }, file: file, line: line)
    }
}

/// The subscription of a connectable sequence's subject to its source.
final class MulticastConnection<Subject: SubjectType>: ObserverBase<Subject.Observer.Element> {
    typealias Element = Subject.Observer.Element

    private weak var parent: ConnectableObservableAdapter<Subject>?
    private let lock: NSRecursiveLock
    private let subjectObserver: Subject.Observer
    /// False for `share(replay: 0 or 1)` while connected: see `ConnectableObservableAdapter`.
    private let disposesSourceOnEnd: Bool
    let subscription = SingleAssignmentDisposable()
    private var disposedOnce = false

    init(
        parent: ConnectableObservableAdapter<Subject>, subjectObserver: Subject.Observer, lock: NSRecursiveLock,
        disposesSourceOnEnd: Bool
    ) {
        self.parent = parent
        self.lock = lock
        self.subjectObserver = subjectObserver
        self.disposesSourceOnEnd = disposesSourceOnEnd
        super.init(counter: ResourceCounter.named("MulticastConnection"))
        traceEdge(traceID, traceNodeID(of: subjectObserver), .forward)
    }

    override func onCore(_ event: Event<Element>) {
        if event.isStopEvent { disconnect(disposingSource: disposesSourceOnEnd) }
        subjectObserver.on(event)
    }

    override func dispose() {
        disconnect(disposingSource: true)
        super.dispose()
    }

    /// Ends the connection, once; after the source's end, disposing it again does nothing.
    private func disconnect(disposingSource: Bool) {
        lock.lock()
        let first = !disposedOnce
        disposedOnce = true
        if first, let parent, parent.connection === self {
            parent.connection = nil
            parent.subject = nil
        }
        parent = nil
        lock.unlock()
        if first && disposingSource { subscription.dispose() }
    }
}

/// `multicast`'s connectable: subscribers subscribe to the (lazily made) subject; `connect()`
/// subscribes the subject to the source, once per connection.
final class ConnectableObservableAdapter<Subject: SubjectType>: ConnectableObservable<Subject.Element> {
    typealias Element = Subject.Element

    private let source: Observable<Subject.Observer.Element>
    private let makeSubject: () -> Subject
    /// Whether the source's end disposes the subscription to it before the subject hears of it,
    /// as RxSwift's `multicast` does. RxSwift's `share(replay: 0 or 1)` while connected is an
    /// operator of its own (`ShareReplayScope.swift`) that leaves the source to end its
    /// subscription itself, so a `do(afterError:)` above it runs before its `onDispose`.
    private let disposesSourceOnEnd: Bool
    // Recursive, as in RxSwift: `connect` subscribes to the source while holding it, and the
    // source may deliver (and so reach this adapter again) synchronously.
    let lock = NSRecursiveLock()
    var subject: Subject?
    var connection: MulticastConnection<Subject>?

    init(
        source: Observable<Subject.Observer.Element>, makeSubject: @escaping () -> Subject,
        disposesSourceOnEnd: Bool = true, callSite: CallSite?
    ) {
        self.source = source
        self.makeSubject = makeSubject
        self.disposesSourceOnEnd = disposesSourceOnEnd
        super.init(counter: ResourceCounter.named("ConnectableObservableAdapter"), callSite: callSite)
        traceSource(source)
    }

    private var lazySubject: Subject {
        if let subject { return subject }
        let subject = makeSubject()
        self.subject = subject
        return subject
    }

    override func connect() -> Disposable {
        lock.lock(); defer { lock.unlock() }
        if let connection { return connection }
        let connection = MulticastConnection(
            parent: self, subjectObserver: lazySubject.asObserver(), lock: lock,
            disposesSourceOnEnd: disposesSourceOnEnd)
        self.connection = connection
        connection.subscription.setDisposable(source.subscribe(connection))
        return connection
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        lock.lock()
        let subject = lazySubject
        lock.unlock()
        return subject.subscribe(observer)
    }
}

// MARK: - refCount

extension ConnectableObservableType {
    /// Connects when the first subscriber arrives and disconnects when the last one leaves.
    ///
    /// ```swift
    /// let shared = source.publish().refCount()
    /// ```
    public func refCount(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        RefCount(source: self, callSite: CallSite(file, line))
    }
}

final class RefCountSink<Connectable: ConnectableObservableType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Connectable.Element == Observer.Element {
    typealias Element = Observer.Element

    private let parent: RefCount<Connectable>
    private var connectionIDSnapshot: Int64 = -1

    init(parent: RefCount<Connectable>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("RefCountSink"))
    }

    func run() -> Disposable {
        let subscription = parent.source.subscribe(self)
        parent.lock.lock()
        connectionIDSnapshot = parent.connectionID
        if isDisposed {
            // The source terminated synchronously while we subscribed.
            parent.lock.unlock()
            return Disposables.create()
        }
        if parent.count == 0 {
            parent.count = 1
            parent.connectableSubscription = parent.source.connect()
        } else {
            parent.count += 1
        }
        parent.lock.unlock()

        return Disposables.create {
            subscription.dispose()
            self.parent.lock.lock()
            defer { self.parent.lock.unlock() }
            guard self.parent.connectionID == self.connectionIDSnapshot else { return }
            if self.parent.count == 1 {
                self.parent.count = 0
                let connection = self.parent.connectableSubscription
                self.parent.connectableSubscription = nil
                connection?.dispose()
            } else if self.parent.count > 1 {
                self.parent.count -= 1
            }
        }
    }

    func onNext(_ element: Element) {
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            parent.lock.lock()
            if parent.connectionID == connectionIDSnapshot {
                let connection = parent.connectableSubscription
                parent.count = 0
                parent.connectionID += 1
                parent.connectableSubscription = nil
                parent.lock.unlock()
                connection?.dispose()
            } else {
                parent.lock.unlock()
            }
            forwardOn(event)
            dispose()
        }
    }
}

final class RefCount<Connectable: ConnectableObservableType>: Producer<Connectable.Element> {
    let lock = NSRecursiveLock()
    var count = 0
    var connectionID: Int64 = 0
    var connectableSubscription: Disposable?
    let source: Connectable

    init(source: Connectable, callSite: CallSite?) {
        self.source = source
        super.init(counter: ResourceCounter.named("RefCount"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = RefCountSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - share

/// How long `share(replay:scope:)` keeps its shared subject.
public enum SubjectLifetimeScope {
    /// While at least one subscriber is connected: when the last leaves (or the source
    /// terminates), the subject is dropped and the next subscriber starts afresh.
    case whileConnected
    /// Forever: one subject for the lifetime of the shared sequence; late subscribers see its
    /// replay buffer and, once the source has terminated, its terminal event. (Rarely wanted.)
    case forever
}

extension ObservableType {
    /// One subscription to the source, shared by all subscribers; new subscribers first get the
    /// last `replay` elements. Cures 003's "MAP printed twice".
    ///
    /// ```swift
    /// let shared = source.map { print("MAP"); return $0 }.share(replay: 1)
    /// ```
    public func share(
        replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        precondition(replay >= 0, "share: replay can't be negative")
        switch scope {
        case .forever:
            if replay == 0 {
                return multicast(PublishSubject<Element>(file: file, line: line), file: file, line: line).refCount(
                    file: file, line: line)
            }
            return multicast(
                ReplaySubject<Element>.create(bufferSize: replay, file: file, line: line), file: file, line: line
            ).refCount(file: file, line: line)
        case .whileConnected:
            // RxSwift has operators of their own for replay 0 and 1, which leave the source's end
            // to the source (`disposesSourceOnEnd`).
            if replay == 0 {
                return ConnectableObservableAdapter(
                    source: asObservable(), makeSubject: { PublishSubject<Element>(file: file, line: line) },
                    disposesSourceOnEnd: false, callSite: CallSite(file, line)
                ).refCount(file: file, line: line)
            }
            if replay == 1 {
                return ConnectableObservableAdapter(
                    source: asObservable(),
                    makeSubject: { ReplaySubject<Element>.create(bufferSize: 1, file: file, line: line) },
                    disposesSourceOnEnd: false, callSite: CallSite(file, line)
                ).refCount(file: file, line: line)
            }
            return multicast(
                makeSubject: { ReplaySubject<Element>.create(bufferSize: replay, file: file, line: line) }, file: file,
                line: line
            ).refCount(file: file, line: line)
        }
    }

    @available(*, deprecated, renamed: "share(replay:)")
    public func shareReplay(_ bufferSize: Int, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element>
    {
        share(replay: bufferSize, scope: .whileConnected, file: file, line: line)
    }
}
