import Foundation

#if !canImport(Darwin)
// Foundation on Linux (swift-foundation) makes `NotificationCenter` a class of its own rather
// than an `NSObject`, so it does not get `rx` from `NSObject` as it does on Apple platforms.
extension NotificationCenter: ReactiveCompatible {}
#endif

extension Reactive where Base: NotificationCenter {
    /// The notifications named `name` (any name when `nil`) posted by `object` (anyone when
    /// `nil`), each delivered on the posting thread; disposing removes the observer.
    ///
    /// ```swift
    /// NotificationCenter.default.rx.notification(.NSCalendarDayChanged)
    ///     .subscribe(onNext: { _ in refresh() })
    /// ```
    public func notification(
        _ name: Notification.Name?, object: AnyObject? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Notification> {
        let center = base
        return Observable.create(
            { [weak object] observer in
                let token = center.addObserver(forName: name, object: object, queue: nil) { notification in
                    observer.on(.next(notification))
                }
                return Disposables.create { center.removeObserver(token) }
            }, file: file, line: line)
    }
}
