/// A UI state: never fails, delivers on the main scheduler, shares one subscription and gives
/// a new subscriber the latest element first (RxCocoa's `Driver`; see `SharedSequence` for
/// Linux).
///
/// ```swift
/// let results = query.asDriver(onErrorJustReturn: [])
/// results.drive(onNext: { table.reload($0) }).disposed(by: disposeBag)
/// ```
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

/// Driver's sharing: `share(replay: 1, scope: .whileConnected)` on `SharingScheduler.make()`.
public struct DriverSharingStrategy: SharingStrategyProtocol, CallSiteSharingStrategy {
    public static var scheduler: SchedulerType { SharingScheduler.make() }

    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }

    static func share<Element>(_ source: Observable<Element>, file: StaticString, line: UInt) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected, file: file, line: line)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Itself, as a `Driver`.
    public func asDriver() -> Driver<Element> {
        asSharedSequence()
    }
}

// MARK: - Making drivers

extension ObservableConvertibleType {
    /// A `Driver` that, on error, emits `onErrorJustReturn` and completes.
    public func asDriver(
        onErrorJustReturn: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Driver<Element> {
        asSharedSequence(onErrorJustReturn: onErrorJustReturn, file: file, line: line)
    }

    /// A `Driver` that, on error, continues with `onErrorDriveWith`.
    public func asDriver(
        onErrorDriveWith: Driver<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Driver<Element> {
        asSharedSequence(onErrorDriveWith: onErrorDriveWith, file: file, line: line)
    }

    /// A `Driver` that, on error, continues with the `Driver` `onErrorRecover` makes of the error.
    public func asDriver(
        onErrorRecover: @escaping (_ error: Swift.Error) -> Driver<Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Driver<Element> {
        asSharedSequence(onErrorRecover: onErrorRecover, file: file, line: line)
    }
}

extension BehaviorRelay {
    /// This relay as a `Driver`: its current value first, then every accepted one.
    public func asDriver(file: StaticString = #fileID, line: UInt = #line) -> Driver<Element> {
        Driver(
            asObservable().observe(on: DriverSharingStrategy.scheduler, file: file, line: line), file: file, line: line)
    }
}

extension InfallibleType {
    /// This `Infallible` as a `Driver` (it cannot fail, so nothing to replace).
    public func asDriver(file: StaticString = #fileID, line: UInt = #line) -> Driver<Element> {
        Driver(
            asObservable().observe(on: DriverSharingStrategy.scheduler, file: file, line: line), file: file, line: line)
    }
}
