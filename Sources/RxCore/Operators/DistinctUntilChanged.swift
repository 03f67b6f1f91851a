extension ObservableType where Element: Equatable {
    /// Drops an element equal to the one before it.
    ///
    /// ```swift
    /// Observable.of(1, 1, 2, 2, 1).distinctUntilChanged()   // 1, 2, 1
    /// ```
    public func distinctUntilChanged(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        DistinctUntilChanged(
            source: asObservable(), selector: { $0 }, comparer: { $0 == $1 }, callSite: CallSite(file, line))
    }
}

extension ObservableType {
    /// Drops an element whose key equals the key of the element before it.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping (Element) throws -> Key, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        DistinctUntilChanged(
            source: asObservable(), selector: keySelector, comparer: { $0 == $1 }, callSite: CallSite(file, line))
    }

    /// Drops an element that `comparer` calls equal to the element before it.
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) throws -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        DistinctUntilChanged(
            source: asObservable(), selector: { $0 }, comparer: comparer, callSite: CallSite(file, line))
    }

    /// Drops an element whose key `comparer` calls equal to the previous element's key.
    public func distinctUntilChanged<K>(
        _ keySelector: @escaping (Element) throws -> K, comparer: @escaping (K, K) throws -> Bool,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        DistinctUntilChanged(
            source: asObservable(), selector: keySelector, comparer: comparer, callSite: CallSite(file, line))
    }

    /// Drops an element whose value at `keyPath` equals the previous element's.
    public func distinctUntilChanged<Property: Equatable>(
        at keyPath: KeyPath<Element, Property>, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        DistinctUntilChanged(
            source: asObservable(), selector: { $0[keyPath: keyPath] }, comparer: { $0 == $1 },
            callSite: CallSite(file, line))
    }
}

final class DistinctUntilChangedSink<Observer: ObserverType, Key>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let selector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool
    /// The last key, boxed rather than a `Key?` (docs/architecture.md, "Generic metadata").
    private var currentKey: DistinctKeyBox<Key>?

    init(
        selector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool, observer: Observer,
        cancel: SinkDisposer
    ) {
        self.selector = selector
        self.comparer = comparer
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.distinctUntilChangedSink)
    }

    func onNext(_ value: Element) {
        do {
            let key = try selector(value)
            if let current = currentKey {
                if try comparer(current.value, key) { return }
                current.value = key
            } else {
                currentKey = DistinctKeyBox(key)
            }
            forwardNext(value)
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            onNext(value)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

final class DistinctUntilChanged<Element, Key>: Producer<Element> {
    private let source: Observable<Element>
    private let selector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool

    init(
        source: Observable<Element>, selector: @escaping (Element) throws -> Key,
        comparer: @escaping (Key, Key) throws -> Bool, callSite: CallSite?
    ) {
        self.source = source
        self.selector = selector
        self.comparer = comparer
        super.init(counter: ResourceCounter.distinctUntilChanged, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = DistinctUntilChangedSink(selector: selector, comparer: comparer, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

final class DistinctKeyBox<Key> {
    var value: Key
    init(_ value: Key) { self.value = value }
}

extension ResourceCounter {
    fileprivate static let distinctUntilChanged = named("DistinctUntilChanged")
    fileprivate static let distinctUntilChangedSink = named("DistinctUntilChangedSink")
}
