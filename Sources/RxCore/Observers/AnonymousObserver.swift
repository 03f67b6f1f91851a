/// The observer `subscribe(onNext:…)` makes: calls its closure from `onCore`.
public final class AnonymousObserver<Element>: ObserverBase<Element> {
    public typealias EventHandler = (Event<Element>) -> Void

    private let eventHandler: EventHandler
    /// Elements go here directly when set, skipping the `Event` wrapper.
    private let nextHandler: ((Element) -> Void)?

    public init(_ eventHandler: @escaping EventHandler, file: StaticString = #fileID, line: UInt = #line) {
        self.eventHandler = eventHandler
        self.nextHandler = nil
        super.init(counter: .anonymousObserver, callSite: CallSite(file, line))
    }

    init(_ eventHandler: @escaping EventHandler, next: ((Element) -> Void)? = nil, callSite: CallSite?) {
        self.eventHandler = eventHandler
        self.nextHandler = next
        super.init(counter: .anonymousObserver, callSite: callSite)
    }

    public override func onNextCore(_ element: Element) {
        if let nextHandler { nextHandler(element) } else { wrapNext(element) }
    }

    @inline(never)
    private func wrapNext(_ element: Element) { eventHandler(.next(element)) }

    public override func onCore(_ event: Event<Element>) {
        eventHandler(event)
    }
}
