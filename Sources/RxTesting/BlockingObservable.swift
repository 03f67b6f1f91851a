import Foundation
import RxCore

extension ObservableConvertibleType {
    /// Waits for the sequence on the calling thread, as RxBlocking does: for tests of code that
    /// runs on other threads.
    ///
    /// ```swift
    /// let all = try Observable.of(1, 2, 3).toBlocking().toArray()   // [1, 2, 3]
    /// let first = try ticks.toBlocking(timeout: 1).first()          // disposes after one
    /// ```
    ///
    /// - Parameter timeout: Seconds to wait at most; past it the operators throw
    ///   `RxError.timeout`. No timeout waits forever.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(source: asObservable(), timeout: timeout)
    }
}

/// A sequence read by blocking the calling thread. Made by `toBlocking()`.
public struct BlockingObservable<Element> {
    let source: Observable<Element>
    let timeout: TimeInterval?

    /// Every element, once the sequence completes; rethrows its error.
    public func toArray() throws -> [Element] {
        let result = try collect(upTo: nil)
        if let error = result.error { throw error }
        return result.elements
    }

    /// The first element (then disposes the subscription), or nil when it completes empty.
    public func first() throws -> Element? {
        let result = try collect(upTo: 1)
        if let error = result.error { throw error }
        return result.elements.first
    }

    /// The last element once the sequence completes, or nil when it had none.
    public func last() throws -> Element? {
        try toArray().last
    }

    /// The only element: throws `RxError.noElements` when there is none and
    /// `RxError.moreThanOneElement` as soon as a second arrives.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The only element that satisfies `predicate`, with the errors of `single()`.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let result = try collect(upTo: 2, where: predicate)
        if let error = result.error { throw error }
        switch result.elements.count {
        case 0: throw RxError.noElements
        case 1: return result.elements[0]
        default: throw RxError.moreThanOneElement
        }
    }

    /// Every element and how the sequence ended, without throwing its error (a timeout ends it
    /// as `.failed` with `RxError.timeout`).
    public func materialize() -> MaterializedSequenceResult<Element> {
        let result: (elements: [Element], error: Swift.Error?)
        do {
            result = try collect(upTo: nil)
        } catch {
            return .failed(elements: [], error: error)
        }
        if let error = result.error {
            return .failed(elements: result.elements, error: error)
        }
        return .completed(elements: result.elements)
    }

    /// Subscribes, waits until the sequence stops, `limit` matching elements arrived, or the
    /// timeout passes, then disposes the subscription.
    private func collect(
        upTo limit: Int?, where predicate: @escaping (Element) throws -> Bool = { _ in true }
    ) throws -> (elements: [Element], error: Swift.Error?) {
        let state = BlockingState<Element>()
        let subscription = source.subscribe { event in
            state.receive(event, limit: limit, predicate: predicate)
        }
        defer { subscription.dispose() }
        guard state.wait(timeout: timeout) else { throw RxError.timeout }
        return state.result
    }
}

/// What a sequence did: its elements and how it ended.
public enum MaterializedSequenceResult<T> {
    /// It completed after `elements`.
    case completed(elements: [T])
    /// It failed with `error` after `elements`.
    case failed(elements: [T], error: Swift.Error)
}

extension MaterializedSequenceResult: Equatable where T: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.completed(l), .completed(r)): return l == r
        case let (.failed(l, le), .failed(r, re)): return l == r && errorsEqual(le, re)
        default: return false
        }
    }
}

/// The meeting point of the subscription (any thread) and the blocked caller.
private final class BlockingState<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var error: Swift.Error?
    private var done = false

    func receive(_ event: Event<Element>, limit: Int?, predicate: (Element) throws -> Bool) {
        condition.lock()
        defer { condition.unlock() }
        if done { return }
        switch event {
        case .next(let element):
            do {
                guard try predicate(element) else { return }
            } catch {
                self.error = error
                finish()
                return
            }
            elements.append(element)
            if let limit, elements.count >= limit { finish() }
        case .error(let error):
            self.error = error
            finish()
        case .completed:
            finish()
        }
    }

    private func finish() {
        done = true
        condition.broadcast()
    }

    /// Waits until done; false on timeout. On the main thread it keeps the main run loop (and
    /// so `DispatchQueue.main`, where `MainScheduler` delivers) turning while it waits, as
    /// RxBlocking does: a sequence observed on the main thread could not end otherwise.
    func wait(timeout: TimeInterval?) -> Bool {
        if Thread.isMainThread { return waitTurningTheMainRunLoop(timeout: timeout) }
        condition.lock()
        defer { condition.unlock() }
        guard let timeout else {
            while !done { condition.wait() }
            return true
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !done {
            if !condition.wait(until: deadline) { return done }
        }
        return true
    }

    private func waitTurningTheMainRunLoop(timeout: TimeInterval?) -> Bool {
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) } ?? .distantFuture
        while true {
            condition.lock()
            let finished = done
            condition.unlock()
            if finished { return true }
            if Date() >= deadline { return false }
            // Short turns: `done` may be set by another thread, which does not wake the loop.
            _ = RunLoop.main.run(mode: .default, before: min(deadline, Date(timeIntervalSinceNow: 0.005)))
        }
    }

    var result: (elements: [Element], error: Swift.Error?) {
        condition.lock()
        defer { condition.unlock() }
        return (elements, error)
    }
}
