import Synchronization

/// Live-object counts, always on.
///
/// RxSwift keeps `Resources.total` behind a special build flag. Here every core object
/// (observables, sinks, observers, disposables, subjects, scheduled items) is counted from birth
/// to `deinit`, per type, so a test can say *which* operator leaked:
///
/// ```swift
/// let before = Resources.snapshot()
/// // … subscribe, dispose …
/// print(Resources.snapshot().grown(since: before))   // ["MapSink": 1]
/// ```
public enum Resources {
    /// Every live core object, all types together (RxSwift's `Resources.total`).
    public static var total: Int32 {
        Int32(truncatingIfNeeded: ResourceCounter.all().reduce(0) { $0 + $1.live })
    }

    /// Live objects per short type name (`"MapSink"`), types with zero left out.
    public static var liveCounts: [String: Int] {
        snapshot().counts
    }

    /// The per-type counts at this moment.
    public static func snapshot() -> ResourceSnapshot {
        var counts: [String: Int] = [:]
        for counter in ResourceCounter.all() {
            let live = counter.live
            if live != 0 { counts[counter.name, default: 0] += live }
        }
        return ResourceSnapshot(counts: counts)
    }

    /// RxSwift spelling, kept so RxSwift code compiles: counts a resource that is not a core object.
    @discardableResult
    public static func incrementTotal() -> Int32 {
        ResourceCounter.external.increment()
        return total
    }

    /// RxSwift spelling; the partner of `incrementTotal()`.
    @discardableResult
    public static func decrementTotal() -> Int32 {
        ResourceCounter.external.decrement()
        return total
    }
}

/// Live counts per type at one moment, with the difference between two moments.
public struct ResourceSnapshot: Sendable, Equatable, CustomStringConvertible {
    public let counts: [String: Int]

    public init(counts: [String: Int]) { self.counts = counts }

    public var total: Int { counts.values.reduce(0, +) }

    /// Types whose live count changed since `earlier`, with the change (`+1 MapSink`).
    public func grown(since earlier: ResourceSnapshot) -> [String: Int] {
        var delta: [String: Int] = [:]
        for name in Set(counts.keys).union(earlier.counts.keys) {
            let d = (counts[name] ?? 0) - (earlier.counts[name] ?? 0)
            if d != 0 { delta[name] = d }
        }
        return delta
    }

    public var description: String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }
}

/// One live counter per core type. Counters register themselves once and live forever.
public final class ResourceCounter: Sendable {
    public let name: String
    private let count = Atomic<Int>(0)
    /// The global that also counts this type, when it is one of the `HotCount` types.
    private let hot: HotCount?

    private static let registry = Mutex<[ResourceCounter]>([])
    private static let byType = Mutex<[ObjectIdentifier: ResourceCounter]>([:])
    private static let byName = Mutex<[String: ResourceCounter]>([:])

    /// A counter for `name`; the same name always gives the same counter.
    public static func named(_ name: String) -> ResourceCounter {
        byName.withLock { table in
            if let existing = table[name] { return existing }
            let counter = ResourceCounter(uncheckedName: name)
            table[name] = counter
            registry.withLock { $0.append(counter) }
            return counter
        }
    }

    /// The counter for a class, named by its short type name (`MapSink<Int, …>` → `MapSink`).
    /// Cached per metatype; hot types pass an explicit counter instead to skip the lookup.
    public static func forType(_ type: AnyObject.Type) -> ResourceCounter {
        let key = ObjectIdentifier(type)
        if let hit = byType.withLock({ $0[key] }) { return hit }
        let counter = named(shortTypeName(type))
        byType.withLock { $0[key] = counter }
        return counter
    }

    static let external = ResourceCounter.named("External")

    private init(uncheckedName name: String) {
        self.name = name
        hot = HotCount(rawValue: name)
    }

    static func all() -> [ResourceCounter] {
        for hot in HotCount.allCases { _ = hot.counter } // registered, so their globals are seen
        return registry.withLock { $0 }
    }

    /// Births minus deaths, through this counter and, for a `HotCount` type, through its global.
    public var live: Int { count.load(ordering: .relaxed) + (hot?.live ?? 0) }

    @inline(__always)
    func increment() { count.wrappingAdd(1, ordering: .relaxed) }

    @inline(__always)
    func decrement() { count.wrappingSubtract(1, ordering: .relaxed) }
}

/// `MapSink<Int, AnonymousObserver<Int>>` → `MapSink`; `Module.Outer.Inner` → `Inner`.
public func shortTypeName(_ type: Any.Type) -> String {
    var name = String(describing: type)
    if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
    if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
    return name
}

/// Birth and death bookkeeping shared by every counted core object.
///
/// Each counted class stores a `ResourceCounter` and a trace id; `rxBirth` counts it and,
/// when tracing, registers the node; `rxDeath` (from `deinit`) undoes both.
@inline(__always)
func rxBirth(_ counter: ResourceCounter, _ kind: TraceNodeKind, _ callSite: CallSite?) -> UInt64 {
    counter.increment()
    #if !RX_NO_TRACE
    TraceAutostart.check() // `RXTRACE=…`: read once, at the first object (an atomic flag after)
    #endif
    guard let tracer = Tracing.active else { return 0 }
    return tracedBirth(tracer, counter, kind, callSite)
}

@inline(__always)
func rxDeath(_ counter: ResourceCounter, _ id: UInt64) {
    rxDeath(Unmanaged.passUnretained(counter), id)
}

/// `rxDeath` for a counter an object keeps unretained: no retain/release around the count.
@inline(__always)
func rxDeath(_ counter: Unmanaged<ResourceCounter>, _ id: UInt64) {
    counter._withUnsafeGuaranteedRef { $0.decrement() }
    if id != 0, let tracer = Tracing.active { tracer.deinitialized(id) }
}

/// `rxBirth` for a `HotCount` type: counts it in its global (one atomic add; no `swift_once`).
@inline(__always)
func rxBirth(_ hot: HotCount, _ kind: TraceNodeKind, _ callSite: CallSite?) -> UInt64 {
    hot.increment()
    #if !RX_NO_TRACE
    TraceAutostart.check()
    #endif
    guard let tracer = Tracing.active else { return 0 }
    return tracedBirth(tracer, hot.counter, kind, callSite)
}

/// `rxDeath` for a `HotCount` type.
@inline(__always)
func rxDeath(_ hot: HotCount, _ id: UInt64) {
    hot.decrement()
    if id != 0, let tracer = Tracing.active { tracer.deinitialized(id) }
}

// The live counts of the types made at every subscription, as globals with constant initial
// values: the compiler lays them out initialised, so counting is one atomic add. A `static let`
// counter is made on first use, and every read of it calls `swift_once` to check (seven such
// reads per `subject.map.filter.map` subscribe + dispose). Their `ResourceCounter`s add them in.
private let sinkDisposerLive = Atomic<Int>(0)
private let binaryDisposableLive = Atomic<Int>(0)
private let subscriptionDisposableLive = Atomic<Int>(0)

/// The types counted in globals of their own (see above).
enum HotCount: String, CaseIterable {
    case sinkDisposer = "SinkDisposer"
    case binaryDisposable = "BinaryDisposable"
    case subscriptionDisposable = "SubscriptionDisposable"

    /// The type's registered counter (which reports the global too).
    var counter: ResourceCounter {
        switch self {
        case .sinkDisposer: ResourceCounter.sinkDisposer
        case .binaryDisposable: ResourceCounter.binaryDisposable
        case .subscriptionDisposable: ResourceCounter.subscriptionDisposable
        }
    }

    var live: Int { withGlobal { $0.load(ordering: .relaxed) } }

    @inline(__always)
    func increment() { withGlobal { _ = $0.wrappingAdd(1, ordering: .relaxed) } }

    @inline(__always)
    func decrement() { withGlobal { _ = $0.wrappingSubtract(1, ordering: .relaxed) } }

    /// Runs `body` on this type's global (an `Atomic` cannot be returned, only lent).
    @inline(__always)
    private func withGlobal<Result>(_ body: (borrowing Atomic<Int>) -> Result) -> Result {
        switch self {
        case .sinkDisposer: body(sinkDisposerLive)
        case .binaryDisposable: body(binaryDisposableLive)
        case .subscriptionDisposable: body(subscriptionDisposableLive)
        }
    }
}

// The counters of the sinks and observer made at every subscription, kept by address in globals
// with a constant initial value (0 until first use): a birth reads one with an atomic load rather
// than calling `swift_once` for the `static let`. Counters live forever, so the address stays good.
private let mapSinkCounter = Atomic<UInt>(0)
private let filterSinkCounter = Atomic<UInt>(0)
private let anonymousObserverCounter = Atomic<UInt>(0)

/// Counters whose objects keep the counter in their flag word (sinks, observers): read through
/// the globals above, unretained.
enum CachedCounter {
    case mapSink, filterSink, anonymousObserver

    @inline(__always)
    var unmanaged: Unmanaged<ResourceCounter> {
        let word = withGlobal { $0.load(ordering: .acquiring) }
        if word != 0 { return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped) }
        return firstUse()
    }

    @inline(never)
    private func firstUse() -> Unmanaged<ResourceCounter> {
        let counter: ResourceCounter =
            switch self {
            case .mapSink: .mapSink
            case .filterSink: .filterSink
            case .anonymousObserver: .anonymousObserver
            }
        let word = UInt(bitPattern: Unmanaged.passUnretained(counter).toOpaque())
        // Every thread stores the same address: racing first uses agree.
        withGlobal { $0.store(word, ordering: .releasing) }
        return Unmanaged.passUnretained(counter)
    }

    /// Runs `body` on this counter's global.
    @inline(__always)
    private func withGlobal<Result>(_ body: (borrowing Atomic<UInt>) -> Result) -> Result {
        switch self {
        case .mapSink: body(mapSinkCounter)
        case .filterSink: body(filterSinkCounter)
        case .anonymousObserver: body(anonymousObserverCounter)
        }
    }
}

/// The counters of the hottest core types, so their births skip the by-type lookup.
extension ResourceCounter {
    static let sinkDisposer = named("SinkDisposer")
    static let anonymousObservable = named("AnonymousObservable")
    static let anonymousObservableSink = named("AnonymousObservableSink")
    static let anonymousObserver = named("AnonymousObserver")
    static let anonymousDisposable = named("AnonymousDisposable")
    static let binaryDisposable = named("BinaryDisposable")
    static let compositeDisposable = named("CompositeDisposable")
    static let nopDisposable = named("NopDisposable")
    static let map = named("Map")
    static let mapSink = named("MapSink")
    static let filter = named("Filter")
    static let filterSink = named("FilterSink")
    static let scheduledItem = named("ScheduledItem")
    static let subscriptionDisposable = named("SubscriptionDisposable")
}
