// The work every benchmark measures, once for RxCore and once for OpenCombine 0.14.0, so that
// the package-benchmark suite (Benchmarks/Core) and the plain executable `Probe` (child processes:
// callgrind, resident memory without the malloc interposer, RXTRACE) run the same code.
//
// Every pipeline does the same work on both sides: integers, `+ 1`, keep the even ones, sum what
// arrives. Each function returns its sum so that the optimiser cannot drop the work.

import OpenCombine
import RxCore

/// The measures of issue 22's table, by the name `Probe` and the suite use for them.
public enum Workload: String, CaseIterable, Sendable {
    /// Subscribe and dispose of `subject.map.filter.map`, per cycle.
    case chain
    /// `flatMap` of `just` inners, per inner.
    case flatMapJust = "flatmap-just"
    /// `PublishSubject → map → filter → subscribe`, per element.
    case subject
    /// `create → map → filter → subscribe` (OpenCombine: `Sequence.publisher`), per element.
    case create
    /// `range → map → filter → subscribe` (OpenCombine: `Sequence.publisher`), per element.
    case range

    /// What one unit of the workload is, for printing.
    public var unit: String {
        switch self {
        case .chain: "cycle"
        case .flatMapJust: "inner"
        case .subject, .create, .range: "element"
        }
    }
}

/// The two libraries measured side by side.
public enum Library: String, CaseIterable, Sendable {
    case rxCore = "rxcore"
    case openCombine = "opencombine"

    public var name: String {
        switch self {
        case .rxCore: "RxCore"
        case .openCombine: "OpenCombine"
        }
    }

    /// Runs `count` units of `workload`; returns the checksum.
    public func run(_ workload: Workload, _ count: Int) -> Int {
        switch (self, workload) {
        case (.rxCore, .chain): RxWork.chain(count)
        case (.rxCore, .flatMapJust): RxWork.flatMapJust(count)
        case (.rxCore, .subject): RxWork.subject(count)
        case (.rxCore, .create): RxWork.create(count)
        case (.rxCore, .range): RxWork.range(count)
        case (.openCombine, .chain): CombineWork.chain(count)
        case (.openCombine, .flatMapJust): CombineWork.flatMapJust(count)
        case (.openCombine, .subject): CombineWork.subject(count)
        case (.openCombine, .create), (.openCombine, .range): CombineWork.sequence(count)
        }
    }

    /// Makes `count` live `subject → map → filter → map → subscribe` subscriptions and returns
    /// how to feed and end them. `ready` is called once the subject and the array that keeps the
    /// subscriptions exist, just before the first subscription: what is allocated after it is the
    /// subscriptions' own (and the subject's room for their observers).
    public func liveSubscriptions(_ count: Int, ready: () -> Void = {}) -> LiveSubscriptions {
        switch self {
        case .rxCore: RxWork.live(count, ready: ready)
        case .openCombine: CombineWork.live(count, ready: ready)
        }
    }
}

/// Subscriptions kept alive, and how to feed and end them.
public struct LiveSubscriptions {
    /// Sends one element to every subscription; returns the checksum they add up.
    public let send: (Int) -> Int
    /// Disposes of (cancels) every subscription: the newest first when `newestFirst`, else in
    /// the order they were made. (Both subjects keep their subscribers in an array and close the
    /// gap a removal leaves, so the oldest first moves every later one: quadratic in the count.)
    public let end: (_ newestFirst: Bool) -> Void
}

/// Adds to a checksum from a closure that must not be optimised away.
final class Total {
    var value = 0
}

@inline(never)
func keep(_ value: Int) -> Int { value }

enum RxWork {
    @inline(never)
    static func chain(_ count: Int) -> Int {
        let total = Total()
        let subject = PublishSubject<Int>()
        let chain = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.map { $0 * 3 }
        for _ in 0..<count {
            chain.subscribe(onNext: { total.value &+= $0 }).dispose()
        }
        return keep(total.value)
    }

    @inline(never)
    static func flatMapJust(_ count: Int) -> Int {
        var total = 0
        let subscription = Observable<Int>.range(start: 0, count: count)
            .flatMap { Observable.just($0) }
            .subscribe(onNext: { total &+= $0 })
        subscription.dispose()
        return keep(total)
    }

    @inline(never)
    static func subject(_ count: Int) -> Int {
        var total = 0
        let subject = PublishSubject<Int>()
        let subscription = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.subscribe(onNext: { total &+= $0 })
        for i in 0..<count { subject.onNext(i) }
        subject.onCompleted()
        subscription.dispose()
        return keep(total)
    }

    @inline(never)
    static func create(_ count: Int) -> Int {
        var total = 0
        let source = Observable<Int>.create { observer in
            for i in 0..<count { observer.onNext(i) }
            observer.onCompleted()
            return Disposables.create()
        }
        let subscription = source.map { $0 + 1 }.filter { $0 % 2 == 0 }.subscribe(onNext: { total &+= $0 })
        subscription.dispose()
        return keep(total)
    }

    @inline(never)
    static func range(_ count: Int) -> Int {
        var total = 0
        let subscription = Observable<Int>.range(start: 0, count: count)
            .map { $0 + 1 }.filter { $0 % 2 == 0 }.subscribe(onNext: { total &+= $0 })
        subscription.dispose()
        return keep(total)
    }

    static func live(_ count: Int, ready: () -> Void) -> LiveSubscriptions {
        let total = Total()
        let subject = PublishSubject<Int>()
        var subscriptions: [Disposable] = []
        subscriptions.reserveCapacity(count)
        ready()
        for _ in 0..<count {
            subscriptions.append(
                subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.map { $0 * 3 }.subscribe(onNext: { total.value &+= $0 }))
        }
        return LiveSubscriptions(
            send: { value in
                subject.onNext(value)
                return total.value
            },
            end: { newestFirst in
                for subscription in newestFirst ? subscriptions.reversed() : subscriptions { subscription.dispose() }
                subscriptions = []
            })
    }
}

enum CombineWork {
    @inline(never)
    static func chain(_ count: Int) -> Int {
        let total = Total()
        let subject = PassthroughSubject<Int, Never>()
        let chain = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.map { $0 * 3 }
        for _ in 0..<count {
            chain.sink { total.value &+= $0 }.cancel()
        }
        return keep(total.value)
    }

    @inline(never)
    static func flatMapJust(_ count: Int) -> Int {
        var total = 0
        let cancellable = (0..<count).publisher.flatMap { Just($0) }.sink { total &+= $0 }
        cancellable.cancel()
        return keep(total)
    }

    @inline(never)
    static func subject(_ count: Int) -> Int {
        var total = 0
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.sink { total &+= $0 }
        for i in 0..<count { subject.send(i) }
        subject.send(completion: .finished)
        cancellable.cancel()
        return keep(total)
    }

    @inline(never)
    static func sequence(_ count: Int) -> Int {
        var total = 0
        let cancellable = (0..<count).publisher.map { $0 + 1 }.filter { $0 % 2 == 0 }.sink { total &+= $0 }
        cancellable.cancel()
        return keep(total)
    }

    static func live(_ count: Int, ready: () -> Void) -> LiveSubscriptions {
        let total = Total()
        let subject = PassthroughSubject<Int, Never>()
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(count)
        ready()
        for _ in 0..<count {
            subscriptions.append(
                subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.map { $0 * 3 }.sink { total.value &+= $0 })
        }
        return LiveSubscriptions(
            send: { value in
                subject.send(value)
                return total.value
            },
            end: { newestFirst in
                for subscription in newestFirst ? subscriptions.reversed() : subscriptions { subscription.cancel() }
                subscriptions = []
            })
    }
}
