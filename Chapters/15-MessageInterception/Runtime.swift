// A small model of the Objective-C runtime, just enough to replay what RxCocoa does in
// `registerMessageInterceptor` → `RX_ensure_observing` → `ensurePrepared` (000, and 003
// "RxSwift Runtime分析"): classes are method tables, objects have an `isa`, calls go through
// `msgSend`, and a method whose implementation is `msgForward` ends in `forwardInvocation:`.
// Swift on Linux has no isa-swizzling, so the model is explicit; the steps are the same.
import RxCore

typealias Selector = String

/// An implementation: the receiver and the arguments.
enum IMP {
    case function((RuntimeObject, [Any]) -> Void)
    /// `_objc_msgForward`: "I don't implement this; forward the invocation."
    case msgForward
}

final class RuntimeClass {
    let name: String
    let superclass: RuntimeClass?
    var methods: [Selector: IMP] = [:]
    /// What `[obj class]` answers (the fake subclass lies, as KVO's does).
    var reportedName: String

    init(name: String, superclass: RuntimeClass?) {
        self.name = name
        self.superclass = superclass
        self.reportedName = name
    }

    func lookup(_ selector: Selector) -> IMP? {
        methods[selector] ?? superclass?.lookup(selector)
    }
}

/// `NSInvocation`: a message with its arguments, that can be re-sent to a target.
final class Invocation {
    var selector: Selector
    let arguments: [Any]
    init(selector: Selector, arguments: [Any]) {
        self.selector = selector
        self.arguments = arguments
    }
    func invoke(with target: RuntimeObject) { msgSend(target, selector, arguments) }
}

class RuntimeObject {
    /// The isa pointer.
    var isa: RuntimeClass
    /// `objc_setAssociatedObject` storage.
    var associatedObjects: [String: AnyObject] = [:]

    init(isa: RuntimeClass) { self.isa = isa }

    var className: String { isa.reportedName }
}

/// `objc_msgSend`.
func msgSend(_ target: RuntimeObject, _ selector: Selector, _ arguments: [Any]) {
    switch target.isa.lookup(selector) {
    case .function(let body)?:
        body(target, arguments)
    case .msgForward?:
        forwardInvocation(target, Invocation(selector: selector, arguments: arguments))
    case nil:
        print("unrecognized selector \(selector)")
    }
}

func forwardInvocation(_ target: RuntimeObject, _ invocation: Invocation) {
    if case .function(let body)? = target.isa.lookup("forwardInvocation:") {
        body(target, [invocation])
    } else {
        print("doesNotRecognizeSelector: \(invocation.selector)")
    }
}

/// RxCocoa's prefix for the fake subclass and for the saved original method (`RX_PREFIX` in
/// `_RXObjCRuntime.m`): `_RX_namespace_UIButton`, `_RX_namespace_setTitle:forState:`.
let RX_PREFIX = "_RX_namespace_"

func RX_selector(_ selector: Selector) -> Selector { RX_PREFIX + selector }

// MARK: - MessageSentProxy: the subject a selector's events go through

/// RxCocoa's `MessageSentProxy`: two subjects, fired before (`sentMessage`) and after
/// (`methodInvoked`) the original implementation runs.
final class MessageSentProxy {
    let messageSent = PublishSubject<[Any]>()
    let methodInvoked = PublishSubject<[Any]>()
    var isActive = false
}

// MARK: - RXObjCRuntime: the one-time preparation of a target

enum RXObjCRuntime {
    nonisolated(unsafe) static var dynamicSubclassByRealClass: [String: RuntimeClass] = [:]

    /// `ensureHasDynamicFakeSubclass`: `_RX_namespace_UIButton`, a subclass whose `class` lies.
    static func ensureHasDynamicFakeSubclass(_ cls: RuntimeClass) -> RuntimeClass {
        if let existing = dynamicSubclassByRealClass[cls.name] { return existing }
        let fake = RuntimeClass(name: RX_PREFIX + cls.name, superclass: cls) // objc_allocateClassPair
        fake.reportedName = cls.reportedName // swizzleClass:toActAs:
        print("  runtime: created class \(fake.name) : \(cls.name)")
        dynamicSubclassByRealClass[cls.name] = fake // objc_registerClassPair
        return fake
    }

    /// `prepareTargetClassForObserving`: the target's isa now points at the fake subclass.
    static func prepareTargetClassForObserving(_ target: RuntimeObject) -> RuntimeClass {
        if target.isa.name.hasPrefix(RX_PREFIX) { return target.isa }
        let fake = ensureHasDynamicFakeSubclass(target.isa)
        print("  runtime: object_setClass(target, \(fake.name))")
        target.isa = fake
        return fake
    }

    /// `observeByForwardingMessages`: keep the original implementation under `_RX_namespace_…`
    /// and make the selector itself `_objc_msgForward`.
    static func observeByForwardingMessages(_ cls: RuntimeClass, selector: Selector) {
        ensureForwardingMethodsAreSwizzled(cls)
        guard let original = cls.lookup(selector) else { return }
        cls.methods[RX_selector(selector)] = original
        cls.methods[selector] = .msgForward
        print("  runtime: \(cls.name).\(RX_selector(selector)) = original; \(cls.name).\(selector) = _objc_msgForward")
    }

    /// `swizzleForwardInvocation`: `forwardInvocation:` calls `RX_forward_invocation`.
    static func ensureForwardingMethodsAreSwizzled(_ cls: RuntimeClass) {
        if cls.methods["forwardInvocation:"] != nil { return }
        cls.methods["forwardInvocation:"] = .function { this, arguments in
            let invocation = arguments[0] as! Invocation
            if !RX_forward_invocation(this, invocation) {
                print("doesNotRecognizeSelector: \(invocation.selector)")
            }
        }
        print("  runtime: \(cls.name).forwardInvocation: = RX_forward_invocation")
    }
}

/// 000's `RX_forward_invocation`: tell the subject, run the original, tell it again.
func RX_forward_invocation(_ this: RuntimeObject, _ invocation: Invocation) -> Bool {
    let originalSelector = RX_selector(invocation.selector)
    let observer = this.associatedObjects[originalSelector] as? MessageSentProxy
    observer?.messageSent.onNext(invocation.arguments)
    if this.isa.lookup(originalSelector) != nil {
        invocation.selector = originalSelector
        invocation.invoke(with: this)
        observer?.methodInvoked.onNext(invocation.arguments)
        return true
    }
    return false
}

/// 000's `registerMessageInterceptor`: one subject per (object, selector), stored as an
/// associated object; the first time, the object is prepared.
func registerMessageInterceptor(_ base: RuntimeObject, _ selector: Selector) -> MessageSentProxy {
    let key = RX_selector(selector)
    let subject: MessageSentProxy
    if let existing = base.associatedObjects[key] as? MessageSentProxy {
        subject = existing
    } else {
        subject = MessageSentProxy()
        base.associatedObjects[key] = subject // objc_setAssociatedObject
    }
    if subject.isActive { return subject }
    let cls = RXObjCRuntime.prepareTargetClassForObserving(base) // RX_ensure_observing
    RXObjCRuntime.observeByForwardingMessages(cls, selector: selector)
    subject.isActive = true
    return subject
}
