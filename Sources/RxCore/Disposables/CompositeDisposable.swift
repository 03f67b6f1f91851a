import Synchronization

/// A group of disposables disposed together; members can be added and removed by key.
public final class CompositeDisposable: DisposeBase, Cancelable {
    /// Identifies a member, for `remove(for:)`.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let value: Int
    }

    private struct State {
        var members: [Int: Disposable] = [:]
        var order: [Int] = []
        var nextKey = 0
        var disposed = false
    }

    private let state = Mutex(State())

    public init() {
        super.init(counter: .compositeDisposable)
    }

    public init(_ disposable1: Disposable, _ disposable2: Disposable) {
        super.init(counter: .compositeDisposable)
        _ = insert(disposable1)
        _ = insert(disposable2)
    }

    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        super.init(counter: .compositeDisposable)
        _ = insert(disposable1)
        _ = insert(disposable2)
        _ = insert(disposable3)
    }

    /// Four disposables or more.
    public init(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable,
        _ disposables: Disposable...
    ) {
        super.init(counter: .compositeDisposable)
        for disposable in [disposable1, disposable2, disposable3, disposable4] + disposables { _ = insert(disposable) }
    }

    public init(disposables: [Disposable]) {
        super.init(counter: .compositeDisposable)
        for disposable in disposables { _ = insert(disposable) }
    }

    /// Adds a member. When already disposed, disposes it at once and returns nil.
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key: Int? = state.withLock { state in
            if state.disposed { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.members[key] = disposable
            state.order.append(key)
            return key
        }
        traceEdge(traceID, traceNodeID(of: disposable), .owns)
        guard let key else {
            disposable.dispose()
            return nil
        }
        return DisposeKey(value: key)
    }

    /// How many members are held.
    public var count: Int { state.withLock { $0.members.count } }

    /// Removes the member and disposes it.
    public func remove(for key: DisposeKey) {
        let removed: Disposable? = state.withLock { state in
            guard let member = state.members.removeValue(forKey: key.value) else { return nil }
            if let index = state.order.firstIndex(of: key.value) { state.order.remove(at: index) }
            return member
        }
        removed?.dispose()
    }

    public var isDisposed: Bool { state.withLock { $0.disposed } }

    /// Disposes every member, in insertion order.
    public func dispose() {
        let members: [Disposable]? = state.withLock { state in
            if state.disposed { return nil }
            state.disposed = true
            let members = state.order.compactMap { state.members[$0] }
            state.members = [:]
            state.order = []
            return members
        }
        guard let members else { return }
        traceDisposed(traceID)
        for member in members {
            traceDisposeStep(traceID, member)
            member.dispose()
        }
    }
}
