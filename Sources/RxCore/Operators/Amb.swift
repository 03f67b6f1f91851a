import Foundation

extension ObservableType {
    /// Mirrors whichever of `self` and `right` says something first (element, error or
    /// completion); the other is disposed.
    public func amb<O2: ObservableType>(
        _ right: O2, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where O2.Element == Element {
        Amb(sources: [asObservable(), right.asObservable()], callSite: CallSite(file, line))
    }

    /// Mirrors whichever of `sequence` says something first; the others are disposed.
    public static func amb<Sequence: Swift.Sequence>(
        _ sequence: Sequence, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Sequence.Element == Observable<Element> {
        Amb(sources: Array(sequence), callSite: CallSite(file, line))
    }
}

final class AmbSink<Observer: ObserverType>: Sink<Observer> {
    typealias Element = Observer.Element

    fileprivate let lock = NSRecursiveLock()
    private var subscriptions: [SingleAssignmentDisposable] = []
    /// The index of the winner, once one has spoken. Guarded by `lock`.
    private var winner: Int?

    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.ambSink)
    }

    func run(_ sources: [Observable<Element>]) -> Disposable {
        subscriptions = sources.map { _ in SingleAssignmentDisposable() }
        let all = Disposables.create(subscriptions)
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(AmbObserver(parent: self, index: index)))
        }
        if sources.isEmpty {
            forwardOn(.completed)
            dispose()
        }
        return all
    }

    fileprivate func onNext(_ element: Element, from index: Int) {
        lock.lock(); defer { lock.unlock() }
        if isWinner(index) { forwardNext(element) }
    }

    fileprivate func on(_ event: Event<Element>, from index: Int) {
        if case .next(let element) = event { return onNext(element, from: index) }
        lock.lock(); defer { lock.unlock() }
        guard isWinner(index) else { return }
        forwardOn(event)
        dispose()
    }

    /// Whether source `index` is the winner, making it the winner if nobody spoke yet (and
    /// disposing the others). Called under `lock`.
    private func isWinner(_ index: Int) -> Bool {
        if winner == nil {
            winner = index
            for (other, subscription) in subscriptions.enumerated() where other != index {
                subscription.dispose()
            }
        }
        return winner == index
    }
}

final class AmbObserver<Observer: ObserverType>: ObserverBase<Observer.Element> {
    private let parent: AmbSink<Observer>
    private let index: Int

    init(parent: AmbSink<Observer>, index: Int) {
        self.parent = parent
        self.index = index
        super.init(counter: ResourceCounter.ambObserver)
        traceEdge(traceID, parent.traceID, .forward)
    }

    override func onNextCore(_ element: Observer.Element) {
        parent.onNext(element, from: index)
    }

    override func onCore(_ event: Event<Observer.Element>) {
        parent.on(event, from: index)
    }
}

final class Amb<Element>: Producer<Element> {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>], callSite: CallSite?) {
        self.sources = sources
        super.init(counter: ResourceCounter.amb, callSite: callSite)
        for source in sources { traceSource(source) }
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = AmbSink(observer: observer, cancel: cancel)
        let subscription = sink.run(sources)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let amb = named("Amb")
    fileprivate static let ambObserver = named("AmbObserver")
    fileprivate static let ambSink = named("AmbSink")
}
