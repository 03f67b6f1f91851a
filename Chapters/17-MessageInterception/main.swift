// Chapter 17 — message interception and DelegateProxy (000 "RxCocoa如何将Cocoa对象的消息转化为
// 可被订阅的流" and "监听UIKit对象的Delegate的方法"; 003 "RxSwift Runtime分析", "代理(Delegates)",
// "通知 (Notifications)", "KVO").
//
// RxCocoa intercepts messages with the Objective-C runtime. Linux has none, so this chapter runs
// RxCocoa's technique on a Swift model of it (Runtime.swift), under RxCocoa's own names
// (RXObjCRuntime.swift, DelegateProxy.swift). The model's steps print as indented lines.
import Foundation
import RxCore
import Workbook

// MARK: - The classes of the examples, written on the model

/// UIView: a KVO-compliant `frame`, set through `setFrame:`, whose argument is a struct.
let UIViewClass: RuntimeClass = {
    let cls = RuntimeClass("UIView", superclass: NSObjectClass)
    cls.define("setFrame:", "v@:{CGRect={CGPoint=dd}{CGSize=dd}}") { this, arguments in
        RuntimeLog.line("UIView's own setFrame: ran")
        this.setValue(arguments[0], forKey: "frame")
        return nil
    }
    return cls
}()

class UIView: RuntimeObject {
    convenience init() { self.init(isa: UIViewClass) }

    override init(isa: RuntimeClass) {
        super.init(isa: isa)
        ivars["frame"] = CGRect.zero
    }

    var frame: CGRect {
        get { ivars["frame"] as? CGRect ?? .zero }
        set { objc_msgSend(self, "setFrame:", [newValue]) }
    }
}

/// UIButton: `setTitle:forState:`, an object and an `NSUInteger` (`v@:@Q`).
let UIButtonClass: RuntimeClass = {
    let cls = RuntimeClass("UIButton", superclass: UIViewClass)
    cls.define("setTitle:forState:", "v@:@Q") { this, arguments in
        RuntimeLog.line("UIButton's own setTitle:forState: ran")
        this.ivars["title"] = arguments[0]
        return nil
    }
    return cls
}()

final class UIButton: UIView {
    init() { super.init(isa: UIButtonClass) }

    var title: String? { ivars["title"] as? String }

    func setTitle(_ title: String, for state: UInt) {
        objc_msgSend(self, "setTitle:forState:", [title, state])
    }
}

/// UIViewController: a KVO-compliant `behavingOk`.
let UIViewControllerClass: RuntimeClass = {
    let cls = RuntimeClass("UIViewController", superclass: NSObjectClass)
    cls.define("setBehavingOk:", "v@:B") { this, arguments in
        this.setValue(arguments[0], forKey: "behavingOk")
        return nil
    }
    return cls
}()

final class UIViewController: RuntimeObject {
    init() {
        super.init(isa: UIViewControllerClass)
        ivars["behavingOk"] = false
    }

    var behavingOk: Bool {
        get { ivars["behavingOk"] as? Bool ?? false }
        set { objc_msgSend(self, "setBehavingOk:", [newValue]) }
    }
}

/// How the chapter prints a message's arguments: as Swift prints an array, with a rect as
/// Darwin prints one, `(x, y, width, height)`.
func describe(_ arguments: [Any]) -> String {
    "["
        + arguments.map { $0 is CGRect ? describe(rect: $0 as! CGRect) : String(reflecting: $0) }.joined(
            separator: ", ")
        + "]"
}

func describe(rect: CGRect) -> String {
    "(\(rect.origin.x), \(rect.origin.y), \(rect.size.width), \(rect.size.height))"
}

// MARK: - 1. sentMessage and methodInvoked: the forwarding path

// A struct argument has no optimized method (there is one per simple encoding), so `setFrame:`
// is intercepted by forwarding: all four swizzles of the fake subclass take part — `class` (it
// lies), `forwardInvocation:`, `methodSignatureForSelector:` and `respondsToSelector:`.
example("sentMessage: the forwarding path", draw: true) {
    let disposeBag = DisposeBag()
    let view = UIView()
    print("before: object_getClass(view) = \(object_getClass(view)), [view class] = \(classOf(view))")
    print("subscribing to sentMessage(setFrame:)")
    view.rx.sentMessage("setFrame:")
        .subscribe(onNext: { arguments in print("sentMessage: \(describe(arguments))") })
        .disposed(by: disposeBag)
    print("subscribing to methodInvoked(setFrame:)")
    view.rx.methodInvoked("setFrame:")
        .subscribe(onNext: { arguments in print("methodInvoked: \(describe(arguments))") })
        .disposed(by: disposeBag)
    print("after: object_getClass(view) = \(object_getClass(view)), [view class] = \(classOf(view))")
    print("view.frame = CGRect(x: 0, y: 0, width: 320, height: 480)")
    view.frame = CGRect(x: 0, y: 0, width: 320, height: 480)
}

// MARK: - 2. The optimized path

// 000's own example. `setTitle:forState:` is `v@:@Q`, one of the encodings RxCocoa generated a
// method for (`SWIZZLE_OBSERVE_METHOD(void, id, rx_ulong)`), so no forwarding happens: the fake
// subclass gets a `setTitle:forState:` of its own that tells the observer and calls super's.
example("sentMessage: the optimized path", draw: true) {
    let disposeBag = DisposeBag()
    let button = UIButton()
    button.rx.sentMessage("setTitle:forState:")
        .asObservable().subscribe { (event) in
            print("event : \(event)")
        }
        .disposed(by: disposeBag)
    button.rx.methodInvoked("setTitle:forState:")
        .subscribe(onNext: { arguments in print("methodInvoked: \(arguments)") })
        .disposed(by: disposeBag)
    print("button.setTitle(\"Title\", for: 0)")
    button.setTitle("Title", for: 0)
    print("button.title = \(button.title ?? "nil")")
}

// MARK: - 3. The dealloc path

// `deallocating` swizzles `dealloc` of the class the object says it is (no fake subclass: the
// object is going away) and fires before the object is gone; `deallocated` swizzles nothing — an
// associated object's deinit fires it once the object's associated objects are released.
example("deallocating and deallocated", draw: true) {
    var controller: UIViewController? = UIViewController()
    _ = controller!.rx.deallocating.subscribe { print("deallocating: \($0)") }
    _ = controller!.rx.deallocated.subscribe { print("deallocated: \($0)") }
    print("controller = nil")
    controller = nil
}

// MARK: - 4. KVO: observe and observeWeakly (003 "KVO")

extension Reactive where Base: RuntimeObject {
    /// `observe(_:_:options:retainSelf:)` with `[.new, .initial]`: the current value, then each
    /// new one. It keeps the object alive while the sequence exists (`retainSelf: true`).
    func observe<E>(_ type: E.Type, _ keyPath: String, retainSelf: Bool = true) -> Observable<E?> {
        KVOObservable(object: base, keyPath: keyPath, retainTarget: retainSelf).asObservable().map { $0 as? E }
    }

    /// `observeWeakly(_:_:options:)`: the same without keeping the object alive; when the object
    /// deallocates, a last `nil` and completed (`finishWithNilWhenDealloc`, on `deallocating`).
    func observeWeakly<E>(_ type: E.Type, _ keyPath: String) -> Observable<E?> {
        let values = KVOObservable(object: base, keyPath: keyPath, retainTarget: false).asObservable()
        return
            deallocating
            .map { _ in Observable<Any?>.just(nil) }
            .startWith(values)
            .switchLatest()
            .map { $0 as? E }
    }
}

/// RxCocoa's `KVOObservable`: registers a KVO observer on subscribe, removes it on dispose.
struct KVOObservable {
    private weak var target: RuntimeObject?
    private let strongTarget: RuntimeObject?
    let keyPath: String

    init(object: RuntimeObject, keyPath: String, retainTarget: Bool) {
        target = object
        strongTarget = retainTarget ? object : nil
        self.keyPath = keyPath
    }

    func asObservable() -> Observable<Any?> {
        let keyPath = keyPath
        return Observable.create { [target, strongTarget] observer in
            guard let object = strongTarget ?? target else {
                observer.onCompleted()
                return Disposables.create()
            }
            let id = object.addObserver(forKeyPath: keyPath) { observer.onNext($0) }
            return Disposables.create { [weak object] in object?.removeObserver(id) }
        }
    }
}

example("observe and observeWeakly") {
    let disposeBag = DisposeBag()
    let view = UIView()
    view.rx.observe(CGRect.self, "frame")
        .subscribe(onNext: { frame in
            print("Got new frame \(frame.map { describe(rect: $0) } ?? "nil")")
        })
        .disposed(by: disposeBag)
    view.frame = CGRect(x: 0, y: 0, width: 100, height: 50)

    var someSuspiciousViewController: UIViewController? = UIViewController()
    someSuspiciousViewController!.behavingOk = true
    RuntimeLog.quietly {
        someSuspiciousViewController!.rx.observeWeakly(Bool.self, "behavingOk")
            .subscribe(
                onNext: { behavingOk in
                    print("Cats can purr? \(behavingOk.map { "\($0)" } ?? "nil")")
                }, onCompleted: { print("observeWeakly completed") }
            )
            .disposed(by: disposeBag)
    }
    someSuspiciousViewController!.behavingOk = false
    print("someSuspiciousViewController = nil")
    RuntimeLog.quietly { someSuspiciousViewController = nil }
}

// MARK: - 5. DelegateProxy: WKWebView.rx.didStartLoad (000 "监听UIKit对象的Delegate的方法")

/// WKNavigationDelegate, three of its methods (all void, so all observable).
let WKNavigationDelegateProtocol = RuntimeProtocol(
    name: "WKNavigationDelegate",
    methods: [
        ("webView:didStartProvisionalNavigation:", "v@:@@"),
        ("webView:didFinishNavigation:", "v@:@@"),
        ("webView:didFailNavigation:withError:", "v@:@@@"),
    ])

let WKNavigationClass = RuntimeClass("WKNavigation", superclass: NSObjectClass)
let WKWebViewClass = RuntimeClass("WKWebView", superclass: UIViewClass)

/// A headless WKWebView. Like WebKit, it asks its navigation delegate which methods it
/// implements when the delegate is set, and calls only those.
final class WKWebView: UIView {
    private weak var delegate: RuntimeObject?
    private var delegateImplements: Set<Selector> = []

    init() { super.init(isa: WKWebViewClass) }

    var navigationDelegate: RuntimeObject? {
        get { delegate }
        set {
            delegate = newValue
            delegateImplements = []
            guard let newValue else { return }
            for (selector, _) in WKNavigationDelegateProtocol.methods where respondsToSelector(newValue, selector) {
                delegateImplements.insert(selector)
            }
            RuntimeLog.line(
                "WKWebView: navigationDelegate = \(newValue), which implements \(delegateImplements.sorted())")
        }
    }

    func load(_ url: String) {
        let navigation = RuntimeObject(isa: WKNavigationClass)
        for selector in ["webView:didStartProvisionalNavigation:", "webView:didFinishNavigation:"] {
            guard let delegate, delegateImplements.contains(selector) else { continue }
            objc_msgSend(delegate, selector, [self, navigation])
        }
    }
}

/// RxCocoa's `RxWKNavigationDelegateProxy`: nothing but how to find the delegate property.
let RxWKNavigationDelegateProxyClass = RuntimeClass(
    "RxWKNavigationDelegateProxy", superclass: _RXDelegateProxyClass, protocols: [WKNavigationDelegateProtocol])

final class RxWKNavigationDelegateProxy: DelegateProxy, DelegateProxyType {
    init(webView: WKWebView) {
        super.init(
            parentObject: webView, delegateProxy: RxWKNavigationDelegateProxy.self,
            isa: RxWKNavigationDelegateProxyClass)
    }

    static func registerKnownImplementations() { register { RxWKNavigationDelegateProxy(webView: $0) } }
    static func currentDelegate(for object: WKWebView) -> RuntimeObject? { object.navigationDelegate }
    static func setCurrentDelegate(_ delegate: RuntimeObject?, to object: WKWebView) {
        object.navigationDelegate = delegate
    }
}

/// RxCocoa's `castOrThrow`.
func castOrThrow<T>(_ type: T.Type, _ object: Any) throws -> T {
    guard let value = object as? T else { throw RxError.unknown }
    return value
}

extension Reactive where Base: WKWebView {
    /// RxCocoa 6's `navigationDelegate`.
    var navigationDelegate: RxWKNavigationDelegateProxy { RxWKNavigationDelegateProxy.proxy(for: base) }

    /// RxCocoa 6's `didStartLoad`: `webView(_:didStartProvisionalNavigation:)`.
    var didStartLoad: Observable<RuntimeObject> {
        navigationDelegate.methodInvoked("webView:didStartProvisionalNavigation:")
            .map { a in try castOrThrow(RuntimeObject.self, a[1]) }
    }

    /// RxCocoa 6's `didFinishLoad`: `webView(_:didFinish:)`.
    var didFinishLoad: Observable<RuntimeObject> {
        navigationDelegate.methodInvoked("webView:didFinishNavigation:")
            .map { a in try castOrThrow(RuntimeObject.self, a[1]) }
    }
}

/// The delegate the app had before Rx came along: it implements only `webView:didFinishNavigation:`.
let PageControllerClass: RuntimeClass = {
    let cls = RuntimeClass("PageController", superclass: NSObjectClass, protocols: [WKNavigationDelegateProtocol])
    cls.define("webView:didFinishNavigation:", "v@:@@") { _, _ in
        print("PageController's own webView:didFinishNavigation: ran")
        return nil
    }
    return cls
}()

example("didStartLoad", draw: true) {
    let disposeBag = DisposeBag()
    let controller = RuntimeObject(isa: PageControllerClass)
    let web = WKWebView()
    web.navigationDelegate = controller
    print("subscribing to web.rx.didStartLoad")
    web.rx.didStartLoad
        .asObservable()
        .subscribe { (event) in
            print("event : \(event)")
        }.disposed(by: disposeBag)
    print("subscribing to web.rx.didFinishLoad")
    web.rx.didFinishLoad
        .subscribe(onNext: { print("didFinishLoad: \($0)") })
        .disposed(by: disposeBag)
    print("web.load(\"baidu.com\")")
    web.load("baidu.com")
}

// MARK: - 6. UISearchBar.rx.text (003 "代理(Delegates)")

let UISearchBarDelegateProtocol = RuntimeProtocol(
    name: "UISearchBarDelegate",
    methods: [
        ("searchBar:textDidChange:", "v@:@@"),
        ("searchBarShouldBeginEditing:", "B@:@"),
        ("searchBarTextDidEndEditing:", "v@:@"),
    ])

let UISearchBarClass = RuntimeClass("UISearchBar", superclass: UIViewClass)

/// A headless UISearchBar: typing changes `text` and tells the delegate, if it implements
/// `searchBar:textDidChange:` (asked when the delegate is set, as UIKit does).
final class UISearchBar: UIView {
    private weak var delegateObject: RuntimeObject?
    private var delegateImplementsTextDidChange = false
    var text: String?

    init() { super.init(isa: UISearchBarClass) }

    var delegate: RuntimeObject? {
        get { delegateObject }
        set {
            delegateObject = newValue
            delegateImplementsTextDidChange =
                newValue.map { respondsToSelector($0, "searchBar:textDidChange:") } ?? false
        }
    }

    /// What a finger on the keyboard does.
    func type(_ newText: String) {
        print("the user types \"\(newText)\"")
        text = newText
        if let delegateObject, delegateImplementsTextDidChange {
            objc_msgSend(delegateObject, "searchBar:textDidChange:", [self, newText])
        }
    }
}

let RxSearchBarDelegateProxyClass = RuntimeClass(
    "RxSearchBarDelegateProxy", superclass: _RXDelegateProxyClass, protocols: [UISearchBarDelegateProtocol])

/// RxCocoa's `RxSearchBarDelegateProxy`.
final class RxSearchBarDelegateProxy: DelegateProxy, DelegateProxyType {
    init(searchBar: UISearchBar) {
        super.init(
            parentObject: searchBar, delegateProxy: RxSearchBarDelegateProxy.self, isa: RxSearchBarDelegateProxyClass)
    }

    static func registerKnownImplementations() { register { RxSearchBarDelegateProxy(searchBar: $0) } }
    static func currentDelegate(for object: UISearchBar) -> RuntimeObject? { object.delegate }
    static func setCurrentDelegate(_ delegate: RuntimeObject?, to object: UISearchBar) { object.delegate = delegate }
}

extension Reactive where Base: UISearchBar {
    /// RxCocoa 6's `delegate` (003's `rx_delegate`, with `proxyForObject`).
    var delegate: RxSearchBarDelegateProxy { RxSearchBarDelegateProxy.proxy(for: base) }

    /// RxCocoa 6's `text` (003's `rx_text`): the current text when subscribed, then the text
    /// after each `searchBar:textDidChange:` or `searchBarTextDidEndEditing:`.
    var text: Observable<String?> {
        Observable.deferred { [weak searchBar = base] () -> Observable<String?> in
            let text = searchBar?.text
            let textDidChange =
                searchBar?.rx.delegate.methodInvoked("searchBar:textDidChange:") ?? Observable.empty()
            let didEndEditing =
                searchBar?.rx.delegate.methodInvoked("searchBarTextDidEndEditing:") ?? Observable.empty()
            return Observable.merge(textDidChange, didEndEditing)
                .map { _ in searchBar?.text ?? "" }
                .startWith(text)
        }
    }
}

extension ObservableType where Element == String? {
    /// RxCocoa's `orEmpty`: nil as "".
    var orEmpty: Observable<String> { map { $0 ?? "" } }
}

example("searchBar.rx.text") {
    let disposeBag = DisposeBag()
    let searchBar = UISearchBar()
    searchBar.text = "Rx"
    RuntimeLog.quietly {
        searchBar.rx.text.orEmpty
            .subscribe(onNext: { searchText in
                print("Current search text '\(searchText)'")
            })
            .disposed(by: disposeBag)
    }
    searchBar.type("RxSwift")
    searchBar.type("RxCocoa")
}

// MARK: - 7. NotificationCenter as an observable source (003 "通知 (Notifications)")

// In swift-corelibs-foundation NotificationCenter does not inherit NSObject, so it joins
// the rx namespace itself (on Apple platforms NSObject's conformance covers it).
#if !canImport(Darwin)
extension NotificationCenter: ReactiveCompatible {}
#endif
extension Reactive where Base: NotificationCenter {
    /// Registers an observer on subscribe and removes it on dispose.
    func notification(_ name: Notification.Name, object: AnyObject? = nil) -> Observable<Notification> {
        Observable.create { [base] observer in
            let token = base.addObserver(forName: name, object: object, queue: nil) { notification in
                observer.onNext(notification)
            }
            return Disposables.create {
                base.removeObserver(token)
                print("removeObserver")
            }
        }
    }
}

example("rx_notification", draw: true) {
    let notificationCenter = NotificationCenter()
    let targetObject = NSObject()
    let name = Notification.Name("testNotification")
    var numberOfNotifications = 0
    let subscription = notificationCenter.rx.notification(name, object: targetObject)
        .subscribe(onNext: { n in
            numberOfNotifications += 1
            print("got \(n.name.rawValue), numberOfNotifications = \(numberOfNotifications)")
        })
    notificationCenter.post(name: name, object: targetObject)
    notificationCenter.post(name: name, object: NSObject()) // another object: filtered out
    notificationCenter.post(name: name, object: targetObject)
    subscription.dispose()
    notificationCenter.post(name: name, object: targetObject)
    print("numberOfNotifications = \(numberOfNotifications)")
}
// MARK: - Exercises (the answers: make chapter N=17 ARGS=--answers)

exercise(1) {
    let button = UIButton()
    _ = button.rx.methodInvoked("setTitle:forState:").subscribe(onNext: { print("methodInvoked", $0) })
    _ = button.rx.sentMessage("setTitle:forState:").subscribe(onNext: { print("sentMessage", $0) })
    button.setTitle("A", for: 0)
} why: {
    Why(
        """
        The order of the two subscriptions does not matter: the intercepting implementation sends `sentMessage` before
        it calls the original method and `methodInvoked` after it. `setTitle:forState:` takes an object and an
        unsigned integer, so it takes the optimized path, without forwarding.
        """,
        zh: """
            两次订阅谁先谁后无关紧要：拦截用的实现先发 `sentMessage`，再调用原方法，调完才发 `methodInvoked`。
            `setTitle:forState:` 的参数是一个对象和一个无符号整数，走的是优化路径，不经过消息转发。
            """)
}

exercise(2) {
    let center = NotificationCenter()
    let name = Notification.Name("ping")
    let subscription = center.rx.notification(name).take(2)
        .subscribe(onNext: { print("got", $0.name.rawValue) }, onCompleted: { print("completed") })
    center.post(name: name, object: nil)
    center.post(name: name, object: nil)
    center.post(name: name, object: nil)
    subscription.dispose()
} why: {
    Why(
        """
        `take(2)` completes at the second notification, and completion disposes the subscription at once: the `create`
        disposable removes the observer then, before the third post, which nobody hears. The `dispose()` at the end
        finds it disposed already.
        """,
        zh: """
            `take(2)` 收到第二个通知就完成，完成会当场释放订阅：`create` 返回的 disposable 这时就移除了观察者，第三
            次 post 已经没人听了。最后那句 `dispose()` 发现早已释放，什么也不做。
            """)
}

exercise(3) {
    let controller = RuntimeObject(isa: PageControllerClass)
    let web = WKWebView()
    web.navigationDelegate = controller
    _ = web.rx.didFinishLoad.subscribe(onNext: { print("didFinishLoad", $0) })
    _ = web.rx.didStartLoad.subscribe(onNext: { print("didStartLoad", $0) })
    web.load("example.com")
} why: {
    Why(
        """
        The proxy implements neither delegate method, so both calls reach it through forwarding. Nobody else
        implements `webView:didStartProvisionalNavigation:`, so that call gives only the proxy's event.
        `webView:didFinishNavigation:` the proxy first forwards to the app's delegate (`PageController`'s line) and
        then reports as `didFinishLoad`: `methodInvoked` reports after the call. The web view sends the first call at
        all only because the proxy's `reset()` made it ask its delegate again what it implements.
        """,
        zh: """
            代理自己一个代理方法也没实现，两个调用都是经消息转发到它那里的。`webView:didStartProvisionalNavigation:`
            没有别人实现，所以只有代理发出的事件。`webView:didFinishNavigation:` 则是代理先把调用转给 app 原来的
            delegate（打印 `PageController` 那一行），再报告成 `didFinishLoad`：`methodInvoked` 在调用之后才报告。
            web view 肯发第一个调用，全靠代理 `reset()` 时让它重新问了一遍 delegate 实现了哪些方法。
            """)
}
