import Foundation
import RxCore
import RxTesting
import Synchronization
import Testing

/// Counts disposals of the sequence it wraps, from any thread.
private final class DisposalProbe: @unchecked Sendable {
    let disposed = Atomic(0)
    func watch<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.do(onDispose: { self.disposed.wrappingAdd(1, ordering: .relaxed) })
    }
    var count: Int { disposed.load(ordering: .relaxed) }

    /// Waits (a little) for a disposal made by another task.
    func waitForDisposal() async {
        for _ in 0..<200 where count == 0 { try? await Task.sleep(nanoseconds: 5_000_000) }
    }
}

/// Runs `body` in a task that says how it ended: "finished", "cancelled" or the error.
private func ending(of body: @escaping @Sendable () async throws -> Void) -> Task<String, Never> {
    Task {
        do {
            try await body()
            return "finished"
        } catch is CancellationError {
            return "cancelled"
        } catch {
            return "\(error)"
        }
    }
}

@Suite(.serialized, .noLeaks)
struct ObservableConcurrencyTests {
    @Test func valuesAreReadWithForTryAwait() async throws {
        var values: [Int] = []
        for try await value in Observable.from(1...10).values { values.append(value) }
        #expect(values == Array(1...10))
    }

    @Test func theSequencesErrorIsThrown() async {
        var values: [Int] = []
        await #expect(throws: OpTestError.self) {
            for try await value in Observable.from(1...10).map({ value -> Int in
                if value > 5 { throw opTestError }
                return value
            }).values {
                values.append(value)
            }
        }
        #expect(values == Array(1...5))
    }

    @Test func cancellingTheReaderDisposesTheSubscription() async {
        let probe = DisposalProbe()
        let never = probe.watch(Observable<Int>.never())
        let reader = ending { for try await _ in never.values {} }
        try? await Task.sleep(nanoseconds: 10_000_000)
        reader.cancel()
        #expect(await reader.value == "cancelled")
        await probe.waitForDisposal()
        #expect(probe.count == 1)
    }

    @Test func infallibleValuesAreReadWithForAwait() async {
        var values: [Int] = []
        for await value in Infallible.from(1...3).values { values.append(value) }
        #expect(values == [1, 2, 3])
    }

    @Test func anAsyncSequenceBecomesAnObservable() {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let values = try? stream.asObservable().toBlocking(timeout: 5).toArray()
        #expect(values == [1, 2, 3])
        let failing = AsyncThrowingStream<Int, Swift.Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: opTestError)
        }
        let result = failing.asObservable().toBlocking(timeout: 5).materialize()
        guard case .failed(let elements, let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(elements == [1])
        #expect(error as? OpTestError == opTestError)
    }

    /// RxSwift 6.10's `asObservable(priority:)`: the sequence is iterated in a detached task at
    /// that priority, so a task-local value of the subscribing task is not seen there.
    @Test func asObservableIteratesInADetachedTaskAtThePriority() throws {
        let seen = Mutex<[String]>([])
        let sequence = Probe {
            seen.withLock { $0.append("\(Task.currentPriority) \(Probe.label ?? "detached")") }
        }
        try Probe.$label.withValue("inherited") {
            _ = try sequence.asObservable(priority: .low).toBlocking(timeout: 5).toArray()
            _ = try sequence.asObservable(priority: .high).toBlocking(timeout: 5).toArray()
        }
        #expect(seen.withLock { $0 } == ["\(TaskPriority.low) detached", "\(TaskPriority.high) detached"])
    }

    /// An `AsyncSequence` of one element that runs `probe` when it is iterated.
    struct Probe: AsyncSequence, AsyncIteratorProtocol {
        @TaskLocal static var label: String?
        let probe: @Sendable () -> Void
        var done = false

        init(_ probe: @escaping @Sendable () -> Void) { self.probe = probe }

        func makeAsyncIterator() -> Probe { self }

        mutating func next() async -> Int? {
            if done { return nil }
            done = true
            probe()
            return 1
        }
    }

    @Test func disposingStopsTheAsyncSequence() async {
        let iterations = Atomic(0)
        let endless = AsyncStream<Int> {
            iterations.wrappingAdd(1, ordering: .relaxed)
            try? await Task.sleep(nanoseconds: 1_000_000)
            return 0
        }
        let subscription = endless.asObservable().subscribe()
        try? await Task.sleep(nanoseconds: 20_000_000)
        subscription.dispose()
        try? await Task.sleep(nanoseconds: 20_000_000)
        let afterDisposal = iterations.load(ordering: .relaxed)
        try? await Task.sleep(nanoseconds: 30_000_000)
        let later = iterations.load(ordering: .relaxed)
        #expect(later <= afterDisposal + 1)
    }

    @Test func createWithAnAsyncClosure() throws {
        let observable = Observable<Int>.create { observer in
            for value in 1...3 {
                try await Task.sleep(nanoseconds: 1_000)
                observer(value)
            }
        }
        #expect(try observable.toBlocking(timeout: 5).toArray() == [1, 2, 3])
        let failing = Observable<Int>.create { observer in
            observer(1)
            throw opTestError
        }
        guard case .failed(let elements, _) = failing.toBlocking(timeout: 5).materialize() else {
            Issue.record("expected a failure")
            return
        }
        #expect(elements == [1])
        let detached = Observable<Int>.create(detached: true, priority: .low) { observer in observer(7) }
        #expect(try detached.toBlocking(timeout: 5).toArray() == [7])
    }

    @Test func disposingCancelsTheCreatedTask() async {
        let cancelled = Atomic(false)
        let started = Atomic(false)
        let observable = Observable<Int>.create { _ in
            started.store(true, ordering: .relaxed)
            do {
                try await Task.sleep(nanoseconds: 5_000_000_000)
            } catch {
                cancelled.store(true, ordering: .relaxed)
                throw error
            }
        }
        let subscription = observable.subscribe()
        for _ in 0..<200 where !started.load(ordering: .relaxed) { try? await Task.sleep(nanoseconds: 1_000_000) }
        subscription.dispose()
        for _ in 0..<200 where !cancelled.load(ordering: .relaxed) { try? await Task.sleep(nanoseconds: 1_000_000) }
        let wasCancelled = cancelled.load(ordering: .relaxed)
        #expect(wasCancelled)
    }
}

@Suite(.serialized, .noLeaks)
struct PrimitiveSequenceConcurrencyTests {
    @Test func singleValue() async throws {
        #expect(try await Single.just(4).value == 4)
        await #expect(throws: OpTestError.self) { try await Single<Int>.error(opTestError).value }
    }

    @Test func maybeValueIsNilWhenEmpty() async throws {
        #expect(try await Maybe.just(4).value == 4)
        #expect(try await Maybe<Int>.empty().value == nil)
        await #expect(throws: OpTestError.self) { try await Maybe<Int>.error(opTestError).value }
    }

    @Test func completableValue() async throws {
        try await Completable.empty().value
        await #expect(throws: OpTestError.self) { try await Completable.error(opTestError).value }
    }

    @Test func cancellingTheAwaitingTaskDisposesTheSubscription() async {
        let probe = DisposalProbe()
        let never = probe.watch(Observable<Int>.never()).asSingle()
        let waiter = ending { _ = try await never.value }
        try? await Task.sleep(nanoseconds: 10_000_000)
        waiter.cancel()
        #expect(await waiter.value == "cancelled")
        #expect(probe.count == 1)

        let alreadyCancelled = Task { () -> String in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await Completable.never().value
                return "finished"
            } catch {
                return "\(type(of: error))"
            }
        }
        #expect(await alreadyCancelled.value == "CancellationError")
    }

    @Test func aSuccessIsNotACancellation() async throws {
        // The subscription is disposed right after the success: that must not resume twice.
        let delayed = Single.just(1).delay(.milliseconds(5), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        #expect(try await delayed.value == 1)
    }

    @Test func singleCreateWithAnAsyncClosure() async throws {
        let single = Single<Int>.create {
            try await Task.sleep(nanoseconds: 1_000)
            return 42
        }
        #expect(try await single.value == 42)
        let failing = Single<Int>.create { () async throws -> Int in throw opTestError }
        await #expect(throws: OpTestError.self) { try await failing.value }
    }
}
