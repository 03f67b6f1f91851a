extension ObservableType {
    /// One element, then `completed`.
    // Inlinable, like `subscribe(onNext:)`: the caller's module names `Just<Int>` and looks its
    // type up once, where an unspecialised call into RxCore looks it up at every call (about 330
    // instructions, a tenth of a `flatMap` inner; docs/performance.md).
    @inlinable
    public static func just(_ element: Element, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element>
    {
        Just(element: element, callSite: CallSite(file, line))
    }

    /// `just` as a function value, as in `.flatMap(Observable.just)`. The form above cannot be
    /// one: its defaulted `file:` and `line:` make its type `(Element, StaticString, UInt) ->
    /// Observable<Element>`. A call prefers the form above, which records where it was written;
    /// a function value has no place of its own to record.
    @_disfavoredOverload
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        Just(element: element, callSite: nil)
    }

    /// One element, then `completed`, both delivered on `scheduler`.
    public static func just(
        _ element: Element, scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        ObservableSequence(elements: CollectionOfOne(element), scheduler: scheduler, callSite: CallSite(file, line))
    }
}

/// `just` delivers straight from `subscribe`: there is nothing to cancel, so no sink is made.
@usableFromInline
final class Just<Element>: Producer<Element> {
    private let element: Element

    @usableFromInline
    init(element: Element, callSite: CallSite?) {
        self.element = element
        super.init(counter: ResourceCounter.rxJust, callSite: callSite)
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        if Tracing.isOn { return tracedSubscribeDelivering(observer, [.next(element), .completed]) }
        observer.onNext(element)
        observer.onCompleted()
        return Disposables.create()
    }
}

extension ResourceCounter {
    fileprivate static let rxJust = named("Just")
}
