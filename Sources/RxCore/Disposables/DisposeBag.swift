import Synchronization

/// Collects disposables and disposes them all when it is deallocated: "a rubbish bag" (000).
///
/// ```swift
/// let disposeBag = DisposeBag()
/// observable.subscribe(onNext: { print($0) }).disposed(by: disposeBag)
/// ```
public final class DisposeBag: DisposeBase {
    private struct State {
        var disposables: [Disposable] = []
        var disposed = false
    }

    private let state = Mutex(State())

    public init(file: StaticString = #fileID, line: UInt = #line) {
        super.init(counter: ResourceCounter.rxDisposeBag, callSite: CallSite(file, line))
    }

    /// A bag holding `disposables` already.
    public convenience init(disposing disposables: Disposable..., file: StaticString = #fileID, line: UInt = #line) {
        self.init(file: file, line: line)
        for disposable in disposables { insert(disposable) }
    }

    /// A bag holding `disposables` already.
    public convenience init(disposing disposables: [Disposable], file: StaticString = #fileID, line: UInt = #line) {
        self.init(file: file, line: line)
        for disposable in disposables { insert(disposable) }
    }

    /// Adds a disposable; if the bag was already emptied by deinit, disposes it at once.
    public func insert(_ disposable: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            if state.disposed { return true }
            state.disposables.append(disposable)
            return false
        }
        traceEdge(traceID, traceNodeID(of: disposable), .owns)
        if disposeNow { disposable.dispose() }
    }

    /// Adds several disposables.
    public func insert(_ disposables: Disposable...) {
        for disposable in disposables { insert(disposable) }
    }

    private func disposeAll() {
        let all = state.withLock { state -> [Disposable] in
            defer {
                state.disposables = []
                state.disposed = true
            }
            return state.disposables
        }
        if !all.isEmpty { traceDisposed(traceID) }
        for disposable in all {
            traceDisposeStep(traceID, disposable)
            disposable.dispose()
        }
    }

    deinit { disposeAll() }
}

extension ResourceCounter {
    fileprivate static let rxDisposeBag = named("DisposeBag")
}
