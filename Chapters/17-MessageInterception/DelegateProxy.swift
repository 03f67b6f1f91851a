// RxCocoa's DelegateProxy on the runtime model: `_RXDelegateProxy` (`_RXDelegateProxy.m`), which
// gets every delegate message it does not implement through the runtime's forwarding,
// `DelegateProxy` (`DelegateProxy.swift`), which turns them into `sentMessage` / `methodInvoked`
// events, and `DelegateProxyType.proxy(for:)` (`DelegateProxyType.swift`), which installs one proxy
// per object as its delegate and keeps the delegate that was there to forward to.
import RxCore

/// `_RXDelegateProxy`'s class. It implements no delegate method: a delegate message reaches it
/// through forwarding (`methodSignatureForSelector:` finds the encoding in the adopted protocol),
/// and its `forwardInvocation:` does the work. Its `respondsToSelector:` is DelegateProxy's.
let _RXDelegateProxyClass: RuntimeClass = {
    let cls = RuntimeClass("_RXDelegateProxy", superclass: NSObjectClass)
    cls.define("forwardInvocation:", "v@:@") { this, arguments in
        (this as! DelegateProxy).forwardInvocation(arguments[0] as! NSInvocation)
        return nil
    }
    cls.define("respondsToSelector:", "B@::") { this, arguments in
        (this as! DelegateProxy).responds(to: arguments[0] as! Selector)
    }
    return cls
}()

/// RxCocoa's `DelegateProxy<P, D>`: the delegate installed on a parent object.
class DelegateProxy: RuntimeObject {
    private weak var parentObject: RuntimeObject?
    private weak var forwardToDelegateObject: RuntimeObject?
    private var sentMessageForSelector: [Selector: MessageDispatcher] = [:]
    private var methodInvokedForSelector: [Selector: MessageDispatcher] = [:]
    private let currentDelegateFor: (RuntimeObject) -> RuntimeObject?
    private let setCurrentDelegateTo: (RuntimeObject?, RuntimeObject) -> Void
    /// `voidSelectorsPerClass[self.class]`: what `+initialize` collected from the adopted
    /// protocols (`collectVoidSelectorsForProtocol:`). Only these can be observed: a delegate
    /// method that returns something customizes behaviour, and no event can answer it.
    let voidSelectors: Set<Selector>

    init<Proxy: DelegateProxyType>(parentObject: RuntimeObject, delegateProxy: Proxy.Type, isa: RuntimeClass) {
        self.parentObject = parentObject
        currentDelegateFor = { Proxy.currentDelegate(for: $0 as! Proxy.ParentObject) }
        setCurrentDelegateTo = { Proxy.setCurrentDelegate($0, to: $1 as! Proxy.ParentObject) }
        voidSelectors = Set(
            isa.protocols.flatMap(\.methods).filter { $0.encoding.hasPrefix("v") }.map(\.selector))
        super.init(isa: isa)
    }

    /// Elements are a delegate message's arguments, sent *before* it is forwarded.
    func sentMessage(_ selector: Selector) -> Observable<[Any]> {
        dispatcher(for: selector, in: &sentMessageForSelector).result
    }

    /// Elements are a delegate message's arguments, sent *after* it was forwarded (000: one
    /// `PublishSubject` per selector, made on first request).
    func methodInvoked(_ selector: Selector) -> Observable<[Any]> {
        dispatcher(for: selector, in: &methodInvokedForSelector).result
    }

    private func dispatcher(for selector: Selector, in table: inout [Selector: MessageDispatcher]) -> MessageDispatcher
    {
        if let existing = table[selector] { return existing }
        let made = MessageDispatcher(selector: selector, delegateProxy: self)
        table[selector] = made
        return made
    }

    /// `_RXDelegateProxy`'s `forwardInvocation:`: for a void method, `_sentMessage`, then the
    /// message goes on to the real delegate if it implements it, then `_methodInvoked`.
    func forwardInvocation(_ invocation: NSInvocation) {
        RuntimeLog.nested("-[_RXDelegateProxy forwardInvocation:] \(invocation.selector)") {
            let isVoid = invocation.methodSignature.hasPrefix("v")
            if isVoid { sentMessageForSelector[invocation.selector]?.dispatcher.on(.next(invocation.arguments)) }
            if let delegate = forwardToDelegateObject, respondsToSelector(delegate, invocation.selector) {
                RuntimeLog.line("[invocation invokeWithTarget:\(delegate)]")
                invocation.invoke(withTarget: delegate)
            }
            if isVoid { methodInvokedForSelector[invocation.selector]?.dispatcher.on(.next(invocation.arguments)) }
        }
    }

    /// DelegateProxy's `responds(to:)`: what the proxy's class implements, what the real
    /// delegate implements, and a void protocol method somebody observes.
    func responds(to selector: Selector) -> Bool {
        object_getClass(self).instanceMethod(selector) != nil
            || (forwardToDelegateObject.map { respondsToSelector($0, selector) } ?? false)
            || (voidSelectors.contains(selector) && hasObservers(selector))
    }

    private func hasObservers(_ selector: Selector) -> Bool {
        (sentMessageForSelector[selector]?.dispatcher.hasObservers ?? false)
            || (methodInvokedForSelector[selector]?.dispatcher.hasObservers ?? false)
    }

    /// `forwardToDelegate()`: the delegate that was there before the proxy.
    func forwardToDelegate() -> RuntimeObject? { forwardToDelegateObject }

    /// `setForwardToDelegate(_:retainDelegate:)` (not retained here, as `proxy(for:)` asks).
    func setForwardToDelegate(_ delegate: RuntimeObject?) {
        forwardToDelegateObject = delegate
        reset()
    }

    /// `reset()`: set the parent's delegate to nil and back to the proxy, so that the parent
    /// asks `respondsToSelector:` again — UIKit and WebKit ask when the delegate is set and
    /// remember the answers, and the answers change when a method gains its first observer.
    fileprivate func reset() {
        guard let parentObject, currentDelegateFor(parentObject) === self else { return }
        RuntimeLog.nested("DelegateProxy.reset(): the parent's delegate is set to nil and back") {
            setCurrentDelegateTo(nil, parentObject)
            setCurrentDelegateTo(self, parentObject)
        }
    }

    deinit {
        for dispatcher in sentMessageForSelector.values { dispatcher.dispatcher.on(.completed) }
        for dispatcher in methodInvokedForSelector.values { dispatcher.dispatcher.on(.completed) }
    }
}

/// RxCocoa's `MessageDispatcher`: the subject of one selector, shared; subscribing or disposing
/// resets the parent's delegate, so it asks `respondsToSelector:` again. (RxCocoa also moves the
/// subscription to the main scheduler; the chapter runs on the main thread, where that changes
/// nothing.)
final class MessageDispatcher {
    let dispatcher = PublishSubject<[Any]>()
    let result: Observable<[Any]>

    init(selector: Selector, delegateProxy: DelegateProxy) {
        result =
            dispatcher
            .do(
                onSubscribed: { [weak delegateProxy] in delegateProxy?.reset() },
                onDispose: { [weak delegateProxy] in delegateProxy?.reset() }
            )
            .share()
    }
}

// MARK: - DelegateProxyType

/// RxCocoa's `DelegateProxyType`: how a proxy class finds, makes and installs its proxy.
protocol DelegateProxyType: DelegateProxy {
    associatedtype ParentObject: RuntimeObject
    /// The delegate property's current value.
    static func currentDelegate(for object: ParentObject) -> RuntimeObject?
    /// Sets the delegate property.
    static func setCurrentDelegate(_ delegate: RuntimeObject?, to object: ParentObject)
    /// Registers the proxies of the known parent classes (`register(make:)`).
    static func registerKnownImplementations()
}

/// `DelegateProxyFactory`: per proxy class, how to make a proxy for a parent object.
enum DelegateProxyFactory {
    nonisolated(unsafe) static var factories: [ObjectIdentifier: (RuntimeObject) -> DelegateProxy] = [:]
}

extension DelegateProxyType {
    /// The associated object key the proxy is kept under (`identifier`).
    static var identifier: String { "\(Self.self).identifier" }

    static func register(make: @escaping (ParentObject) -> Self) {
        DelegateProxyFactory.factories[ObjectIdentifier(Self.self)] = { make($0 as! ParentObject) }
    }

    static func createProxy(for object: ParentObject) -> Self {
        if DelegateProxyFactory.factories[ObjectIdentifier(Self.self)] == nil { registerKnownImplementations() }
        return DelegateProxyFactory.factories[ObjectIdentifier(Self.self)]!(object) as! Self
    }

    static func assignedProxy(for object: ParentObject) -> Self? {
        object.associatedObject(identifier) as? Self
    }

    static func assignProxy(_ proxy: Self, toObject object: ParentObject) {
        object.setAssociatedObject(identifier, proxy)
    }

    /// `proxy(for:)` (000's `proxyForObject`, renamed in RxSwift 4.0): the object's proxy, made
    /// and kept as an associated object the first time; if the object's delegate is something
    /// else, that delegate becomes the one to forward to and the proxy takes its place.
    static func proxy(for object: ParentObject) -> Self {
        let proxy: Self
        if let existing = assignedProxy(for: object) {
            proxy = existing
        } else {
            proxy = createProxy(for: object)
            assignProxy(proxy, toObject: object)
            RuntimeLog.line("\(Self.self).proxy(for: \(object)): made \(proxy), kept as an associated object")
        }
        let currentDelegate = currentDelegate(for: object)
        if currentDelegate !== proxy {
            RuntimeLog.nested(
                "\(Self.self).proxy(for: \(object)): forwards to \(currentDelegate.map { "\($0)" } ?? "nil"), "
                    + "becomes the delegate"
            ) {
                proxy.setForwardToDelegate(currentDelegate)
                setCurrentDelegate(proxy, to: object)
            }
        }
        return proxy
    }
}
