import Foundation

extension ObservableType {
    /// On each element (or completion) of `sampler`, emits the latest element of the source
    /// if a new one arrived since the previous sample, else `defaultValue` if given. The result
    /// completes when the source has completed and the sampler ticks (or completes) after it.
    public func sample<Source: ObservableType>(
        _ sampler: Source, defaultValue: Element? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Sample(
            source: asObservable(), sampler: sampler.asObservable(), defaultValue: defaultValue,
            callSite: CallSite(file, line))
    }
}

final class SampleSink<SampleType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    fileprivate let lock = NSRecursiveLock()
    private let defaultValue: Element?
    private let sourceSubscription = SingleAssignmentDisposable()
    private let samplerSubscription = SingleAssignmentDisposable()
    // Guarded by `lock`.
    private var element: Element?
    private var atEnd = false

    init(defaultValue: Element?, observer: Observer, cancel: SinkDisposer) {
        self.defaultValue = defaultValue
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.sampleSink)
    }

    func run(source: Observable<Element>, sampler: Observable<SampleType>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        samplerSubscription.setDisposable(sampler.subscribe(SamplerObserver(parent: self)))
        return Disposables.create(sourceSubscription, samplerSubscription)
    }

    func onNext(_ value: Element) {
        lock.lock(); defer { lock.unlock() }
        element = value
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            onNext(value)
        case .error:
            lock.lock(); defer { lock.unlock() }
            forwardOn(event)
            dispose()
        case .completed:
            lock.lock(); defer { lock.unlock() }
            atEnd = true
            sourceSubscription.dispose()
        }
    }

    fileprivate func samplerOn(_ event: Event<SampleType>) {
        lock.lock(); defer { lock.unlock() }
        switch event {
        case .next, .completed:
            if let value = element ?? defaultValue {
                element = nil
                forwardNext(value)
            }
            if atEnd {
                forwardOn(.completed)
                dispose()
            }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        }
    }
}

final class SamplerObserver<SampleType, Observer: ObserverType>: ObserverBase<SampleType> {
    private let parent: SampleSink<SampleType, Observer>

    init(parent: SampleSink<SampleType, Observer>) {
        self.parent = parent
        super.init(counter: ResourceCounter.samplerObserver)
        traceEdge(traceID, parent.traceID, .forward)
    }

    override func onCore(_ event: Event<SampleType>) {
        parent.samplerOn(event)
    }
}

final class Sample<Element, SampleType>: Producer<Element> {
    private let source: Observable<Element>
    private let sampler: Observable<SampleType>
    private let defaultValue: Element?

    init(source: Observable<Element>, sampler: Observable<SampleType>, defaultValue: Element?, callSite: CallSite?) {
        self.source = source
        self.sampler = sampler
        self.defaultValue = defaultValue
        super.init(counter: ResourceCounter.sample, callSite: callSite)
        traceSource(source)
        traceSource(sampler)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = SampleSink<SampleType, Observer>(defaultValue: defaultValue, observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, sampler: sampler)
        return (sink: sink, subscription: subscription)
    }
}

extension ResourceCounter {
    fileprivate static let sample = named("Sample")
    fileprivate static let sampleSink = named("SampleSink")
    fileprivate static let samplerObserver = named("SamplerObserver")
}
