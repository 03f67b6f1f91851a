import Synchronization

/// Factory of the common disposables.
public enum Disposables {}

/// A disposable that does nothing. Shared when tracing is off; a fresh traced node when on,
/// so the diagram can show the handler's `Disposables.create()`.
struct NopDisposable: Disposable {
    /// Made where it is used: a value with no fields, so no allocation, and no `swift_once` check
    /// of a lazily made global at each use (`subscribe(onNext:)` reaches it at every subscription).
    static var noOp: Disposable { NopDisposable() }
    func dispose() {}
}

final class TracedNopDisposable: DisposeBase, Disposable {
    init(callSite: CallSite) { super.init(counter: .nopDisposable, callSite: callSite) }
    func dispose() { traceDisposed(traceID) }
}

extension Disposables {
    /// A disposable that does nothing on dispose.
    ///
    /// While tracing, one made in user code is a node of its own (001's handler returns one);
    /// the core's and the test kit's own `Disposables.create()` calls stay the shared no-op.
    public static func create(file: StaticString = #fileID, line: UInt = #line) -> Disposable {
        if Tracing.isOn, !isCoreFile(file) { return TracedNopDisposable(callSite: CallSite(file, line)) }
        return NopDisposable.noOp
    }

    /// Made by RxAnatomy's own libraries (the core, RxCocoa, the test kit) rather than by user code.
    private static func isCoreFile(_ file: StaticString) -> Bool {
        file.withUTF8Buffer { buffer in
            buffer.starts(with: "RxCore/".utf8) || buffer.starts(with: "RxCocoa/".utf8)
                || buffer.starts(with: "RxTesting/".utf8)
        }
    }

    /// A disposable that runs `dispose` once, on the first `dispose()`.
    public static func create(
        with dispose: @escaping () -> Void, file: StaticString = #fileID, line: UInt = #line
    ) -> Cancelable {
        // Made inside the core, it takes the call site of the subscription it serves.
        AnonymousDisposable(dispose, callSite: isCoreFile(file) ? nil : CallSite(file, line))
    }

    /// Disposes both.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// Disposes all three.
    public static func create(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable
    ) -> Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// Disposes all of them.
    public static func create(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposables: Disposable...
    ) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }

    /// Disposes all of them.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        switch disposables.count {
        case 2: return BinaryDisposable(disposables[0], disposables[1])
        default: return CompositeDisposable(disposables: disposables)
        }
    }
}

/// Runs an action once, on the first dispose.
final class AnonymousDisposable: DisposeBase, Cancelable {
    private let action: Mutex<(() -> Void)?>

    init(_ action: @escaping () -> Void, callSite: CallSite? = nil) {
        self.action = Mutex(action)
        super.init(counter: .anonymousDisposable, callSite: callSite)
    }

    var isDisposed: Bool { action.withLock { $0 == nil } }

    func dispose() {
        guard
            let action = action.withLock({ state -> (() -> Void)? in
                defer { state = nil }
                return state
            })
        else { return }
        traceDisposed(traceID)
        action()
    }
}

/// Disposes two disposables once: what `subscribe(onNext:…)` returns.
///
/// One state word holds the disposed bit and, above it, the trace node id (0 when not traced),
/// and `deinit` names its counter; the two are held as objects (nil for a no-op), so it is
/// 56 bytes, a 64-byte block (docs/performance.md).
final class BinaryDisposable: Cancelable, TraceIdentifiable {
    private let state: Atomic<UInt64>
    // Set in `init`; after that touched only by the one `dispose()` that sets `disposed`, which
    // leaves nil. Plain fields rather than a `Mutex` of an optional pair.
    @exclusivity(unchecked) private var disposable1: DisposableObject?
    @exclusivity(unchecked) private var disposable2: DisposableObject?

    convenience init(_ disposable1: __owned Disposable, _ disposable2: __owned Disposable, callSite: CallSite? = nil) {
        self.init(disposableObject(consume disposable1), disposableObject(consume disposable2), callSite: callSite)
    }

    /// With nothing as the second part (`subscribe` given no `onDisposed`): one conversion fewer
    /// than passing the no-op.
    convenience init(_ disposable1: __owned Disposable, callSite: CallSite? = nil) {
        self.init(disposableObject(consume disposable1), nil, callSite: callSite)
    }

    private init(_ object1: __owned DisposableObject?, _ object2: __owned DisposableObject?, callSite: CallSite?) {
        let id = rxBirth(HotCount.binaryDisposable, .disposable, callSite)
        if id != 0 {
            // A box is seen through (`DisposableBox` stands in for what it holds), nil has no node.
            if let object1 { traceEdge(id, traceNodeID(of: object1), .owns) }
            if let object2 { traceEdge(id, traceNodeID(of: object2), .owns) }
        }
        disposable1 = consume object1
        disposable2 = consume object2
        state = Atomic(id << 1)
    }

    deinit { rxDeath(HotCount.binaryDisposable, traceID) }

    /// Trace node id (0 when not traced).
    var traceID: UInt64 {
        @inline(__always) get { state.load(ordering: .relaxed) >> 1 }
    }

    var isDisposed: Bool { state.load(ordering: .acquiring) & 1 != 0 }

    func dispose() {
        let previous = state.bitwiseOr(1, ordering: .acquiringAndReleasing).oldValue
        if previous & 1 != 0 { return }
        traceDisposed(previous >> 1)
        // Moved out rather than copied.
        let disposable1 = self.disposable1.take()
        let disposable2 = self.disposable2.take()
        if let disposable1 {
            traceDisposeStep(traceID, disposable1)
            disposable1.dispose()
        }
        if let disposable2 {
            traceDisposeStep(traceID, disposable2)
            disposable2.dispose()
        }
    }
}

/// Reports whether it was disposed.
public final class BooleanDisposable: DisposeBase, Cancelable {
    /// An already disposed instance.
    public static let BooleanDisposableTrue = BooleanDisposable(isDisposed: true)
    private let disposed: Atomic<Bool>

    public init(isDisposed: Bool = false) {
        disposed = Atomic(isDisposed)
        super.init(counter: ResourceCounter.rxBooleanDisposable)
    }

    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    public func dispose() {
        if !disposed.exchange(true, ordering: .acquiringAndReleasing) { traceDisposed(traceID) }
    }
}

extension ResourceCounter {
    fileprivate static let rxBooleanDisposable = named("BooleanDisposable")
}
