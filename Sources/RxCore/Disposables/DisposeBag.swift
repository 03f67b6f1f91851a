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
        self.init(disposing: disposables, file: file, line: line)
    }

    /// A bag holding `disposables` already.
    public convenience init(disposing disposables: [Disposable], file: StaticString = #fileID, line: UInt = #line) {
        self.init(file: file, line: line)
        insert(disposables)
    }

    /// A bag holding the disposables the builder lists, one per line.
    ///
    /// ```swift
    /// let disposeBag = DisposeBag {
    ///     names.subscribe(onNext: { print($0) })
    ///     ages.bind(to: label)
    /// }
    /// ```
    public convenience init(
        @DisposableBuilder builder: () -> [Disposable], file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(disposing: builder(), file: file, line: line)
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
        insert(disposables)
    }

    /// Adds an array of disposables.
    public func insert(_ disposables: [Disposable]) {
        for disposable in disposables { insert(disposable) }
    }

    /// Adds the disposables the builder lists, one per line.
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Gathers the disposables of a block, one per line, into an array (`DisposeBag { … }`).
    @resultBuilder
    public struct DisposableBuilder {
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
            disposables
        }
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
