import BookSearch
import RxBlocking
import RxRelay
import RxSwift
import RxTest
import XCTest

final class BookSearchViewModelTests: XCTestCase {
    private let titles = ["RxSwift", "Swift in Depth", "Reactive Design Patterns"]

    func testSearchesWhenTypingPauses() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001) // one tick is a millisecond
        let catalog = InMemoryCatalog(titles: titles, latency: .milliseconds(20), scheduler: scheduler)
        let viewModel = BookSearchViewModel(catalog: catalog, scheduler: scheduler)
        let typing = scheduler.createHotObservable([
            .next(100, "s"), .next(200, "sw"), .next(250, "swift"), .next(1000, "rx"),
        ])
        let results = scheduler.createObserver([String].self)
        let disposeBag = DisposeBag()

        typing.bind(to: viewModel.query).disposed(by: disposeBag)
        viewModel.results.subscribe(results).disposed(by: disposeBag)
        scheduler.start()

        // The typing pauses 300 ms after "swift" and after "rx"; the catalog answers 20 ms later.
        XCTAssertEqual(
            results.events,
            [
                .next(570, ["RxSwift", "Swift in Depth"]),
                .next(1320, ["RxSwift"]),
            ])
    }

    func testOnlyTheLatestQueryIsAnswered() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let catalog = InMemoryCatalog(titles: titles, latency: .milliseconds(500), scheduler: scheduler)
        let viewModel = BookSearchViewModel(catalog: catalog, scheduler: scheduler)
        let typing = scheduler.createHotObservable([.next(100, "swift"), .next(500, "design")])
        let results = scheduler.createObserver([String].self)
        let searching = scheduler.createObserver(Bool.self)
        let disposeBag = DisposeBag()

        typing.bind(to: viewModel.query).disposed(by: disposeBag)
        viewModel.results.subscribe(results).disposed(by: disposeBag)
        viewModel.isSearching.subscribe(searching).disposed(by: disposeBag)
        scheduler.start()

        // "swift" is searched from 400; at 800 "design" replaces it before its answer (due at 900).
        XCTAssertEqual(results.events, [.next(1300, ["Reactive Design Patterns"])])
        // The catalog's delayed `Single` succeeds at 1300 and completes one tick later, as in RxSwift.
        XCTAssertEqual(
            searching.events,
            [.next(0, false), .next(400, true), .next(800, false), .next(800, true), .next(1301, false)])
    }

    func testAFailingCatalogShowsNoResults() throws {
        struct Offline: BookCatalog {
            func search(_ query: String) -> Single<[String]> { .error(URLError(.notConnectedToInternet)) }
        }
        let viewModel = BookSearchViewModel(
            catalog: Offline(), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        viewModel.query.accept("swift")

        XCTAssertEqual(try viewModel.results.toBlocking(timeout: 2).first(), [])
    }

    func testTheCatalogAnswersOnce() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let catalog = InMemoryCatalog(titles: titles, latency: .milliseconds(5), scheduler: scheduler)
        var events: [SingleEvent<[String]>] = []

        scheduler.scheduleAt(100) {
            _ = catalog.search("depth").subscribe { events.append($0) }
        }
        scheduler.start()

        XCTAssertEqual(events, [.success(["Swift in Depth"])])
    }
}
