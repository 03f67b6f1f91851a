/// An event stream: never fails, delivers on the main scheduler, shares one subscription and
/// replays nothing to a new subscriber (RxCocoa's `Signal`; see `SharedSequence` for Linux).
///
/// ```swift
/// taps.asSignal(onErrorSignalWith: .empty()).emit(onNext: { print("tap") })
/// ```
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

/// Signal's sharing: `share(scope: .whileConnected)` on `SharingScheduler.make()`.
public struct SignalSharingStrategy: SharingStrategyProtocol, CallSiteSharingStrategy {
    public static var scheduler: SchedulerType { SharingScheduler.make() }

    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }

    static func share<Element>(_ source: Observable<Element>, file: StaticString, line: UInt) -> Observable<Element> {
        source.share(scope: .whileConnected, file: file, line: line)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Itself, as a `Signal`.
    public func asSignal() -> Signal<Element> {
        asSharedSequence()
    }
}

// MARK: - Making signals

extension ObservableConvertibleType {
    /// A `Signal` that, on error, emits `onErrorJustReturn` and completes.
    public func asSignal(
        onErrorJustReturn: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Signal<Element> {
        asSharedSequence(onErrorJustReturn: onErrorJustReturn, file: file, line: line)
    }

    /// A `Signal` that, on error, continues with `onErrorSignalWith`.
    public func asSignal(
        onErrorSignalWith: Signal<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Signal<Element> {
        asSharedSequence(onErrorDriveWith: onErrorSignalWith, file: file, line: line)
    }

    /// A `Signal` that, on error, continues with the `Signal` `onErrorRecover` makes of the error.
    public func asSignal(
        onErrorRecover: @escaping (_ error: Swift.Error) -> Signal<Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Signal<Element> {
        asSharedSequence(onErrorRecover: onErrorRecover, file: file, line: line)
    }
}

extension PublishRelay {
    /// This relay as a `Signal`.
    public func asSignal(file: StaticString = #fileID, line: UInt = #line) -> Signal<Element> {
        Signal(
            asObservable().observe(on: SignalSharingStrategy.scheduler, file: file, line: line), file: file, line: line)
    }
}
