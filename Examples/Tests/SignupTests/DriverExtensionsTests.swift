import RxCocoa
import RxSwift
import RxTest
import Signup
import XCTest

/// The extensions in `DriverExtensions.swift` behave as written.
final class DriverExtensionsTests: XCTestCase {
    func testFilterNilAndDescribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let values = scheduler.createObserver(String.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([
                .next(210, 1 as Int?), .next(220, nil), .next(230, 3), .completed(240),
            ])
            let res = scheduler.start { xs.asDriver(onErrorJustReturn: nil).filterNil().describe() }
            res.events.forEach { values.on($0.value) }
            XCTAssertEqual(res.events, [.next(212, "1"), .next(232, "3"), .completed(241)])
        }
    }

    func testDriveAPublishRelayAndTheOperator() {
        let scheduler = TestScheduler(initialClock: 0)
        let relayed = scheduler.createObserver(Int.self)
        let operated = scheduler.createObserver(Int.self)
        let relay = PublishRelay<Int>()
        let disposeBag = DisposeBag()
        SharingScheduler.mock(scheduler: scheduler) {
            relay.subscribe(relayed).disposed(by: disposeBag)
            let numbers = Driver.of(1, 2)
            scheduler.scheduleAt(100) {
                numbers.drive(relay).disposed(by: disposeBag)
                (numbers ~> operated).disposed(by: disposeBag)
            }
            scheduler.start()
        }
        XCTAssertEqual(relayed.events, [.next(101, 1), .next(102, 2)])
        XCTAssertEqual(operated.events, [.next(101, 1), .next(102, 2), .completed(103)])
    }

    func testAllTrueTakesDriversAndAnActivityIndicator() {
        let scheduler = TestScheduler(initialClock: 0)
        let all = scheduler.createObserver(Bool.self)
        let disposeBag = DisposeBag()
        SharingScheduler.mock(scheduler: scheduler) {
            let valid = scheduler.createHotObservable([.next(210, true), .next(250, false)])
            let indicator = ActivityIndicator()
            let idle = indicator.asDriver().map { !$0 }
            allTrue([valid.asDriver(onErrorJustReturn: false), idle]).drive(all).disposed(by: disposeBag)
            let work = scheduler.createColdObservable([.next(20, ()), .completed(20)])
            scheduler.scheduleAt(220) { work.trackActivity(indicator).subscribe().disposed(by: disposeBag) }
            scheduler.start()
        }
        XCTAssertEqual(all.events, [.next(211, true), .next(221, false), .next(241, true), .next(251, false)])
    }

    func testMapToVoidOnASignal() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { Signal.of("a", "b").mapToVoid().map { "tap" } }
            XCTAssertEqual(res.events, [.next(201, "tap"), .next(202, "tap"), .completed(203)])
        }
    }
}
