import Dispatch
import Foundation
import RxCore
import RxTesting
import Testing

/// The thread the sources below send from.
private let worker = DispatchQueue(label: "BlockingTests.worker")

/// Waits until the worker has finished (and released) what it was given, so the leak check
/// at the end of a test does not race with it.
private func drainWorker() { worker.sync {} }

/// `count` elements sent from another thread, then completed (or failed).
private func background(_ count: Int, failing: Bool = false) -> Observable<Int> {
    Observable.create { observer in
        let cancelled = BooleanDisposable()
        worker.async {
            for i in 0..<count where !cancelled.isDisposed { observer.onNext(i) }
            if failing { observer.onError(TestError()) } else { observer.onCompleted() }
        }
        return cancelled
    }
}

@Suite(.serialized, .noLeaks)
struct BlockingTests {
    @Test func toArrayWaitsForCompletionFromAnotherThread() throws {
        #expect(try background(100).toBlocking().toArray() == Array(0..<100))
        #expect(try Observable.of(1, 2, 3).toBlocking().toArray() == [1, 2, 3])
        drainWorker()
    }

    @Test func firstAndLast() throws {
        #expect(try background(5).toBlocking().first() == 0)
        #expect(try background(5).toBlocking().last() == 4)
        #expect(try Observable<Int>.empty().toBlocking().first() == nil)
        #expect(try Observable<Int>.empty().toBlocking().last() == nil)
        drainWorker()
    }

    @Test func firstDisposesAnInfiniteSequence() throws {
        let disposed = BooleanDisposable()
        let endless = Observable<Int>.create { observer in
            worker.async {
                var i = 0
                while !disposed.isDisposed { observer.onNext(i); i += 1 }
            }
            return disposed
        }
        #expect(try endless.toBlocking(timeout: 10).first() == 0)
        #expect(disposed.isDisposed)
        drainWorker()
    }

    @Test func singleDemandsExactlyOne() throws {
        #expect(try Observable.just(7).toBlocking().single() == 7)
        #expect(throws: RxError.self) { try Observable<Int>.empty().toBlocking().single() }
        #expect(throws: RxError.self) { try Observable.of(1, 2).toBlocking().single() }
        #expect(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 } == 2)
        do {
            _ = try Observable.of(1, 2).toBlocking().single()
            Issue.record("single() of two elements did not throw")
        } catch RxError.moreThanOneElement {
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func errorsAreThrown() {
        #expect(throws: TestError.self) { try background(3, failing: true).toBlocking().toArray() }
        #expect(throws: TestError.self) { try Observable<Int>.error(TestError()).toBlocking().first() }
        drainWorker()
    }

    @Test func materializeKeepsElementsAndTheEnd() {
        #expect(background(3).toBlocking().materialize() == .completed(elements: [0, 1, 2]))
        #expect(
            background(2, failing: true).toBlocking().materialize() == .failed(elements: [0, 1], error: TestError()))
        drainWorker()
    }

    @Test func timeoutThrows() {
        do {
            _ = try Observable<Int>.never().toBlocking(timeout: 0.05).toArray()
            Issue.record("never() did not time out")
        } catch RxError.timeout {
        } catch {
            Issue.record("unexpected \(error)")
        }
        if case .failed(let elements, RxError.timeout) = Observable<Int>.never().toBlocking(timeout: 0.05).materialize()
        {
            #expect(elements.isEmpty)
        } else {
            Issue.record("materialize did not report the timeout")
        }
    }
}
