import Foundation

extension ObservableType {
    /// On each element of this observable, combines it with the latest element of `second`
    /// using `resultSelector`. Elements that arrive before `second` has emitted are dropped.
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
        _ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<ResultType> {
        WithLatestFrom(
            first: asObservable(), second: second.asObservable(), resultSelector: resultSelector,
            callSite: CallSite(file, line))
    }

    /// On each element of this observable, emits the latest element of `second`.
    ///
    /// ```swift
    /// button.rx.tap.withLatestFrom(textField.rx.text)
    /// ```
    public func withLatestFrom<Source: ObservableConvertibleType>(
        _ second: Source, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Source.Element> {
        WithLatestFrom(
            first: asObservable(), second: second.asObservable(), resultSelector: { $1 }, callSite: CallSite(file, line)
        )
    }
}

final class WithLatestFromSink<FirstType, SecondType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = FirstType
    typealias ResultSelector = (FirstType, SecondType) throws -> Observer.Element

    fileprivate let lock = NSRecursiveLock()
    private let resultSelector: ResultSelector
    fileprivate let secondSubscription = SingleAssignmentDisposable()
    /// The latest element of `second`. Guarded by `lock`.
    fileprivate var latest: SecondType?

    init(resultSelector: @escaping ResultSelector, observer: Observer, cancel: SinkDisposer) {
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.withLatestFromSink)
    }

    func run(first: Observable<FirstType>, second: Observable<SecondType>) -> Disposable {
        secondSubscription.setDisposable(second.subscribe(WithLatestFromSecond(parent: self)))
        let firstSubscription = first.subscribe(self)
        return Disposables.create(firstSubscription, secondSubscription)
    }

    func onNext(_ value: FirstType) {
        lock.lock(); defer { lock.unlock() }
        guard let latest else { return }
        do {
            forwardNext(try resultSelector(value, latest))
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func on(_ event: Event<FirstType>) {
        switch event {
        case .next(let value):
            onNext(value)
        case .error(let error):
            lock.lock(); defer { lock.unlock() }
            forwardOn(.error(error))
            dispose()
        case .completed:
            lock.lock(); defer { lock.unlock() }
            forwardOn(.completed)
            dispose()
        }
    }
}

final class WithLatestFromSecond<FirstType, SecondType, Observer: ObserverType>: ObserverBase<SecondType> {
    private let parent: WithLatestFromSink<FirstType, SecondType, Observer>

    init(parent: WithLatestFromSink<FirstType, SecondType, Observer>) {
        self.parent = parent
        super.init(counter: ResourceCounter.withLatestFromSecond)
        traceEdge(traceID, parent.traceID, .forward)
    }

    override func onNextCore(_ value: SecondType) {
        parent.lock.lock(); defer { parent.lock.unlock() }
        parent.latest = value
    }

    override func onCore(_ event: Event<SecondType>) {
        switch event {
        case .next(let value):
            onNextCore(value)
        case .error(let error):
            parent.lock.lock(); defer { parent.lock.unlock() }
            parent.forwardOn(.error(error))
            parent.dispose()
        case .completed:
            parent.lock.lock(); defer { parent.lock.unlock() }
            parent.secondSubscription.dispose()
        }
    }
}

final class WithLatestFrom<FirstType, SecondType, ResultType>: Producer<ResultType> {
    private let first: Observable<FirstType>
    private let second: Observable<SecondType>
    private let resultSelector: (FirstType, SecondType) throws -> ResultType

    init(
        first: Observable<FirstType>, second: Observable<SecondType>,
        resultSelector: @escaping (FirstType, SecondType) throws -> ResultType, callSite: CallSite?
    ) {
        self.first = first
        self.second = second
        self.resultSelector = resultSelector
        super.init(counter: ResourceCounter.withLatestFrom, callSite: callSite)
        traceSource(first)
        traceSource(second)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == ResultType {
        let sink = WithLatestFromSink(resultSelector: resultSelector, observer: observer, cancel: cancel)
        let subscription = sink.run(first: first, second: second)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let withLatestFrom = named("WithLatestFrom")
    fileprivate static let withLatestFromSecond = named("WithLatestFromSecond")
    fileprivate static let withLatestFromSink = named("WithLatestFromSink")
}
