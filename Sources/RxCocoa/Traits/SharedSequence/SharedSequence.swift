/// An observable that cannot fail, delivers on its strategy's scheduler and shares one
/// subscription among its subscribers: the base of `Driver` and `Signal` (RxCocoa's traits).
///
/// ```swift
/// let results: Driver<[String]> = query.flatMapLatest(search).asDriver(onErrorJustReturn: [])
/// results.drive(onNext: { table.reload($0) }).disposed(by: disposeBag)
/// ```
///
/// Every operator is the `Observable` operator of the same name followed by the strategy's
/// sharing, so a trace shows the same nodes (`Map`, then the `RefCount` and `Multicast` of the
/// sharing) with the call site of the line that wrote the operator.
///
/// ## On Linux
///
/// Delivery goes through `MainScheduler.instance`, that is `DispatchQueue.main`: a
/// command-line program must drain the main queue (`dispatchMain()`, `RunLoop.main.run(until:)`
/// or `MainScheduler.drain(timeout:until:)`; see `docs/schedulers.md`). `drive` does not insist
/// on being called on the main thread, as RxCocoa does not on Linux. Tests replace the scheduler
/// with `SharingScheduler.mock(scheduler:) { … }`.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType,
    ObservableConvertibleType
{
    let source: Observable<Element>

    /// Shares `source` by the strategy (callers make sure it cannot fail and is on the scheduler).
    init(_ source: Observable<Element>, file: StaticString, line: UInt) {
        if let strategy = SharingStrategy.self as? CallSiteSharingStrategy.Type {
            self.source = strategy.share(source, file: file, line: line)
        } else {
            self.source = SharingStrategy.share(source)
        }
    }

    /// Wraps `source` as it is: it already shares, or has nothing to share (`just`, `empty`, …).
    init(raw: Observable<Element>) {
        self.source = raw
    }

    /// The underlying observable.
    public func asObservable() -> Observable<Element> { source }

    /// Itself.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> { self }

    /// This `Driver` or `Signal` as an `Infallible` (neither can fail).
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}

/// How a `SharedSequence` shares its source and where it delivers. `DriverSharingStrategy`
/// (replay 1) and `SignalSharingStrategy` (no replay) are RxCocoa's; a strategy of one's own
/// makes a trait of one's own:
///
/// ```swift
/// struct ForeverStrategy: SharingStrategyProtocol {
///     static var scheduler: SchedulerType { SharingScheduler.make() }
///     static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
///         source.share(replay: 1, scope: .forever)
///     }
/// }
/// typealias Forever<Element> = SharedSequence<ForeverStrategy, Element>
/// ```
public protocol SharingStrategyProtocol {
    /// Where elements are delivered.
    static var scheduler: SchedulerType { get }
    /// Shares `source` among subscribers.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A strategy that shares with the call site of the operator that made the sequence, so a
/// trace names the user's line for the sharing's nodes too (Driver's and Signal's).
protocol CallSiteSharingStrategy: SharingStrategyProtocol {
    static func share<Element>(_ source: Observable<Element>, file: StaticString, line: UInt) -> Observable<Element>
}

/// Something that is a `SharedSequence`: the protocol that operators and third-party extensions
/// extend (`extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy`).
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
    associatedtype SharingStrategy: SharingStrategyProtocol

    /// This sequence as a `SharedSequence`.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequenceConvertibleType {
    public func asObservable() -> Observable<Element> {
        asSharedSequence().asObservable()
    }
}

// MARK: - Creation

extension SharedSequence {
    /// Completes, on the sharing scheduler.
    public static func empty(
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            raw: Observable.empty(file: file, line: line).subscribe(
                on: SharingStrategy.scheduler, file: file, line: line))
    }

    /// Never says anything.
    public static func never(
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.never(file: file, line: line))
    }

    /// `element`, then `completed`, both in the one step the sharing scheduler runs.
    public static func just(
        _ element: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            raw: Observable.just(element, file: file, line: line).subscribe(
                on: SharingStrategy.scheduler, file: file, line: line))
    }

    /// The sequence `observableFactory` makes anew for each subscription to the shared one.
    public static func deferred(
        _ observableFactory: @escaping () -> SharedSequence<SharingStrategy, Element>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            Observable.deferred({ observableFactory().asObservable() }, file: file, line: line), file: file, line: line)
    }

    /// The elements one by one on the sharing scheduler, then `completed`.
    public static func of(
        _ elements: Element..., file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(elements, scheduler: SharingStrategy.scheduler, file: file, line: line))
    }

    /// The array's elements one by one on the sharing scheduler, then `completed`.
    public static func from(
        _ array: [Element], file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(array, scheduler: SharingStrategy.scheduler, file: file, line: line))
    }

    /// The sequence's elements one by one on the sharing scheduler, then `completed`.
    public static func from<Sequence: Swift.Sequence>(
        _ sequence: Sequence, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> where Sequence.Element == Element {
        SharedSequence(raw: Observable.from(sequence, scheduler: SharingStrategy.scheduler, file: file, line: line))
    }

    /// The optional's value if it has one, then `completed`, on the sharing scheduler.
    public static func from(
        optional: Element?, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            raw: Observable.from(optional: optional, scheduler: SharingStrategy.scheduler, file: file, line: line))
    }
}

extension SharedSequence where Element: RxAbstractInteger {
    /// 0, 1, 2, … one every `period`, the first after one `period`; shared.
    public static func interval(
        _ period: RxTimeInterval, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            Observable.interval(period, scheduler: SharingStrategy.scheduler, file: file, line: line), file: file,
            line: line)
    }

    /// 0 after `dueTime`, then 1, 2, … every `period`; shared.
    public static func timer(
        _ dueTime: RxTimeInterval, period: RxTimeInterval, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler, file: file, line: line),
            file: file, line: line)
    }
}
