import Foundation
import RxCore
import RxTest
import RxTesting
import Testing
import XCTest

private struct Failure: Error, CustomStringConvertible {
    let name: String
    var description: String { "Failure(\(name))" }
}

@Suite(.noLeaks)
struct TraitEventEqualityTests {
    @Test func singleEventsCompareByElementOrError() {
        #expect(SingleEvent.success(1) == .success(1))
        #expect(SingleEvent.success(1) != .success(2))
        #expect(SingleEvent<Int>.failure(Failure(name: "a")) == .failure(Failure(name: "a")))
        #expect(SingleEvent<Int>.failure(Failure(name: "a")) != .failure(Failure(name: "b")))
        #expect(SingleEvent.success(1) != .failure(Failure(name: "a")))
        var events: [SingleEvent<Int>] = []
        _ = Single.just(1).subscribe { events.append($0) }
        #expect(events == [.success(1)])
        #expect(events != [.success(1), .success(1)])
    }

    @Test func maybeEventsAreEquatable() {
        var events: [MaybeEvent<Int>] = []
        _ = Maybe.just(1).subscribe { events.append($0) }
        _ = Maybe<Int>.empty().subscribe { events.append($0) }
        _ = Maybe<Int>.error(Failure(name: "a")).subscribe { events.append($0) }
        #expect(events == [.success(1), .completed, .error(Failure(name: "a"))])
        #expect(MaybeEvent<Int>.error(Failure(name: "a")) != .error(NSError(domain: "a", code: 1)))
        #expect(MaybeEvent.success(1) != .completed)
    }

    @Test func completableEventsAreEquatable() {
        var events: [CompletableEvent] = []
        _ = Completable.empty().subscribe { events.append($0) }
        _ = Completable.error(Failure(name: "a")).subscribe { events.append($0) }
        #expect(events == [.completed, .error(Failure(name: "a"))])
        #expect(CompletableEvent.completed != .error(Failure(name: "a")))
    }
}

/// RxTest's assertions for XCTest, as RxSwift's own tests call them.
final class TraitEventAssertionTests: XCTestCase {
    func testSingleEventsWithXCTAssertEqual() {
        var events: [SingleEvent<Int>] = []
        _ = Single.just(1).subscribe { events.append($0) }
        _ = Single<Int>.error(Failure(name: "a")).subscribe { events.append($0) }
        XCTAssertEqual(events, [.success(1), .failure(Failure(name: "a"))])
    }

    func testMaybeAndCompletableEventsWithXCTAssertEqual() {
        var maybe: [MaybeEvent<Int>] = []
        _ = Maybe<Int>.empty().subscribe { maybe.append($0) }
        XCTAssertEqual(maybe, [.completed])
        var completable: [CompletableEvent] = []
        _ = Completable.empty().subscribe { completable.append($0) }
        XCTAssertEqual(completable, [.completed])
    }

    func testRecordedElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(10) { observer.onNext(1) }
        scheduler.scheduleAt(20) { observer.onNext(2) }
        scheduler.start()
        XCTAssertRecordedElements(observer.events, [1, 2])
    }
}
