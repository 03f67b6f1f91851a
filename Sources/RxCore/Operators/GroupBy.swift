import Foundation

/// An observable of the elements that share one key, as `groupBy` emits it.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key shared by all elements of this group.
    public let key: Key
    private let source: Observable<Element>

    /// A group with `key` whose elements come from `source`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        source.subscribe(observer)
    }

    public func asObservable() -> Observable<Element> { source }
}

extension ObservableType {
    /// Splits the elements into groups by `keySelector`; each new key emits a
    /// `GroupedObservable` that then receives the elements with that key.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 4).groupBy { $0 % 2 == 0 ? "even" : "odd" }
    /// ```
    public func groupBy<Key: Hashable>(
        keySelector: @escaping (Element) throws -> Key, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<GroupedObservable<Key, Element>> {
        GroupBy(source: asObservable(), keySelector: keySelector, callSite: CallSite(file, line))
    }
}

final class GroupBySink<Key: Hashable, Element, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == GroupedObservable<Key, Element> {
    private let keySelector: (Element) throws -> Key
    private let group = CompositeDisposable()
    /// Keeps the source subscribed while any group is subscribed.
    private let refCount: RefCountDisposable
    private var groups: [Key: PublishSubject<Element>] = [:]

    init(keySelector: @escaping (Element) throws -> Key, observer: Observer, cancel: SinkDisposer) {
        self.keySelector = keySelector
        self.refCount = RefCountDisposable(disposable: group)
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.groupBySink)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        _ = group.insert(source.subscribe(self))
        return refCount
    }

    func onNext(_ value: Element) {
        let key: Key
        do {
            key = try keySelector(value)
        } catch {
            fail(error)
            return
        }
        let writer: PublishSubject<Element>
        if let existing = groups[key] {
            writer = existing
        } else {
            writer = PublishSubject()
            groups[key] = writer
            forwardNext(GroupedObservable(key: key, source: RefCountedObservable(source: writer, refCount: refCount)))
        }
        writer.onNext(value)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            onNext(value)
        case .error(let error):
            fail(error)
        case .completed:
            for writer in groups.values { writer.on(.completed) }
            groups = [:]
            forwardOn(.completed)
            stop()
        }
    }

    private func fail(_ error: Swift.Error) {
        for writer in groups.values { writer.on(.error(error)) }
        groups = [:]
        forwardOn(.error(error))
        stop()
    }

    /// The source is done: lets go of it now, as RxSwift does, even while groups are still
    /// subscribed (they hold the reference count only for a source that is still running).
    private func stop() {
        group.dispose()
        dispose()
    }
}

final class GroupBy<Key: Hashable, Element>: Producer<GroupedObservable<Key, Element>> {
    private let source: Observable<Element>
    private let keySelector: (Element) throws -> Key

    init(source: Observable<Element>, keySelector: @escaping (Element) throws -> Key, callSite: CallSite?) {
        self.source = source
        self.keySelector = keySelector
        super.init(counter: ResourceCounter.groupBy, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable)
    where Observer.Element == GroupedObservable<Key, Element> {
        let sink = GroupBySink(keySelector: keySelector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let groupBy = named("GroupBy")
    fileprivate static let groupBySink = named("GroupBySink")
}
