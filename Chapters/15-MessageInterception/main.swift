// Chapter 15 — message interception and DelegateProxy (000 "RxCocoa如何将Cocoa对象的消息转化为
// 可被订阅的流" and "监听UIKit对象的Delegate的方法"; 003 "RxSwift Runtime分析", "代理(Delegates)",
// "通知 (Notifications)").
import Foundation
import RxCore
import Workbook

// MARK: - 1. sentMessage / methodInvoked by forwarding (the runtime model in Runtime.swift)

let NSObjectClass = RuntimeClass(name: "NSObject", superclass: nil)
let UIButtonClass: RuntimeClass = {
    let cls = RuntimeClass(name: "UIButton", superclass: NSObjectClass)
    cls.methods["setTitle:forState:"] = .function { this, arguments in
        (this as! UIButton).title = arguments[0] as? String
        print("  UIButton's own setTitle:forState: ran, title = \(arguments[0])")
    }
    return cls
}()

final class UIButton: RuntimeObject, ReactiveCompatible {
    var title: String?
    init() { super.init(isa: UIButtonClass) }
    func setTitle(_ title: String, for state: Int) {
        msgSend(self, "setTitle:forState:", [title, state])
    }
}

extension Reactive where Base: RuntimeObject {
    /// Elements are the arguments, sent *before* the original implementation runs.
    func sentMessage(_ selector: Selector) -> Observable<[Any]> {
        registerMessageInterceptor(base, selector).messageSent.asObservable()
    }

    /// Elements are the arguments, sent *after* the original implementation ran.
    func methodInvoked(_ selector: Selector) -> Observable<[Any]> {
        registerMessageInterceptor(base, selector).methodInvoked.asObservable()
    }
}

example("sentMessage", draw: true) {
    let disposeBag = DisposeBag()
    let button = UIButton()
    print("before: isa = \(button.isa.name), [button class] = \(button.className)")
    button.rx.sentMessage("setTitle:forState:")
        .asObservable().subscribe { (event) in
            print("event : \(event)")
        }
        .disposed(by: disposeBag)
    button.rx.methodInvoked("setTitle:forState:")
        .subscribe(onNext: { arguments in print("methodInvoked: \(arguments)") })
        .disposed(by: disposeBag)
    print("after: isa = \(button.isa.name), [button class] = \(button.className)")
    button.setTitle("Title", for: 0)
    print("button.title = \(button.title ?? "nil")")
}

// MARK: - 2. DelegateProxy

/// UIWebViewDelegate, reduced to the two callbacks the example needs.
protocol WebViewDelegate: AnyObject {
    func webViewDidStartLoad(_ webView: WebView)
    func webViewDidFinishLoad(_ webView: WebView)
}

/// A headless UIWebView: loading calls its delegate.
final class WebView: ReactiveCompatible {
    weak var delegate: WebViewDelegate?
    /// Where `assignProxy(_:toObject:)` keeps the proxy (RxCocoa uses an associated object).
    var assignedProxy: AnyObject?

    func loadRequest(_ url: String) {
        delegate?.webViewDidStartLoad(self)
        delegate?.webViewDidFinishLoad(self)
    }
}

/// RxCocoa's DelegateProxy for a web view: it becomes the delegate, forwards every call to the
/// delegate that was there before, and publishes the calls it was asked to observe.
final class RxWebViewDelegateProxy: WebViewDelegate {
    private weak var forwardToDelegate: WebViewDelegate?
    private var methodInvokedForSelector: [Selector: PublishSubject<[Any]>] = [:]

    /// 000's `proxyForObject`: one proxy per object; installs itself as the delegate and keeps
    /// the previous delegate to forward to.
    static func proxyForObject(_ object: WebView) -> RxWebViewDelegateProxy {
        let proxy: RxWebViewDelegateProxy
        if let existing = object.assignedProxy as? RxWebViewDelegateProxy {
            proxy = existing
        } else {
            proxy = RxWebViewDelegateProxy()
            object.assignedProxy = proxy
        }
        let currentDelegate = object.delegate
        if currentDelegate !== proxy {
            proxy.forwardToDelegate = currentDelegate
            object.delegate = proxy
        }
        return proxy
    }

    /// 000's `methodInvoked`: a subject per selector, made on first request.
    func methodInvoked(_ selector: Selector) -> Observable<[Any]> {
        if let subject = methodInvokedForSelector[selector] { return subject.asObservable() }
        let subject = PublishSubject<[Any]>()
        methodInvokedForSelector[selector] = subject
        return subject.asObservable()
    }

    private func invoked(_ selector: Selector, _ arguments: [Any]) {
        methodInvokedForSelector[selector]?.onNext(arguments)
    }

    func webViewDidStartLoad(_ webView: WebView) {
        forwardToDelegate?.webViewDidStartLoad(webView)
        invoked("webViewDidStartLoad:", [webView])
    }

    func webViewDidFinishLoad(_ webView: WebView) {
        forwardToDelegate?.webViewDidFinishLoad(webView)
        invoked("webViewDidFinishLoad:", [webView])
    }
}

extension Reactive where Base: WebView {
    var delegate: RxWebViewDelegateProxy { RxWebViewDelegateProxy.proxyForObject(base) }

    var didStartLoad: Observable<Void> {
        delegate.methodInvoked("webViewDidStartLoad:").map { _ in }
    }

    var didFinishLoad: Observable<Void> {
        delegate.methodInvoked("webViewDidFinishLoad:").map { _ in }
    }
}

/// The delegate the app had before Rx came along; it must keep working.
final class PageController: WebViewDelegate {
    func webViewDidStartLoad(_ webView: WebView) { print("original delegate: webViewDidStartLoad") }
    func webViewDidFinishLoad(_ webView: WebView) { print("original delegate: webViewDidFinishLoad") }
}

example("didStartLoad", draw: true) {
    let disposeBag = DisposeBag()
    let controller = PageController()
    let web = WebView()
    web.delegate = controller
    web.rx.didStartLoad
        .asObservable()
        .subscribe { (event) in
            print("event : \(event)")
        }.disposed(by: disposeBag)
    web.rx.didFinishLoad
        .subscribe(onNext: { print("finished loading") })
        .disposed(by: disposeBag)
    print("web.delegate is the proxy:", web.delegate === web.assignedProxy)
    web.loadRequest("baidu.com")
}

// MARK: - 3. NotificationCenter as an observable source

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

// MARK: - Exercises (the answers: make chapter N=15 ARGS=--answers)

exercise(1) {
    let button = UIButton()
    _ = button.rx.methodInvoked("setTitle:forState:").subscribe(onNext: { print("methodInvoked", $0) })
    _ = button.rx.sentMessage("setTitle:forState:").subscribe(onNext: { print("sentMessage", $0) })
    button.setTitle("A", for: 0)
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
}
