import RxCore
import RxTesting
import Testing

/// Something that outlives a test body on purpose.
private final class Keeper: @unchecked Sendable {
    var objects: [Any] = []
}

@Suite(.serialized, .noLeaks)
struct LeakCheckTests {
    @Test func passesWhenEverythingIsReleased() {
        let grown = assertNoLeaks {
            let bag = DisposeBag()
            Observable.of(1, 2, 3).map { $0 + 1 }.subscribe(onNext: { _ in }).disposed(by: bag)
        }
        #expect(grown.isEmpty)
    }

    @Test func failsNamingEachTypeThatGrew() {
        let keeper = Keeper()
        withKnownIssue {
            let grown = assertNoLeaks {
                let subject = PublishSubject<Int>()
                // Never disposed, and kept alive beyond the body.
                keeper.objects.append(subject.map { $0 * 2 }.subscribe(onNext: { _ in }))
                keeper.objects.append(subject)
            }
            #expect(grown["MapSink"] == 1)
            #expect(grown["PublishSubject"] == 1)
            #expect(LeakCheck.describe(grown).contains("+1 MapSink"))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("leaked:") && $0.rawValue.contains("+1 MapSink") }
        }
        // Dropping the references is not enough: the subscription lives until disposed.
        keeper.objects.compactMap { $0 as? Disposable }.forEach { $0.dispose() }
        keeper.objects.removeAll()
    }

    @Test func describeSortsByGrowthThenName() {
        #expect(
            LeakCheck.describe(["MapSink": 1, "SinkDisposer": 2, "Filter": 1])
                == "+2 SinkDisposer, +1 Filter, +1 MapSink")
    }

    @Test func traitFailsTheTestWhenSomethingLeaks() async throws {
        let keeper = Keeper()
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await NoLeaksTrait().provideScope(for: test, testCase: Test.Case.current) {
                keeper.objects.append(Observable.just(1).map { $0 })
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("+1 Map") && $0.rawValue.contains("+1 Just") }
        }
        keeper.objects.removeAll()
    }

    @Test(.noLeaks) func traitPassesWhenNothingLeaks() {
        _ = Observable.from([1, 2]).filter { $0 > 1 }.subscribe()
    }
}

/// Every test of this suite gets the leak check.
@Suite(.serialized, .noLeaks)
struct NoLeaksSuiteTests {
    @Test func first() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2) }
        #expect(res.events == [.next(200, 1), .next(200, 2), .completed(200)])
    }
}
