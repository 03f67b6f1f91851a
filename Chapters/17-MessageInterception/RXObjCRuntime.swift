// RxCocoa's message interception, on the runtime model of Runtime.swift, function by function
// under the names of `_RXObjCRuntime.m` and `NSObject+Rx.swift`: `registerMessageInterceptor` →
// `RX_ensure_observing` → `ensurePrepared:forObserving:`, which takes one of three paths —
// forwarding (`observeByForwardingMessages`), an optimized method for a known encoding
// (`swizzle_void_id_rx_ulong` & co.), or, for `dealloc`, `swizzleDeallocating`.
import Foundation
import RxCore

/// RxCocoa's prefix for the fake subclass and for the saved original method (`RX_PREFIX`):
/// `_RX_namespace_UIButton`, `_RX_namespace_setTitle:forState:`.
let RX_PREFIX = "_RX_namespace_"

/// `RX_selector`: the name under which the original implementation is kept, and the key of the
/// subject stored on the object.
func RX_selector(_ selector: Selector) -> Selector { RX_PREFIX + selector }

let deallocSelector: Selector = "dealloc"

// MARK: - The observers a selector's messages go to

/// What `registerMessageInterceptor` stores on the object: a subject with the implementation it
/// was installed for (`targetImplementation`).
protocol MessageInterceptorSubject: AnyObject {
    init()
    var targetImplementation: IMP { get set }
}

extension MessageInterceptorSubject {
    /// `RX_default_target_implementation()` (`_objc_msgForward`) until an interceptor is installed.
    var isActive: Bool { targetImplementation !== IMP.msgForward }
}

/// RxCocoa's `MessageSentProxy` (an `RXMessageSentObserver`): `messageSent` fires before the
/// original implementation runs, `methodInvoked` after.
final class MessageSentProxy: MessageInterceptorSubject {
    let messageSent = PublishSubject<[Any]>()
    let methodInvoked = PublishSubject<[Any]>()
    var targetImplementation = IMP.msgForward

    init() {}

    func messageSent(withArguments arguments: [Any]) { messageSent.on(.next(arguments)) }
    func methodInvoked(withArguments arguments: [Any]) { methodInvoked.on(.next(arguments)) }

    deinit {
        messageSent.on(.completed)
        methodInvoked.on(.completed)
    }
}

/// RxCocoa's `DeallocatingProxy` (an `RXDeallocatingObserver`): one `()` when `dealloc` is sent,
/// replayed to a late subscriber; completes when the object's associated objects go.
final class DeallocatingProxy: MessageInterceptorSubject {
    let messageSent = ReplaySubject<Void>.create(bufferSize: 1)
    var targetImplementation = IMP.msgForward

    init() {}

    func deallocating() { messageSent.on(.next(())) }

    deinit { messageSent.on(.completed) }
}

/// RxCocoa's `DeallocObservable`: no swizzling at all — an associated object whose deinit says
/// the object is gone.
final class DeallocObservable {
    let subject = ReplaySubject<Void>.create(bufferSize: 1)

    deinit {
        subject.on(.next(()))
        subject.on(.completed)
    }
}

// MARK: - registerMessageInterceptor, RX_ensure_observing

/// `registerMessageInterceptor`: one subject per (object, selector), an associated object keyed
/// by `RX_selector(selector)`; unless it is active already, `RX_ensure_observing` prepares the
/// object and the subject keeps the implementation it was prepared for.
func registerMessageInterceptor<T: MessageInterceptorSubject>(_ base: RuntimeObject, _ selector: Selector) -> T? {
    let rxSelector = RX_selector(selector)
    let subject: T
    if let existing = base.associatedObject(rxSelector) as? T {
        subject = existing
    } else {
        subject = T()
        base.setAssociatedObject(rxSelector, subject)
        RuntimeLog.line("objc_setAssociatedObject(\(base), \(rxSelector), \(T.self))")
    }
    if subject.isActive { return subject }
    guard let targetImplementation = RX_ensure_observing(base, selector) else { return nil }
    subject.targetImplementation = targetImplementation
    return subject
}

/// `RX_ensure_observing`: under the runtime's lock, `ensurePrepared:forObserving:`.
func RX_ensure_observing(_ target: RuntimeObject, _ selector: Selector) -> IMP? {
    RuntimeLog.nested("RX_ensure_observing(\(target), \(selector))") {
        RXObjCRuntime.instance.ensurePrepared(target, forObserving: selector)
    }
}

// MARK: - RXObjCRuntime

/// The one object through which RxCocoa changes classes (`[RXObjCRuntime instance]`).
final class RXObjCRuntime {
    nonisolated(unsafe) static let instance = RXObjCRuntime()

    private var classesThatSupportObservingByForwarding: Set<String> = []
    private var forwardedSelectorsByClass: [String: Set<Selector>] = [:]
    private var dynamicSubclassByRealClass: [String: RuntimeClass] = [:]
    private var interceptorIMPbySelectorsByClass: [String: [Selector: IMP]] = [:]

    /// `optimizedObserversByMethodEncoding`: the encodings `SWIZZLE_OBSERVE_METHOD` generated a
    /// method for, by the name of that method. RxCocoa has (void), (void, id), (void, id, id) and
    /// the same with `char`, `short`, `int`, `long`, the unsigned ones, a block, `float`,
    /// `double` or `SEL` in place of the last `id`; the model lists the few its classes use.
    static let optimizedObserversByMethodEncoding: [String: String] = [
        "v@:": "swizzle_void",
        "v@:@": "swizzle_void_id",
        "v@:@@": "swizzle_void_id_id",
        "v@:@Q": "swizzle_void_id_rx_ulong",
        "v@:Q": "swizzle_void_rx_ulong",
        "v@:B": "swizzle_void_BOOL",
        "v@:d": "swizzle_void_double",
    ]

    /// `ensurePrepared:forObserving:`, the entry point: refuses what cannot be observed, then
    /// takes the `dealloc` path, the optimized path or the forwarding path.
    func ensurePrepared(_ target: RuntimeObject, forObserving selector: Selector) -> IMP? {
        guard let instanceMethod = classOf(target).instanceMethod(selector) else {
            RuntimeLog.line("error: RXObjCRuntimeErrorSelectorNotImplemented")
            return nil
        }
        if ["class", "forwardingTargetForSelector:", "methodSignatureForSelector:", "respondsToSelector:"]
            .contains(selector)
        {
            RuntimeLog.line("error: RXObjCRuntimeErrorObservingPerformanceSensitiveMessages")
            return nil
        }
        if selector == deallocSelector {
            // The class the object says it is, not a fake subclass: every instance gets the hook,
            // and the associated observer decides which of them report.
            let deallocSwizzlingTarget = classOf(target)
            if let imp = interceptorImplementation(for: selector, of: deallocSwizzlingTarget) { return imp }
            guard swizzleDeallocating(deallocSwizzlingTarget) else { return nil }
            return interceptorImplementation(for: selector, of: deallocSwizzlingTarget)
        }
        guard let swizzlingImplementorClass = prepareTargetClassForObserving(target) else { return nil }
        let encoding = instanceMethod.encoding
        guard "v@#BcsilqCSILQfd*".contains(encoding.first!) else {
            RuntimeLog.line("error: RXObjCRuntimeErrorObservingMessagesWithUnsupportedReturnType (\(encoding))")
            return nil
        }
        if let optimized = Self.optimizedObserversByMethodEncoding[encoding] {
            if let imp = interceptorImplementation(for: selector, of: swizzlingImplementorClass) { return imp }
            RuntimeLog.line("optimizedObserversByMethodEncoding[\"\(encoding)\"] = \(optimized): the optimized path")
            guard swizzleObserveMethod(optimized, swizzlingImplementorClass, selector) else { return nil }
            return interceptorImplementation(for: selector, of: swizzlingImplementorClass)
        }
        if forwardingSelector(selector, for: swizzlingImplementorClass) { return IMP.msgForward }
        RuntimeLog.line("optimizedObserversByMethodEncoding[\"\(encoding)\"] = nil: the forwarding path")
        guard observeByForwardingMessages(swizzlingImplementorClass, selector: selector) else { return nil }
        return IMP.msgForward
    }

    /// `prepareTargetClassForObserving:`: the object's isa becomes the fake subclass (once per
    /// object; the class is remembered in an associated object).
    func prepareTargetClassForObserving(_ target: RuntimeObject) -> RuntimeClass? {
        if let swizzled = target.associatedObject("RxSwizzlingTargetClassKey") as? RuntimeClass { return swizzled }
        let wannaBeClass = classOf(target)
        if wannaBeClass !== object_getClass(target) {
            // Someone else (KVO, typically) already changed the isa.
            RuntimeLog.line("error: RXObjCRuntimeErrorObjectMessagesAlreadyBeingIntercepted")
            return nil
        }
        return RuntimeLog.nested("prepareTargetClassForObserving:") {
            guard let dynamicFakeSubclass = ensureHasDynamicFakeSubclass(wannaBeClass) else { return nil }
            object_setClass(target, dynamicFakeSubclass)
            target.setAssociatedObject("RxSwizzlingTargetClassKey", dynamicFakeSubclass)
            return dynamicFakeSubclass
        }
    }

    /// `ensureHasDynamicFakeSubclass:`: `_RX_namespace_UIButton`, a subclass whose `class` lies
    /// (as KVO's `NSKVONotifying_` classes do), made once per class.
    func ensureHasDynamicFakeSubclass(_ cls: RuntimeClass) -> RuntimeClass? {
        if let existing = dynamicSubclassByRealClass[cls.name] { return existing }
        return RuntimeLog.nested("ensureHasDynamicFakeSubclass: \(cls)") {
            let fake = RuntimeClass(RX_PREFIX + cls.name, superclass: cls)
            RuntimeLog.line("objc_allocateClassPair(\(cls), \"\(fake)\")")
            guard swizzleClass(fake, toActAs: cls) else { return nil }
            RuntimeLog.line("objc_registerClassPair(\(fake))")
            dynamicSubclassByRealClass[cls.name] = fake
            return fake
        }
    }

    /// `observeByForwardingMessages:selector:target:`: the original implementation is kept
    /// under `_RX_namespace_<selector>` and the selector itself becomes `_objc_msgForward`, so
    /// every call of it ends in the swizzled `forwardInvocation:`.
    func observeByForwardingMessages(_ cls: RuntimeClass, selector: Selector) -> Bool {
        RuntimeLog.nested("observeByForwardingMessages:\(cls) selector:\(selector)") {
            guard ensureForwardingMethodsAreSwizzled(cls) else { return false }
            let rxSelector = RX_selector(selector)
            let method = cls.instanceMethod(selector)!
            guard cls.addMethod(rxSelector, method.imp, method.encoding) else {
                RuntimeLog.line("error: RXObjCRuntimeErrorSavingOriginalForwardingMethodFailed")
                return false
            }
            RuntimeLog.line("class_addMethod(\(cls), \(rxSelector), \(method.imp))")
            if cls.addMethod(selector, IMP.msgForward, method.encoding) {
                RuntimeLog.line("class_addMethod(\(cls), \(selector), _objc_msgForward)")
            } else {
                cls.setImplementation(selector, IMP.msgForward)
                RuntimeLog.line("method_setImplementation(\(cls).\(selector), _objc_msgForward)")
            }
            forwardedSelectorsByClass[cls.name, default: []].insert(selector)
            return true
        }
    }

    private func forwardingSelector(_ selector: Selector, for cls: RuntimeClass) -> Bool {
        forwardedSelectorsByClass[cls.name]?.contains(selector) ?? false
    }

    /// `ensureForwardingMethodsAreSwizzled:`: three of the four swizzles, once per class (the
    /// fourth, `class`, was done when the class was made).
    func ensureForwardingMethodsAreSwizzled(_ cls: RuntimeClass) -> Bool {
        if classesThatSupportObservingByForwarding.contains(cls.name) { return true }
        guard swizzleForwardInvocation(cls), swizzleMethodSignatureForSelector(cls), swizzleRespondsToSelector(cls)
        else { return false }
        classesThatSupportObservingByForwarding.insert(cls.name)
        return true
    }

    // MARK: The swizzles (SWIZZLE_INFRASTRUCTURE_METHOD and SWIZZLE_OBSERVE_METHOD)

    /// `swizzleClass:toActAs:`: `[obj class]` answers the real class (`CLASS_BODY`).
    func swizzleClass(_ cls: RuntimeClass, toActAs actAsClass: RuntimeClass) -> Bool {
        swizzle("class", of: cls, as: "swizzleClass:toActAs:\(actAsClass)") { _, _, _ in .answer(actAsClass) }
    }

    /// `swizzleForwardInvocation:`: `forwardInvocation:` first tries `RX_forward_invocation`
    /// (`FORWARD_BODY`).
    func swizzleForwardInvocation(_ cls: RuntimeClass) -> Bool {
        swizzle("forwardInvocation:", of: cls, as: "swizzleForwardInvocation:") { this, arguments, _ in
            RX_forward_invocation(this, arguments[0] as! NSInvocation) ? .answer(nil) : .proceed
        }
    }

    /// `swizzleMethodSignatureForSelector:`: the signature comes from the method the object's
    /// real class has (`METHOD_SIGNATURE_FOR_SELECTOR_BODY`).
    func swizzleMethodSignatureForSelector(_ cls: RuntimeClass) -> Bool {
        swizzle("methodSignatureForSelector:", of: cls, as: "swizzleMethodSignatureForSelector:") {
            this, arguments, _ in
            RX_method_signature(this, arguments[0] as! Selector).map { .answer($0) } ?? .proceed
        }
    }

    /// `swizzleRespondsToSelector:`: yes for anything the object's real class has
    /// (`RESPONDS_TO_SELECTOR_BODY`), so the saved `_RX_namespace_…` methods are found.
    func swizzleRespondsToSelector(_ cls: RuntimeClass) -> Bool {
        swizzle("respondsToSelector:", of: cls, as: "swizzleRespondsToSelector:") { this, arguments, _ in
            RX_responds_to_selector(this, arguments[0] as! Selector) ? .answer(true) : .proceed
        }
    }

    /// `swizzleDeallocating:`: `dealloc` tells the object's `DeallocatingProxy` first
    /// (`DEALLOCATING_BODY`), then deallocates as before.
    func swizzleDeallocating(_ cls: RuntimeClass) -> Bool {
        swizzle(deallocSelector, of: cls, as: "swizzleDeallocating:") { this, _, thisIMP in
            let observer = this.associatedObject(RX_selector(deallocSelector)) as? DeallocatingProxy
            if let observer, observer.targetImplementation === thisIMP {
                RuntimeLog.line("DEALLOCATING_BODY: [observer deallocating]")
                observer.deallocating()
            }
            return .proceed
        }
    }

    /// A method `SWIZZLE_OBSERVE_METHOD` generated for one encoding (`swizzle_void_id_rx_ulong`):
    /// the selector itself is replaced by a method that tells the observer before
    /// (`OBSERVE_BODY`) and after (`OBSERVE_INVOKED_BODY`) calling the original — no forwarding.
    func swizzleObserveMethod(_ name: String, _ cls: RuntimeClass, _ selector: Selector) -> Bool {
        let rxSelector = RX_selector(selector)
        func observer(_ this: RuntimeObject, _ thisIMP: IMP) -> MessageSentProxy? {
            let observer = this.associatedObject(rxSelector) as? MessageSentProxy
            return observer?.targetImplementation === thisIMP ? observer : nil
        }
        return swizzle(
            selector, of: cls, as: "\(name):\(cls) selector:\(selector)",
            body: { this, arguments, thisIMP in
                if let observer = observer(this, thisIMP) {
                    RuntimeLog.line("OBSERVE_BODY: messageSentWithArguments:")
                    observer.messageSent(withArguments: arguments)
                }
                return .proceed
            },
            invoked: { this, arguments, thisIMP in
                if let observer = observer(this, thisIMP) {
                    RuntimeLog.line("OBSERVE_INVOKED_BODY: methodInvokedWithArguments:")
                    observer.methodInvoked(withArguments: arguments)
                }
            })
    }

    /// What a swizzled method's body decides: answer at once, or go on to the implementation
    /// that was there before.
    enum BodyResult {
        case proceed
        case answer(Any?)
    }

    /// `SWIZZLE_METHOD`: the shape every swizzle shares. Its new implementation runs `body`;
    /// unless that answers, it calls the implementation that was there — the class's own (which
    /// it replaced) or, when the class had none, the superclass's (`objc_msgSendSuper`) — and
    /// then `invoked`.
    private func swizzle(
        _ selector: Selector, of cls: RuntimeClass, as name: String,
        body: @escaping (RuntimeObject, [Any], IMP) -> BodyResult,
        invoked: ((RuntimeObject, [Any], IMP) -> Void)? = nil
    ) -> Bool {
        RuntimeLog.nested(name) {
            func implementation(calling next: @escaping (RuntimeObject, [Any]) -> Any?) -> IMP {
                var thisIMP: IMP?
                let imp = IMP("\(name)'s \(selector)") { this, arguments in
                    if case .answer(let value) = body(this, arguments, thisIMP!) { return value }
                    defer { invoked?(this, arguments, thisIMP!) }
                    return next(this, arguments)
                }
                thisIMP = imp
                return imp
            }
            return ensureSwizzledSelector(
                selector, ofClass: cls,
                newImplementationGenerator: {
                    implementation { this, arguments in objc_msgSendSuper(this, cls, selector, arguments) }
                },
                replacementImplementationGenerator: { original in
                    implementation { this, arguments in original.body?(this, arguments) }
                })
        }
    }

    /// `ensureSwizzledSelector:ofClass:newImplementationGenerator:replacementImplementationGenerator:`:
    /// adds the new implementation when the class has no method of its own for the selector,
    /// otherwise replaces the one it has; either way remembers the interceptor.
    func ensureSwizzledSelector(
        _ selector: Selector, ofClass cls: RuntimeClass, newImplementationGenerator: () -> IMP,
        replacementImplementationGenerator: (IMP) -> IMP
    ) -> Bool {
        if interceptorImplementation(for: selector, of: cls) != nil { return true }
        let encoding = cls.instanceMethod(selector)!.encoding
        let newImplementation = newImplementationGenerator()
        if cls.addMethod(selector, newImplementation, encoding) {
            RuntimeLog.line("class_addMethod(\(cls), \(selector), …): new, it calls super's")
            interceptorIMPbySelectorsByClass[cls.name, default: [:]][selector] = newImplementation
            return true
        }
        let original = cls.instanceMethod(selector)!.imp
        let replacement = replacementImplementationGenerator(original)
        cls.setImplementation(selector, replacement)
        RuntimeLog.line("method_setImplementation(\(cls).\(selector), …): replaced, it calls \(original)")
        interceptorIMPbySelectorsByClass[cls.name, default: [:]][selector] = replacement
        return true
    }

    private func interceptorImplementation(for selector: Selector, of cls: RuntimeClass) -> IMP? {
        interceptorIMPbySelectorsByClass[cls.name]?[selector]
    }
}

/// `object_setClass`.
func object_setClass(_ object: RuntimeObject, _ cls: RuntimeClass) {
    RuntimeLog.line("object_setClass(\(object), \(cls))")
    object.isa = cls
}

// MARK: - What the swizzled methods call

/// 000's `RX_forward_invocation`: tell the observer (`messageSentWithArguments:`), run the
/// original under its saved name, tell the observer again (`methodInvokedWithArguments:`).
func RX_forward_invocation(_ this: RuntimeObject, _ invocation: NSInvocation) -> Bool {
    RuntimeLog.nested("RX_forward_invocation(\(this), \(invocation.selector))") {
        let originalSelector = RX_selector(invocation.selector)
        let messageSentObserver = this.associatedObject(originalSelector) as? MessageSentProxy
        if let messageSentObserver {
            RuntimeLog.line("messageSentWithArguments:")
            messageSentObserver.messageSent(withArguments: invocation.arguments)
        }
        if respondsToSelector(this, originalSelector) {
            invocation.selector = originalSelector
            RuntimeLog.line("[invocation invokeWithTarget:] as \(originalSelector)")
            invocation.invoke(withTarget: this)
            if let messageSentObserver {
                RuntimeLog.line("methodInvokedWithArguments:")
                messageSentObserver.methodInvoked(withArguments: invocation.arguments)
            }
            return true
        }
        return false
    }
}

/// `RX_responds_to_selector`: whether the object's real class has the method.
func RX_responds_to_selector(_ this: RuntimeObject, _ selector: Selector) -> Bool {
    let responds = object_getClass(this).instanceMethod(selector) != nil
    RuntimeLog.line("respondsToSelector: \(selector) → RX_responds_to_selector: \(responds ? "YES" : "NO")")
    return responds
}

/// `RX_method_signature`: the encoding of the object's real class's method.
func RX_method_signature(_ this: RuntimeObject, _ selector: Selector) -> String? {
    let encoding = object_getClass(this).instanceMethod(selector)?.encoding
    RuntimeLog.line("methodSignatureForSelector: \(selector) → RX_method_signature: \(encoding ?? "nil")")
    return encoding
}

// MARK: - The rx API (NSObject+Rx.swift)

extension Reactive where Base: RuntimeObject {
    /// Elements are the message's arguments, sent *before* the original implementation runs.
    /// `dealloc` is `deallocating`'s.
    func sentMessage(_ selector: Selector) -> Observable<[Any]> {
        if selector == deallocSelector { return deallocating.map { _ in [] } }
        guard let proxy: MessageSentProxy = registerMessageInterceptor(base, selector) else {
            return Observable.error(RxCocoaError.interceptionFailed(selector))
        }
        return proxy.messageSent.asObservable()
    }

    /// Elements are the message's arguments, sent *after* the original implementation ran.
    /// `dealloc` is `deallocated`'s.
    func methodInvoked(_ selector: Selector) -> Observable<[Any]> {
        if selector == deallocSelector { return deallocated.map { _ in [] } }
        guard let proxy: MessageSentProxy = registerMessageInterceptor(base, selector) else {
            return Observable.error(RxCocoaError.interceptionFailed(selector))
        }
        return proxy.methodInvoked.asObservable()
    }

    /// One `()` when `dealloc` is sent to the object, before it is gone; then completed.
    var deallocating: Observable<Void> {
        guard let proxy: DeallocatingProxy = registerMessageInterceptor(base, deallocSelector) else {
            return Observable.error(RxCocoaError.interceptionFailed(deallocSelector))
        }
        return proxy.messageSent.asObservable()
    }

    /// One `()` once the object is gone (its associated objects released); then completed.
    var deallocated: Observable<Void> {
        if let existing = base.associatedObject("deallocatedSubjectContext") as? DeallocObservable {
            return existing.subject.asObservable()
        }
        let deallocObservable = DeallocObservable()
        base.setAssociatedObject("deallocatedSubjectContext", deallocObservable)
        return deallocObservable.subject.asObservable()
    }
}

/// `RxCocoaError` (the model's one case).
enum RxCocoaError: Error {
    case interceptionFailed(Selector)
}
