import Synchronization

/// Holds one disposable at a time; replacing it disposes the previous one.
public final class SerialDisposable: DisposeBase, Cancelable {
    private struct State {
        var current: Disposable?
        var disposed = false
    }

    private let state = Mutex(State())

    public init() { super.init(counter: ResourceCounter.rxSerialDisposable) }

    public var isDisposed: Bool { state.withLock { $0.disposed } }

    /// The current disposable. Setting it disposes the previous one; after `dispose()` a new
    /// value is disposed at once.
    public var disposable: Disposable {
        get { state.withLock { $0.current } ?? Disposables.create() }
        set {
            let (old, disposeNew): (Disposable?, Bool) = state.withLock { state in
                if state.disposed { return (nil, true) }
                let old = state.current
                state.current = newValue
                return (old, false)
            }
            if disposeNew {
                newValue.dispose()
            } else {
                traceEdge(traceID, traceNodeID(of: newValue), .owns)
                old?.dispose()
            }
        }
    }

    public func dispose() {
        let current: Disposable?? = state.withLock { state in
            if state.disposed { return .none }
            state.disposed = true
            defer { state.current = nil }
            return .some(state.current)
        }
        guard case .some(let inner) = current else { return }
        traceDisposed(traceID)
        inner?.dispose()
    }
}

/// Takes its disposable once, possibly after it was itself disposed.
public final class SingleAssignmentDisposable: DisposeBase, Cancelable {
    private struct State {
        var current: Disposable?
        var assigned = false
        var disposed = false
    }

    private let state = Mutex(State())

    public init() { super.init(counter: ResourceCounter.rxSingleAssignmentDisposable) }

    public var isDisposed: Bool { state.withLock { $0.disposed } }

    /// Sets the disposable. Must be called at most once; when already disposed it disposes
    /// `disposable` at once.
    public func setDisposable(_ disposable: Disposable) {
        let disposeNow: Bool = state.withLock { state in
            precondition(!state.assigned, "SingleAssignmentDisposable: the disposable was already set")
            state.assigned = true
            if state.disposed { return true }
            state.current = disposable
            return false
        }
        traceEdge(traceID, traceNodeID(of: disposable), .owns)
        if disposeNow { disposable.dispose() }
    }

    public func dispose() {
        let inner: Disposable?? = state.withLock { state in
            if state.disposed { return .none }
            state.disposed = true
            defer { state.current = nil }
            return .some(state.current)
        }
        guard case .some(let disposable) = inner else { return }
        traceDisposed(traceID)
        disposable?.dispose()
    }
}

/// Disposes its underlying disposable once the primary reference and every `retain()`ed
/// reference have been disposed.
public final class RefCountDisposable: DisposeBase, Cancelable {
    private struct State {
        var underlying: Disposable?
        var count = 0
        var primaryDisposed = false
    }

    private let state: Mutex<State>

    public init(disposable: Disposable) {
        state = Mutex(State(underlying: disposable))
        super.init(counter: ResourceCounter.rxRefCountDisposable)
    }

    public var isDisposed: Bool { state.withLock { $0.underlying == nil } }

    /// A dependent reference; the underlying disposable lives until it is disposed too.
    public func retain() -> Disposable {
        let alive: Bool = state.withLock { state in
            guard state.underlying != nil else { return false }
            state.count += 1
            return true
        }
        guard alive else { return Disposables.create() }
        return AnonymousDisposable { [weak self] in self?.release() }
    }

    private func release() {
        let toDispose: Disposable? = state.withLock { state in
            guard state.underlying != nil, state.count > 0 else { return nil }
            state.count -= 1
            if state.count == 0 && state.primaryDisposed {
                defer { state.underlying = nil }
                return state.underlying
            }
            return nil
        }
        toDispose?.dispose()
    }

    /// Disposes the primary reference.
    public func dispose() {
        let toDispose: Disposable? = state.withLock { state in
            guard state.underlying != nil, !state.primaryDisposed else { return nil }
            state.primaryDisposed = true
            if state.count == 0 {
                defer { state.underlying = nil }
                return state.underlying
            }
            return nil
        }
        if let toDispose {
            traceDisposed(traceID)
            toDispose.dispose()
        }
    }
}

/// Disposes its disposable on a scheduler.
public final class ScheduledDisposable: DisposeBase, Cancelable {
    public let scheduler: ImmediateSchedulerType
    private let inner: Mutex<Disposable?>

    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.inner = Mutex(disposable)
        super.init(counter: ResourceCounter.rxScheduledDisposable)
    }

    public var isDisposed: Bool { inner.withLock { $0 == nil } }

    public func dispose() {
        _ = scheduler.schedule(self) { this in
            let disposable = this.inner.withLock { state -> Disposable? in
                defer { state = nil }
                return state
            }
            disposable?.dispose()
            return Disposables.create()
        }
    }
}

extension ResourceCounter {
    fileprivate static let rxSerialDisposable = named("SerialDisposable")
    fileprivate static let rxSingleAssignmentDisposable = named("SingleAssignmentDisposable")
    fileprivate static let rxRefCountDisposable = named("RefCountDisposable")
    fileprivate static let rxScheduledDisposable = named("ScheduledDisposable")
}
