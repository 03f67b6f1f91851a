// A Swift model of the Objective-C runtime, just enough to replay what RxCocoa does to intercept
// messages (000 "RxCocoa如何将Cocoa对象的消息转化为可被订阅的流", 003 "RxSwift Runtime分析"). Linux
// has no Objective-C runtime, so classes here are method tables, objects have an `isa`, calls
// go through `objc_msgSend`, and a message nobody implements is forwarded the runtime's way:
// `methodSignatureForSelector:`, then `forwardInvocation:` with an `NSInvocation`. On that model,
// RXObjCRuntime.swift performs RxCocoa's steps under the names they have in `_RXObjCRuntime.m`.
import Foundation
import RxCore

typealias Selector = String

// MARK: - What the transcript shows

/// The model's steps print as indented lines, nested as the calls are.
enum RuntimeLog {
    /// False while an example wants only its own lines.
    nonisolated(unsafe) static var isOn = true
    nonisolated(unsafe) private static var depth = 0

    static func line(_ text: String) {
        guard isOn else { return }
        print(String(repeating: "  ", count: depth + 1) + text)
    }

    /// `text`, then whatever `body` logs, one level deeper.
    @discardableResult
    static func nested<T>(_ text: String, _ body: () -> T) -> T {
        line(text)
        depth += 1
        defer { depth -= 1 }
        return body()
    }

    /// Runs `body` without logging.
    static func quietly<T>(_ body: () -> T) -> T {
        let was = isOn
        isOn = false
        defer { isOn = was }
        return body()
    }
}

// MARK: - Classes, methods, objects

/// An implementation (`IMP`). RxCocoa compares them by identity (`observer.targetImplementation
/// == thisIMP`), so they are objects here; `_objc_msgForward` is the one without a body.
final class IMP: CustomStringConvertible {
    let description: String
    let body: ((RuntimeObject, [Any]) -> Any?)?

    init(_ description: String, _ body: @escaping (RuntimeObject, [Any]) -> Any?) {
        self.description = description
        self.body = body
    }

    private init(forward description: String) {
        self.description = description
        self.body = nil
    }

    /// `_objc_msgForward`: "I don't implement this: forward the invocation".
    static let msgForward = IMP(forward: "_objc_msgForward")
}

/// A method: its implementation and its type encoding (`v@:@@` is `void (id self, SEL _cmd, id,
/// id)`; the model's encodings leave out the frame offsets of the real ones).
struct Method {
    var imp: IMP
    let encoding: String
}

/// A protocol's methods, as `protocol_copyMethodDescriptionList` lists them.
struct RuntimeProtocol {
    let name: String
    let methods: [(selector: Selector, encoding: String)]
}

final class RuntimeClass: CustomStringConvertible {
    let name: String
    let superclass: RuntimeClass?
    /// The protocols the class adopts (`class_copyProtocolList`).
    let protocols: [RuntimeProtocol]
    private var methods: [Selector: Method] = [:]

    init(_ name: String, superclass: RuntimeClass?, protocols: [RuntimeProtocol] = []) {
        self.name = name
        self.superclass = superclass
        self.protocols = protocols
    }

    var description: String { name }

    /// Defines a method when the class is written (what `@implementation` does).
    func define(_ selector: Selector, _ encoding: String, _ body: @escaping (RuntimeObject, [Any]) -> Any?) {
        methods[selector] = Method(imp: IMP("\(name)'s \(selector)", body), encoding: encoding)
    }

    /// `class_getInstanceMethod`: this class's method, else the nearest superclass's.
    func instanceMethod(_ selector: Selector) -> Method? {
        methods[selector] ?? superclass?.instanceMethod(selector)
    }

    /// Whether this class itself (not a superclass) implements `selector`.
    func hasOwnMethod(_ selector: Selector) -> Bool { methods[selector] != nil }

    /// `class_addMethod`: adds a method, overriding a superclass's; fails when the class already
    /// has one of its own.
    func addMethod(_ selector: Selector, _ imp: IMP, _ encoding: String) -> Bool {
        if methods[selector] != nil { return false }
        methods[selector] = Method(imp: imp, encoding: encoding)
        return true
    }

    /// `method_setImplementation` on the class's own method; returns the previous one.
    @discardableResult
    func setImplementation(_ selector: Selector, _ imp: IMP) -> IMP {
        let previous = methods[selector]!.imp
        methods[selector]!.imp = imp
        return previous
    }

    /// The encoding of `selector` in an adopted protocol (what `methodSignatureForSelector:`
    /// finds for a protocol method the class does not implement).
    func protocolEncoding(_ selector: Selector) -> String? {
        for proto in protocols {
            if let method = proto.methods.first(where: { $0.selector == selector }) { return method.encoding }
        }
        return superclass?.protocolEncoding(selector)
    }
}

/// `NSInvocation`: a message with its arguments and signature, that can be sent again.
final class NSInvocation {
    var selector: Selector
    let arguments: [Any]
    /// The method's encoding (`methodSignature`): its first character is the return type.
    let methodSignature: String
    var returnValue: Any?

    init(selector: Selector, arguments: [Any], methodSignature: String) {
        self.selector = selector
        self.arguments = arguments
        self.methodSignature = methodSignature
    }

    /// `invokeWithTarget:`.
    func invoke(withTarget target: RuntimeObject) {
        returnValue = objc_msgSend(target, selector, arguments)
    }
}

/// An object: its `isa`, its associated objects and its instance variables. When the last
/// reference goes, it is sent `dealloc`, as an Objective-C object is.
class RuntimeObject: CustomStringConvertible, ReactiveCompatible {
    /// The isa pointer: `object_getClass` reads it, `object_setClass` writes it.
    var isa: RuntimeClass
    /// `objc_setAssociatedObject` storage, in the order they were set.
    private(set) var associatedObjects: [(key: String, value: AnyObject)] = []
    /// Instance variables, by property name.
    var ivars: [String: Any] = [:]
    /// KVO observers: `addObserver:forKeyPath:` registrations.
    private var keyValueObservers: [(id: Int, keyPath: String, callback: (Any?) -> Void)] = []
    private static var instances = 0
    private let number: Int

    init(isa: RuntimeClass) {
        self.isa = isa
        Self.instances += 1
        number = Self.instances
    }

    deinit { objc_msgSend(self, "dealloc") }

    /// `<UIView: 1>`: the class the object says it is, and a number instead of an address.
    var description: String { "<\(objc_msgSend(self, "class", quietly: true) as! RuntimeClass): \(number)>" }

    func associatedObject(_ key: String) -> AnyObject? {
        associatedObjects.first { $0.key == key }?.value
    }

    func setAssociatedObject(_ key: String, _ value: AnyObject) {
        associatedObjects.removeAll { $0.key == key }
        associatedObjects.append((key, value))
    }

    /// `objc_removeAssociatedObjects`, which NSObject's `dealloc` does.
    func removeAssociatedObjects() {
        var released = associatedObjects
        associatedObjects = []
        while !released.isEmpty { released.removeFirst() } // one by one, in the order they were set
    }

    // MARK: Key-value observing

    private static var nextObserverID = 0

    /// `addObserver:forKeyPath:options:[.initial, .new]`: `callback` gets the current value at
    /// once, then every new one. Returns what `removeObserver:` needs.
    func addObserver(forKeyPath keyPath: String, callback: @escaping (Any?) -> Void) -> Int {
        Self.nextObserverID += 1
        keyValueObservers.append((Self.nextObserverID, keyPath, callback))
        callback(ivars[keyPath])
        return Self.nextObserverID
    }

    func removeObserver(_ id: Int) {
        keyValueObservers.removeAll { $0.id == id }
    }

    /// A KVO-compliant setter: stores the value, then `didChangeValueForKey:` tells the observers.
    /// (KVO's automatic notifications come from a subclass it makes at run time,
    /// `NSKVONotifying_UIView`, whose setters do this: the trick RxCocoa borrows. The model's
    /// setters notify by themselves.)
    func setValue(_ value: Any?, forKey key: String) {
        ivars[key] = value
        for observer in keyValueObservers where observer.keyPath == key { observer.callback(value) }
    }
}

// MARK: - Sending messages

/// `objc_msgSend`: finds the method through the isa; a selector nobody implements, or one whose
/// implementation is `_objc_msgForward`, goes to forwarding.
@discardableResult
func objc_msgSend(
    _ target: RuntimeObject, _ selector: Selector, _ arguments: [Any] = [], quietly: Bool = false
)
    -> Any?
{
    guard let method = target.isa.instanceMethod(selector), let body = method.imp.body else {
        let why = target.isa.instanceMethod(selector) == nil ? "no implementation" : "_objc_msgForward"
        return RuntimeLog.nested("objc_msgSend(\(target), \(selector)) → \(why): forwarding") {
            forward(target, selector, arguments)
        }
    }
    return quietly ? RuntimeLog.quietly { body(target, arguments) } : body(target, arguments)
}

/// `objc_msgSendSuper`: the implementation above `cls`.
@discardableResult
func objc_msgSendSuper(
    _ target: RuntimeObject, _ cls: RuntimeClass, _ selector: Selector, _ arguments: [Any]
)
    -> Any?
{
    cls.superclass?.instanceMethod(selector)?.imp.body?(target, arguments)
}

/// The runtime's forwarding (`___forwarding___`): ask for a signature, wrap the message in an
/// `NSInvocation`, hand it to `forwardInvocation:`.
private func forward(_ target: RuntimeObject, _ selector: Selector, _ arguments: [Any]) -> Any? {
    guard let signature = objc_msgSend(target, "methodSignatureForSelector:", [selector]) as? String else {
        RuntimeLog.line("-[\(target.isa) \(selector)]: unrecognized selector sent to instance")
        return nil
    }
    let invocation = NSInvocation(selector: selector, arguments: arguments, methodSignature: signature)
    objc_msgSend(target, "forwardInvocation:", [invocation])
    return invocation.returnValue
}

/// `object_getClass`, for symmetry with the `[obj class]` it is compared with.
func object_getClass(_ object: RuntimeObject) -> RuntimeClass { object.isa }

/// `[obj class]`: what the object says it is.
func classOf(_ object: RuntimeObject) -> RuntimeClass {
    objc_msgSend(object, "class", quietly: true) as! RuntimeClass
}

/// `[obj respondsToSelector:]`.
func respondsToSelector(_ object: RuntimeObject, _ selector: Selector) -> Bool {
    objc_msgSend(object, "respondsToSelector:", [selector]) as? Bool ?? false
}

// MARK: - NSObject

/// The root class: `class`, `respondsToSelector:`, `methodSignatureForSelector:`,
/// `forwardInvocation:` and `dealloc`, as NSObject implements them.
let NSObjectClass: RuntimeClass = {
    let cls = RuntimeClass("NSObject", superclass: nil)
    cls.define("class", "#@:") { this, _ in object_getClass(this) }
    cls.define("respondsToSelector:", "B@::") { this, arguments in
        object_getClass(this).instanceMethod(arguments[0] as! Selector) != nil
    }
    cls.define("methodSignatureForSelector:", "@@::") { this, arguments in
        let selector = arguments[0] as! Selector
        let cls = object_getClass(this)
        return cls.instanceMethod(selector)?.encoding ?? cls.protocolEncoding(selector)
    }
    cls.define("forwardInvocation:", "v@:@") { this, arguments in
        let invocation = arguments[0] as! NSInvocation
        RuntimeLog.line("-[\(this.isa) \(invocation.selector)]: unrecognized selector sent to instance")
        return nil
    }
    cls.define("dealloc", "v@:") { this, _ in
        let associated = this.associatedObjects.map { $0.value is RuntimeClass ? $0.key : "\(type(of: $0.value))" }
        if !associated.isEmpty {
            RuntimeLog.line(
                "NSObject's dealloc: objc_removeAssociatedObjects releases \(associated.joined(separator: ", "))")
        }
        this.removeAssociatedObjects()
        return nil
    }
    return cls
}()
