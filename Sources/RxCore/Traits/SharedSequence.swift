import Foundation
import Synchronization

/// How a `SharedSequence` shares its source and where it delivers: `DriverSharingStrategy`
/// (replay 1) and `SignalSharingStrategy` (no replay), both on `SharingScheduler.make()`.
public protocol SharingStrategyProtocol {
    /// Where elements are delivered (the main scheduler, unless mocked).
    static var scheduler: SchedulerType { get }
    /// Shares `source` among subscribers.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// An observable that cannot fail, delivers on the main scheduler and shares one subscription
/// among its subscribers: the base of `Driver` and `Signal` (RxCocoa's traits).
///
/// ## On Linux
///
/// Delivery goes through `MainScheduler.instance`, that is `DispatchQueue.main`: a
/// command-line program must drain the main queue (`dispatchMain()`, `RunLoop.main.run(until:)`
/// or `MainScheduler.drain(timeout:until:)`; see `docs/schedulers.md`). `drive` and `emit` do not
/// insist on being called on the main thread, as RxCocoa does on Apple platforms, because Swift
/// Testing runs tests off it. Tests replace the scheduler with
/// `SharingScheduler.mock(scheduler:) { … }`.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: ObservableConvertibleType {
    let source: Observable<Element>

    /// Shares `source` by the strategy (callers make sure it cannot fail and is on the scheduler).
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    init(raw: Observable<Element>) {
        self.source = raw
    }

    /// The underlying observable.
    public func asObservable() -> Observable<Element> { source }

    /// Itself.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> { self }
}

/// The scheduler `Driver` and `Signal` deliver on: `MainScheduler.instance`, or a mock while
/// `mock(scheduler:action:)` runs.
public enum SharingScheduler {
    private static let factory = Mutex<UncheckedSchedulerFactory?>(nil)

    /// The current scheduler maker.
    public static var make: () -> SchedulerType {
        factory.withLock { $0 }?.make ?? { MainScheduler.instance }
    }

    /// Runs `action` with `scheduler` as the sharing scheduler (for tests on virtual time).
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with `makeScheduler` making the sharing scheduler.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows {
        let original = factory.withLock { current in
            defer { current = UncheckedSchedulerFactory(make: makeScheduler) }
            return current
        }
        defer { factory.withLock { $0 = original } }
        try action()
    }
}

private struct UncheckedSchedulerFactory: @unchecked Sendable {
    let make: () -> SchedulerType
}

extension SharedSequence {
    /// A shared sequence of one element.
    public static func just(
        _ element: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.just(element, scheduler: SharingStrategy.scheduler, file: file, line: line))
    }

    /// A shared sequence that completes at once.
    public static func empty(
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            raw: Observable.empty(file: file, line: line).subscribe(
                on: SharingStrategy.scheduler, file: file, line: line))
    }

    /// A shared sequence that never says anything.
    public static func never(
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.never(file: file, line: line))
    }

    /// The elements in order, then completion, on the sharing scheduler.
    public static func of(
        _ elements: Element..., file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(elements, scheduler: SharingStrategy.scheduler, file: file, line: line))
    }

    /// Transforms each element (`transform` must not throw: a shared sequence cannot fail).
    public func map<Result>(
        _ transform: @escaping (Element) -> Result, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence<SharingStrategy, Result>(source.map(transform, file: file, line: line))
    }

    /// Keeps the elements for which `predicate` holds.
    public func filter(
        _ predicate: @escaping (Element) -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.filter(predicate, file: file, line: line))
    }

    /// Calls the closures as events pass.
    public func `do`(
        onNext: ((Element) -> Void)? = nil, afterNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil, onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            raw: source.do(
                onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, file: file, line: line))
    }

    /// Prints the subscription's events (see `ObservableType.debug`).
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}

// MARK: - Making shared sequences from observables

extension ObservableConvertibleType {
    fileprivate func sharedSequence<Strategy: SharingStrategyProtocol>(
        _ strategy: Strategy.Type, onError recover: @escaping (Swift.Error) -> Observable<Element>, file: StaticString,
        line: UInt
    ) -> SharedSequence<Strategy, Element> {
        let source = asObservable()
            .observe(on: Strategy.scheduler, file: file, line: line)
            .catch({ error in recover(error) }, file: file, line: line)
        return SharedSequence(source)
    }
}

// MARK: - Driver

/// Shares with replay 1: a new subscriber gets the latest element first (a UI state).
public struct DriverSharingStrategy: SharingStrategyProtocol {
    public static var scheduler: SchedulerType { SharingScheduler.make() }
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

/// A UI state: never fails, delivers on the main scheduler, new subscribers get the latest
/// element (RxCocoa's `Driver`; see `SharedSequence` for Linux).
///
/// ```swift
/// let results = query.asDriver(onErrorJustReturn: [])
/// results.drive(onNext: { table.reload($0) }).disposed(by: bag)
/// ```
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

extension ObservableConvertibleType {
    /// A `Driver` that, on error, emits `onErrorJustReturn` and completes.
    public func asDriver(
        onErrorJustReturn: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Driver<Element> {
        sharedSequence(
            DriverSharingStrategy.self, onError: { _ in Observable.just(onErrorJustReturn) }, file: file, line: line)
    }

    /// A `Driver` that, on error, continues with `onErrorDriveWith`.
    public func asDriver(
        onErrorDriveWith: Driver<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Driver<Element> {
        sharedSequence(
            DriverSharingStrategy.self, onError: { _ in onErrorDriveWith.asObservable() }, file: file, line: line)
    }

    /// A `Driver` that, on error, continues with the `Driver` `onErrorRecover` returns.
    public func asDriver(
        onErrorRecover: @escaping (Swift.Error) -> Driver<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Driver<Element> {
        sharedSequence(
            DriverSharingStrategy.self, onError: { onErrorRecover($0).asObservable() }, file: file, line: line)
    }
}

extension SharedSequence where SharingStrategy == DriverSharingStrategy {
    /// Sends every element to `observers`.
    public func drive<Observer: ObserverType>(
        _ observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element {
        source.subscribe({ event in observers.forEach { $0.on(event) } }, file: file, line: line)
    }

    /// Sends every element, as an optional, to `observers`.
    public func drive<Observer: ObserverType>(
        _ observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element? {
        source.subscribe({ event in observers.forEach { $0.on(event.map { $0 }) } }, file: file, line: line)
    }

    /// Accepts every element into `relays`.
    public func drive(
        _ relays: BehaviorRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element, as an optional, into `relays`.
    public func drive(
        _ relays: BehaviorRelay<Element?>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element into `relays`.
    public func drive(
        _ relays: PublishRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Subscribes closures (a `Driver` cannot fail, so there is no `onError`).
    public func drive(
        onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, file: file, line: line)
    }

    /// Like `drive(onNext:…)`, passing `object` (held weakly) to each closure.
    public func drive<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        source.subscribe(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, file: file, line: line)
    }
}

extension BehaviorRelay {
    /// This relay as a `Driver`: its current value first, then every accepted one.
    public func asDriver(file: StaticString = #fileID, line: UInt = #line) -> Driver<Element> {
        Driver(raw: asObservable().observe(on: DriverSharingStrategy.scheduler, file: file, line: line))
    }
}

// MARK: - Signal

/// Shares with no replay: a new subscriber gets only what comes after (an event, a tap).
public struct SignalSharingStrategy: SharingStrategyProtocol {
    public static var scheduler: SchedulerType { SharingScheduler.make() }
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

/// An event stream: never fails, delivers on the main scheduler, no replay (RxCocoa's
/// `Signal`; see `SharedSequence` for Linux).
///
/// ```swift
/// taps.asSignal(onErrorSignalWith: .empty()).emit(onNext: { print("tap") })
/// ```
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

extension ObservableConvertibleType {
    /// A `Signal` that, on error, emits `onErrorJustReturn` and completes.
    public func asSignal(
        onErrorJustReturn: Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Signal<Element> {
        sharedSequence(
            SignalSharingStrategy.self, onError: { _ in Observable.just(onErrorJustReturn) }, file: file, line: line)
    }

    /// A `Signal` that, on error, continues with `onErrorSignalWith`.
    public func asSignal(
        onErrorSignalWith: Signal<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Signal<Element> {
        sharedSequence(
            SignalSharingStrategy.self, onError: { _ in onErrorSignalWith.asObservable() }, file: file, line: line)
    }

    /// A `Signal` that, on error, continues with the `Signal` `onErrorRecover` returns.
    public func asSignal(
        onErrorRecover: @escaping (Swift.Error) -> Signal<Element>, file: StaticString = #fileID, line: UInt = #line
    ) -> Signal<Element> {
        sharedSequence(
            SignalSharingStrategy.self, onError: { onErrorRecover($0).asObservable() }, file: file, line: line)
    }
}

extension SharedSequence where SharingStrategy == SignalSharingStrategy {
    /// Sends every element to `observers`.
    public func emit<Observer: ObserverType>(
        to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element {
        source.subscribe({ event in observers.forEach { $0.on(event) } }, file: file, line: line)
    }

    /// Sends every element, as an optional, to `observers`.
    public func emit<Observer: ObserverType>(
        to observers: Observer..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable where Observer.Element == Element? {
        source.subscribe({ event in observers.forEach { $0.on(event.map { $0 }) } }, file: file, line: line)
    }

    /// Accepts every element into `relays`.
    public func emit(
        to relays: PublishRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Accepts every element into `relays`.
    public func emit(
        to relays: BehaviorRelay<Element>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, file: file, line: line)
    }

    /// Subscribes closures (a `Signal` cannot fail, so there is no `onError`).
    public func emit(
        onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, file: file, line: line)
    }

    /// Like `emit(onNext:…)`, passing `object` (held weakly) to each closure.
    public func emit<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Disposable {
        source.subscribe(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, file: file, line: line)
    }
}

extension PublishRelay {
    /// This relay as a `Signal`.
    public func asSignal(file: StaticString = #fileID, line: UInt = #line) -> Signal<Element> {
        Signal(raw: asObservable().observe(on: SignalSharingStrategy.scheduler, file: file, line: line))
    }
}
