extension ObservableType {
    /// Emits `elements` first, then subscribes to the source.
    ///
    /// ```swift
    /// Observable.of(3, 4).startWith(1, 2)   // 1, 2, 3, 4
    /// ```
    public func startWith(_ elements: Element..., file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        StartWith(source: asObservable(), elements: elements, callSite: CallSite(file, line))
    }
}

/// Emits the prefix straight into the observer, then hands the observer to the source: no sink
/// of its own is needed, as in RxSwift.
final class StartWith<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let elements: [Element]

    init(source: Observable<Element>, elements: [Element], callSite: CallSite?) {
        self.source = source
        self.elements = elements
        super.init(counter: ResourceCounter.named("StartWith"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        for element in elements {
            if cancel.isDisposed { return (sink: Disposables.create(), subscription: Disposables.create()) }
            observer.on(.next(element))
        }
        return (sink: Disposables.create(), subscription: source.subscribe(observer))
    }
}
