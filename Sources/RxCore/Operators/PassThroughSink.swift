/// A sink that passes every event straight on and ends with its source: the sink of operators
/// whose work is done in `run` or around the subscription (`startWith`, `subscribe(on:)`,
/// `using`, `delaySubscription`), and the base of `ResubscribingSink`.
class PassThroughSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func onNext(_ element: Element) {
        forwardNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}
