extension ObservableType {
    /// The source's elements, or `default` when it completes without any.
    ///
    /// ```swift
    /// Observable<Int>.empty().ifEmpty(default: 0)   // 0, completed
    /// ```
    public func ifEmpty(default: Element, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        IfEmpty(source: asObservable(), fallback: .element(`default`), callSite: CallSite(file, line))
    }

    /// The source's elements, or, when it completes without any, those of `other`.
    ///
    /// ```swift
    /// cache.ifEmpty(switchTo: network)   // asks the network only when the cache has nothing
    /// ```
    public func ifEmpty(
        switchTo other: Observable<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        IfEmpty(source: asObservable(), fallback: .sequence(other), callSite: CallSite(file, line))
    }
}

/// What `ifEmpty` gives when the source completes empty.
enum IfEmptyFallback<Element> {
    /// This element, then `completed` (`ifEmpty(default:)`, RxSwift's `DefaultIfEmpty`).
    case element(Element)
    /// This sequence's events (`ifEmpty(switchTo:)`, RxSwift's `SwitchIfEmpty`).
    case sequence(Observable<Element>)
}

/// Passes the source on; when it completes empty, sends the default element, or lets go of
/// the source and subscribes to the other sequence, whose events then go straight downstream.
final class IfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let fallback: IfEmptyFallback<Element>
    private var isEmpty = true
    let sourceSubscription = SingleAssignmentDisposable()
    let fallbackSubscription = SingleAssignmentDisposable()

    init(fallback: IfEmptyFallback<Element>, observer: Observer, cancel: SinkDisposer, counter: ResourceCounter) {
        self.fallback = fallback
        super.init(observer: observer, cancel: cancel, counter: counter)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, fallbackSubscription)
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
            switch fallback {
            case .element(let element):
                forwardNext(element)
                forwardCompletedAndDispose()
            case .sequence(let other):
                sourceSubscription.dispose()
                fallbackSubscription.setDisposable(other.subscribe(forwarder()))
            }
        }
    }
}

/// The producer of both forms: a `DefaultIfEmpty` node, or a `SwitchIfEmpty` one.
final class IfEmpty<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let fallback: IfEmptyFallback<Element>

    init(source: Observable<Element>, fallback: IfEmptyFallback<Element>, callSite: CallSite?) {
        self.source = source
        self.fallback = fallback
        switch fallback {
        case .element:
            super.init(counter: .defaultIfEmpty, callSite: callSite)
            traceSource(source)
        case .sequence(let other):
            super.init(counter: .switchIfEmpty, callSite: callSite)
            traceSource(source)
            traceSource(other)
        }
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let counter: ResourceCounter
        switch fallback {
        case .element: counter = .defaultIfEmptySink
        case .sequence: counter = .switchIfEmptySink
        }
        let sink = IfEmptySink(fallback: fallback, observer: observer, cancel: cancel, counter: counter)
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
