import Synchronization

// The traits awaited: `try await single.value`. Cancelling the awaiting task disposes the
// subscription and throws `CancellationError`.

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// A `Single` whose subscription runs `work` in a `Task`: its result is the success,
    /// its error the failure. Disposing the subscription cancels the task.
    ///
    /// ```swift
    /// Single<User>.create { try await api.user(id) }
    /// ```
    @_disfavoredOverload
    public static func create(
        detached: Bool = false, priority: TaskPriority? = nil,
        work: @Sendable @escaping () async throws -> Element, file: StaticString = #fileID, line: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        create(
            subscribe: { single in
                let operation: @Sendable () async -> Void = {
                    do {
                        single(.success(try await work()))
                    } catch {
                        single(.failure(error))
                    }
                }
                let task =
                    detached
                    ? Task.detached(priority: priority, operation: operation)
                    : Task(
                        priority: priority, operation: operation)
                return Disposables.create { task.cancel() }
            }, file: file, line: line)
    }

    /// The element, awaited; the failure is thrown.
    ///
    /// ```swift
    /// let user = try await fetchUser.value
    /// ```
    public var value: Element {
        get async throws {
            try await awaitOutcome { resume in
                primitiveSequence.subscribe(
                    onSuccess: { resume(.success($0)) }, onFailure: { resume(.failure($0)) },
                    onDisposed: { resume(.failure(CancellationError())) })
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The element, or `nil` when the `Maybe` completes empty; the error is thrown.
    public var value: Element? {
        get async throws {
            try await awaitOutcome { resume in
                primitiveSequence.subscribe(
                    onSuccess: { resume(.success($0)) }, onError: { resume(.failure($0)) },
                    onCompleted: { resume(.success(nil)) }, onDisposed: { resume(.failure(CancellationError())) })
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Returns when the `Completable` completes; its error is thrown.
    public var value: Void {
        get async throws {
            try await awaitOutcome { resume in
                primitiveSequence.subscribe(
                    onCompleted: { resume(.success(())) }, onError: { resume(.failure($0)) },
                    onDisposed: { resume(.failure(CancellationError())) })
            }
        }
    }
}

/// Subscribes with `subscribe`, whose callbacks report the outcome through `resume` (only the
/// first report counts: a disposal after a success is not a cancellation), and waits for it;
/// cancelling the waiting task disposes the subscription.
private func awaitOutcome<Value>(
    _ subscribe: (_ resume: @escaping (Result<Value, Swift.Error>) -> Void) -> Disposable
) async throws -> Value {
    let subscription = SingleAssignmentDisposable()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Swift.Error>) in
            let resumed = Atomic(false)
            subscription.setDisposable(
                subscribe { outcome in
                    if !resumed.exchange(true, ordering: .acquiringAndReleasing) { continuation.resume(with: outcome) }
                })
        }
    } onCancel: {
        subscription.dispose()
    }
}
