/// The observer `subscribe(onNext:…)` makes: calls its closure from `onCore`.
public final class AnonymousObserver<Element>: ObserverBase<Element> {
    public typealias EventHandler = (Event<Element>) -> Void

    private let eventHandler: EventHandler

    public init(_ eventHandler: @escaping EventHandler, file: StaticString = #fileID, line: UInt = #line) {
        self.eventHandler = eventHandler
        super.init(counter: .anonymousObserver, callSite: CallSite(file, line))
    }

    init(_ eventHandler: @escaping EventHandler, callSite: CallSite?) {
        self.eventHandler = eventHandler
        super.init(counter: .anonymousObserver, callSite: callSite)
    }

    public override func onCore(_ event: Event<Element>) {
        eventHandler(event)
    }
}
