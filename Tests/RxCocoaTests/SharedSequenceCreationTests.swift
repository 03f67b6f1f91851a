import Foundation
import RxCocoa
import RxTesting
import Testing

/// The creation methods deliver on the sharing scheduler: `just` and `empty` subscribe through
/// it (one tick, then everything at once), `of` and `from` schedule each element.
@Suite(.serialized, .noLeaks)
struct SharedSequenceCreationTests {
    @Test func justAndEmptyAndNever() {
        #expect(startMocked { _ in Driver.just(1) } == [.next(201, 1), .completed(201)])
        #expect(startMocked { _ in Signal.just(1) } == [.next(201, 1), .completed(201)])
        #expect(startMocked { _ in Driver<Int>.empty() } == [.completed(201)])
        #expect(startMocked { _ in Driver<Int>.never() } == [])
    }

    @Test func asInfallible() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { Driver.just(4).asInfallible() }
            #expect(res.events == [.next(201, 4), .completed(201)])
        }
    }

    @Test func ofAndFrom() {
        #expect(
            startMocked { _ in Signal.of(1, 2, 3) } == [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
        #expect(startMocked { _ in Driver.from([20]) } == [.next(201, 20), .completed(202)])
        #expect(startMocked { _ in Driver.from(AnySequence([10])) } == [.next(201, 10), .completed(202)])
        #expect(startMocked { _ in Driver.from(optional: 1 as Int?) } == [.next(201, 1), .completed(202)])
        #expect(startMocked { _ in Driver.from(optional: nil as Int?) } == [.completed(201)])
    }

    @Test func deferredMakesTheSequenceAtSubscription() {
        var made: [TestTime] = []
        let events = startMocked { scheduler in
            Driver.deferred {
                made.append(scheduler.clock)
                return scheduler.createColdObservable([.next(10, 1), .completed(20)]).asDriver(onErrorJustReturn: -1)
            }
        }
        #expect(events == [.next(211, 1), .completed(221)])
        #expect(made == [200])
    }

    @Test func intervalAndTimer() {
        #expect(
            startMocked { _ in Driver<Int>.interval(.seconds(100)) } == [
                .next(300, 0), .next(400, 1), .next(500, 2), .next(600, 3), .next(700, 4), .next(800, 5), .next(900, 6),
            ])
        #expect(
            startMocked { _ in Signal<Int>.timer(.seconds(50), period: .seconds(100)) } == [
                .next(250, 0), .next(350, 1), .next(450, 2), .next(550, 3), .next(650, 4), .next(750, 5), .next(850, 6),
                .next(950, 7),
            ])
    }

    /// One timer for both subscribers; the late one gets the latest tick first (a Driver), then
    /// the shared ticks.
    @Test(arguments: [false, true]) func periodicSequencesAreShared(timer: Bool) {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var disposable1: Disposable!
        var disposable2: Disposable!
        SharingScheduler.mock(scheduler: scheduler) {
            let ticks: Driver<Int> =
                timer ? .timer(.seconds(100), period: .seconds(105)) : .interval(.seconds(100))
            scheduler.scheduleAt(20) { disposable1 = ticks.asObservable().subscribe(first) }
            scheduler.scheduleAt(170) { disposable2 = ticks.asObservable().subscribe(second) }
            scheduler.scheduleAt(230) {
                disposable1.dispose()
                disposable2.dispose()
            }
            scheduler.start()
        }
        let secondTick: TestTime = timer ? 225 : 220
        #expect(first.events == [.next(120, 0), .next(secondTick, 1)])
        #expect(second.events == [.next(170, 0), .next(secondTick, 1)])
    }

    /// `SharingScheduler.mock` puts the previous scheduler back when its action ends.
    @Test func mockRestoresTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            #expect(DriverSharingStrategy.scheduler as AnyObject === scheduler)
            #expect(SignalSharingStrategy.scheduler as AnyObject === scheduler)
        }
        #expect(DriverSharingStrategy.scheduler is MainScheduler)
        var made = 0
        SharingScheduler.mock(makeScheduler: {
            made += 1; return scheduler
        }) {
            _ = SharingScheduler.make()
            _ = SharingScheduler.make()
        }
        #expect(made == 2)
    }
}
