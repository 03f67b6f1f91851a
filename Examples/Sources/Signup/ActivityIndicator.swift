import Foundation
import RxCocoa
import RxSwift

/// Whether any tracked work is running, as a Driver: `true` while at least one sequence made
/// with `trackActivity` is subscribed. Apps write this type themselves (RxSwift's examples
/// have one); it converts to a Driver by conforming to `SharedSequenceConvertibleType`, so it
/// goes wherever a Driver goes (`Driver.combineLatest(valid, indicator)`).
public final class ActivityIndicator: SharedSequenceConvertibleType {
    public typealias Element = Bool
    public typealias SharingStrategy = DriverSharingStrategy

    private let lock = NSLock()
    private let running = BehaviorRelay(value: 0)
    private let isActive: Driver<Bool>

    public init() {
        isActive = running.asDriver().map { $0 > 0 }.distinctUntilChanged()
    }

    fileprivate func track<Source: ObservableConvertibleType>(_ source: Source) -> Observable<Source.Element> {
        Observable.using(
            { () -> ActivityToken in
                self.change(by: 1)
                return ActivityToken { self.change(by: -1) }
            }, observableFactory: { _ in source.asObservable() })
    }

    private func change(by delta: Int) {
        lock.lock()
        running.accept(running.value + delta)
        lock.unlock()
    }

    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> {
        isActive
    }
}

private final class ActivityToken: Disposable {
    private var end: (() -> Void)?
    init(end: @escaping () -> Void) { self.end = end }
    func dispose() {
        end?()
        end = nil
    }
}

extension ObservableConvertibleType {
    /// This sequence, counted as running by `indicator` while it is subscribed.
    public func trackActivity(_ indicator: ActivityIndicator) -> Observable<Element> {
        indicator.track(self)
    }
}
