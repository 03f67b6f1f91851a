import Foundation
import Synchronization

// Swift concurrency in both directions, as RxSwift 6 has it: an observable read with
// `for try await`, an `AsyncSequence` or an `async` closure turned into an observable.
// Cancelling the task that awaits disposes the subscription; disposing the subscription
// cancels the task that produces.

extension ObservableConvertibleType {
    /// What the `work` of `create(detached:priority:work:)` calls with each element.
    public typealias ElementObserver<Element> = (Element) -> Void

    /// An observable whose subscription runs `work` in a `Task`: each call of the observer it
    /// is handed sends an element; returning completes, throwing fails. Disposing the
    /// subscription cancels the task (elements sent after that are dropped).
    ///
    /// ```swift
    /// Observable<Data>.create { observer in
    ///     for url in urls { observer(try await download(url)) }
    /// }
    /// ```
    @_disfavoredOverload
    public static func create(
        detached: Bool = false, priority: TaskPriority? = nil,
        work: @Sendable @escaping (_ observer: ElementObserver<Element>) async throws -> Void,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Observable.create(
            { observer in
                runTask(detached: detached, priority: priority) {
                    do {
                        try await work { element in
                            if !Task.isCancelled { observer.onNext(element) }
                        }
                        observer.onCompleted()
                    } catch {
                        observer.onError(error)
                    }
                }
            }, file: file, line: line)
    }

    /// The elements, read with `for try await`; the sequence's error is thrown. Cancelling the
    /// reading task disposes the subscription (the loop then throws `CancellationError`).
    ///
    /// ```swift
    /// for try await name in names.values { print(name) }
    /// ```
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        AsyncThrowingStream { continuation in
            let finished = Atomic(false)
            let subscription = asObservable().subscribe(
                onNext: { continuation.yield($0) },
                onError: { error in
                    finished.store(true, ordering: .relaxed)
                    continuation.finish(throwing: error)
                },
                onCompleted: {
                    finished.store(true, ordering: .relaxed)
                    continuation.finish()
                },
                onDisposed: {
                    if !finished.load(ordering: .relaxed) { continuation.finish(throwing: CancellationError()) }
                })
            continuation.onTermination = { termination in
                if case .cancelled = termination { subscription.dispose() }
            }
        }
    }
}

extension InfallibleType {
    /// The elements, read with `for await` (an `Infallible` cannot fail). Cancelling the
    /// reading task disposes the subscription.
    public var values: AsyncStream<Element> {
        AsyncStream { continuation in
            let subscription = subscribe(onNext: { continuation.yield($0) }, onCompleted: { continuation.finish() })
            continuation.onTermination = { termination in
                if case .cancelled = termination { subscription.dispose() }
            }
        }
    }
}

extension AsyncSequence {
    /// The sequence's elements as an observable: each subscription iterates it in a detached
    /// `Task` at `priority` (none given: the default), which disposing cancels. An error is passed
    /// on; a `CancellationError` completes.
    ///
    /// ```swift
    /// NotificationCenter.default.notifications(named: .changed).asObservable(priority: .utility)
    /// ```
    public func asObservable(
        priority: TaskPriority? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Observable.create(
            { observer in
                runTask(detached: true, priority: priority) {
                    do {
                        for try await element in self { observer.onNext(element) }
                        observer.onCompleted()
                    } catch is CancellationError {
                        observer.onCompleted()
                    } catch {
                        observer.onError(error)
                    }
                }
            }, file: file, line: line)
    }
}

/// Runs `operation` in a new task, detached or not; disposing the result cancels the task.
func runTask(
    detached: Bool, priority: TaskPriority?, _ operation: @escaping @Sendable () async -> Void
) -> Disposable {
    let task =
        detached
        ? Task.detached(priority: priority, operation: operation) : Task(priority: priority, operation: operation)
    return Disposables.create { task.cancel() }
}
