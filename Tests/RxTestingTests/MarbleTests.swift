import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct MarbleTests {
    @Test func parsesFramesValuesStopsAndGroups() throws {
        let events = try Marbles.events("-a-(bc)-|", values: ["a": 1, "b": 2, "c": 3])
        #expect(events == [.next(10, 1), .next(30, 2), .next(30, 3), .completed(50)])
        let failing = try Marbles.events("--#", values: [Character: Int](), error: TestError("x"))
        #expect(failing == [.error(20, TestError("x"))])
    }

    @Test func caretIsFrameZeroAndSpacesAreIgnored() throws {
        let events = try Marbles.events("a- ^ -b|", values: ["a": 1, "b": 2], zero: 200)
        #expect(events == [.next(180, 1), .next(220, 2), .completed(230)])
    }

    @Test func ticksPerFrameIsConfigurable() throws {
        let events = try Marbles.events("--a|", ticksPerFrame: 1, zero: 200)
        #expect(events == [.next(202, "a"), .completed(203)])
    }

    @Test func rejectsBadDiagrams() {
        #expect(throws: MarbleSyntaxError.self) { try Marbles.events("-(a", values: ["a": 1]) }
        #expect(throws: MarbleSyntaxError.self) { try Marbles.events("-a)", values: ["a": 1]) }
        #expect(throws: MarbleSyntaxError.self) { try Marbles.events("^-^", values: [Character: Int]()) }
        #expect(throws: MarbleSyntaxError.self) { try Marbles.events("-x-", values: ["a": 1]) }
    }

    @Test(arguments: ["--a--b--|", "-(ab)--#", "a-^-b-(c|)", "", "---", "(a|)"])
    func roundTrips(_ diagram: String) throws {
        let values: [Character: Int] = ["a": 1, "b": 2, "c": 3]
        let events = try Marbles.events(diagram, values: values, zero: 200)
        let drawn = Marbles.string(events, values: values, zero: 200)
        #expect(try Marbles.events(drawn, values: values, zero: 200) == events)
        // Trailing empty frames carry no event, so they are not drawn.
        var trimmed = diagram
        while trimmed.hasSuffix("-") { trimmed.removeLast() }
        #expect(drawn == trimmed)
    }

    @Test func hotAndColdFromMarbles() {
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable("-a-^-b-c-|", values: ["a": 1, "b": 2, "c": 3])
        #expect(hot.recordedEvents == [.next(180, 1), .next(220, 2), .next(240, 3), .completed(260)])
        let cold = scheduler.createColdObservable("-x-(y|)")
        #expect(cold.recordedEvents == [.next(10, "x"), .next(30, "y"), .completed(30)])

        let res = scheduler.start { hot.map { $0 * 10 } }
        #expect(expectMarbles(res, "--a-b-|", values: ["a": 20, "b": 30]))
        #expect(res.marbles(values: ["a": 20, "b": 30]) == "--a-b-|")
    }

    @Test func coldSubscribedTwiceReplaysFromEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let cold = scheduler.createColdObservable("-a-b|")
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(200) { cold.subscribe(first).disposed(by: bag) }
        scheduler.scheduleAt(220) { cold.subscribe(second).disposed(by: bag) }
        scheduler.start()
        #expect(expectMarbles(first, "-a-b|"))
        #expect(expectMarbles(second, "-a-b|", zero: 220))
        #expect(cold.subscriptions == [Subscription(200), Subscription(220)])
    }

    @Test func diffShowsBothDiagramsAndTheEventsThatDiffer() throws {
        let values: [Character: Int] = ["a": 1, "b": 2, "c": 3]
        let expected = try Marbles.events("--a--b--|", values: values, zero: 200)
        let actual = try Marbles.events("--a--c--|", values: values, zero: 200)
        let diff = try #require(Marbles.diff(expected: expected, actual: actual, values: values, zero: 200))
        #expect(
            diff == """
                expected: --a--b--|
                actual:   --a--c--|
                               ^ first difference at column 5
                - next(2) @ 250
                + next(3) @ 250
                """)
        #expect(Marbles.diff(expected: expected, actual: expected, values: values) == nil)
    }

    @Test func expectMarblesRecordsTheDiffAsAnIssue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^-a-b-|")
        let res = scheduler.start { xs }
        withKnownIssue {
            #expect(!expectMarbles(res, "--a---b|"))
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("actual:   --a-b-|") && $0.rawValue.contains("+ next(b) @ 240")
            }
        }
    }

    @Test func unknownElementsDrawAsQuestionMarks() {
        let events: [Recorded<Event<Int>>] = [.next(0, 1), .next(10, 9), .completed(20)]
        #expect(Marbles.string(events, values: ["a": 1]) == "a?|")
    }
}
