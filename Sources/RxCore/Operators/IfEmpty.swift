extension ObservableType {
    /// The source's elements, or `default` when it completes without any.
    ///
    /// ```swift
    /// Observable<Int>.empty().ifEmpty(default: 0)   // 0, completed
    /// ```
    public func ifEmpty(default: Element, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        DefaultIfEmpty(source: asObservable(), default: `default`, callSite: CallSite(file, line))
    }

    /// The source's elements, or, when it completes without any, those of `other`.
    ///
    /// ```swift
    /// cache.ifEmpty(switchTo: network)   // asks the network only when the cache has nothing
    /// ```
    public func ifEmpty(
        switchTo other: Observable<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        SwitchIfEmpty(source: asObservable(), other: other, callSite: CallSite(file, line))
    }
}

// MARK: - ifEmpty(default:)

final class DefaultIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let `default`: Element
    private var isEmpty = true

    init(default: Element, observer: Observer, cancel: Cancelable) {
        self.default = `default`
        super.init(observer: observer, cancel: cancel, counter: .defaultIfEmptySink)
    }

    func onNext(_ element: Element) {
        isEmpty = false
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardErrorAndDispose(error)
        case .completed:
            if isEmpty { forwardNext(`default`) }
            forwardCompletedAndDispose()
        }
    }
}

final class DefaultIfEmpty<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let `default`: Element

    init(source: Observable<Element>, default: Element, callSite: CallSite?) {
        self.source = source
        self.default = `default`
        super.init(counter: .defaultIfEmpty, callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = DefaultIfEmptySink(default: `default`, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - ifEmpty(switchTo:)

/// Passes the source on; when it completes empty, lets go of it and subscribes to `other`,
/// whose events then go straight downstream.
final class SwitchIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let other: Observable<Element>
    private var isEmpty = true
    let sourceSubscription = SingleAssignmentDisposable()
    let otherSubscription = SingleAssignmentDisposable()

    init(other: Observable<Element>, observer: Observer, cancel: Cancelable) {
        self.other = other
        super.init(observer: observer, cancel: cancel, counter: .switchIfEmptySink)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, otherSubscription)
    }

    func onNext(_ element: Element) {
        isEmpty = false
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardErrorAndDispose(error)
        case .completed:
            guard isEmpty else { return forwardCompletedAndDispose() }
            sourceSubscription.dispose()
            otherSubscription.setDisposable(other.subscribe(forwarder()))
        }
    }
}

final class SwitchIfEmpty<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Element>

    init(source: Observable<Element>, other: Observable<Element>, callSite: CallSite?) {
        self.source = source
        self.other = other
        super.init(counter: .switchIfEmpty, callSite: callSite)
        traceSource(source)
        traceSource(other)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: Cancelable
    ) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = SwitchIfEmptySink(other: other, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let defaultIfEmpty = named("DefaultIfEmpty")
    fileprivate static let defaultIfEmptySink = named("DefaultIfEmptySink")
    fileprivate static let switchIfEmpty = named("SwitchIfEmpty")
    fileprivate static let switchIfEmptySink = named("SwitchIfEmptySink")
}
