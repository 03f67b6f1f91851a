extension ObservableType {
    /// No elements, just `completed`.
    public static func empty(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        Empty(callSite: CallSite(file, line))
    }

    /// Never says anything.
    public static func never(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        NeverProducer(callSite: CallSite(file, line))
    }

    /// Fails at once with `error`.
    public static func error(
        _ error: Swift.Error, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        ErrorProducer(error: error, callSite: CallSite(file, line))
    }
}

final class Empty<Element>: Producer<Element> {
    init(callSite: CallSite?) { super.init(counter: ResourceCounter.rxEmpty, callSite: callSite) }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        if Tracing.isOn { return tracedSubscribeDelivering(observer, [.completed]) }
        observer.on(.completed)
        return Disposables.create()
    }
}

final class NeverProducer<Element>: Producer<Element> {
    init(callSite: CallSite?) { super.init(counter: ResourceCounter.rxNever, callSite: callSite) }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        if Tracing.isOn { return tracedSubscribeDelivering(observer, []) }
        return Disposables.create()
    }
}

final class ErrorProducer<Element>: Producer<Element> {
    private let error: Swift.Error

    init(error: Swift.Error, callSite: CallSite?) {
        self.error = error
        super.init(counter: ResourceCounter.rxError, callSite: callSite)
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        if Tracing.isOn { return tracedSubscribeDelivering(observer, [.error(error)]) }
        observer.on(.error(error))
        return Disposables.create()
    }
}

extension ResourceCounter {
    fileprivate static let rxEmpty = named("Empty")
    fileprivate static let rxNever = named("Never")
    fileprivate static let rxError = named("Error")
}
