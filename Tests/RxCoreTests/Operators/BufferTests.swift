import RxCore
import RxTesting
import Testing

@Suite(.serialized, .noLeaks)
struct BufferTests {
    private static let events: [Recorded<Event<Int>>] = [
        .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
        .next(370, 7), .next(420, 8), .next(470, 9),
    ]

    @Test func bufferByTimeOrCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.events + [.completed(600)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(
            res.events == [
                .next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7]), .next(440, [8]),
                .next(510, [9]), .next(580, []), .next(600, []), .completed(600),
            ])
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test func bufferErrorAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.events + [.error(600, opTestError)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(
            res.events == [
                .next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7]), .next(440, [8]),
                .next(510, [9]), .next(580, []), .error(600, opTestError),
            ])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable(Self.events + [.completed(600)])
        let res2 = scheduler2.start(disposed: 360) {
            ys.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler2)
        }
        #expect(res2.events == [.next(240, [1, 2, 3]), .next(310, [4])])
        #expect(ys.subscriptions == [Subscription(200, 360)])
    }

    @Test func windowByTimeOrCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.events + [.completed(600)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
                .enumerated()
                .flatMap { index, window in window.map { "\(index) \($0)" } }
        }
        #expect(
            res.events == [
                .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"), .next(320, "2 5"),
                .next(350, "2 6"), .next(370, "2 7"), .next(420, "3 8"), .next(470, "4 9"), .completed(600),
            ])
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test func windowErrorReachesTheWindowAndTheOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .error(250, opTestError)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(100), count: 10, scheduler: scheduler).flatMap { $0.materialize() }
        }
        #expect(res.events == [.next(205, .next(1)), .next(250, .error(opTestError)), .error(250, opTestError)])
    }

    @Test func windowKeepsTheSourceWhileAWindowIsSubscribed() {
        let subject = PublishSubject<Int>()
        let scheduler = TestScheduler(initialClock: 0)
        var windows: [Observable<Int>] = []
        let outer = subject.window(timeSpan: .seconds(100), count: 2, scheduler: scheduler)
            .subscribe(onNext: { windows.append($0) })
        var received: [Int] = []
        let inner = windows[0].subscribe(onNext: { received.append($0) })
        outer.dispose()
        #expect(subject.hasObservers)
        subject.onNext(1)
        #expect(received == [1])
        inner.dispose()
        #expect(!subject.hasObservers)
        windows = []
    }
}
