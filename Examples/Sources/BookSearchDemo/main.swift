import BookSearch
import Foundation
import RxSwift

// Types "rx", waits, then types "swift": the view model searches twice. Run it traced with
// `RXTRACE=trace.json swift run BookSearchDemo`, then draw it with `rxtrace render trace.json`.
let titles = ["RxSwift: Reactive Programming with Swift", "Swift in Depth", "Reactive Design Patterns"]

do {
    let catalog = InMemoryCatalog(titles: titles, latency: .milliseconds(50), scheduler: MainScheduler.instance)
    let viewModel = BookSearchViewModel(catalog: catalog, scheduler: MainScheduler.instance)
    let disposeBag = DisposeBag()

    viewModel.results
        .subscribe(onNext: { print("\($0.count) result(s): \($0.joined(separator: "; "))") })
        .disposed(by: disposeBag)

    for query in ["rx", "swift"] {
        print("typed \"\(query)\"")
        viewModel.query.accept(query)
        // A command-line program runs the main run loop itself: the debounce and the catalog's
        // latency are timers on the main queue.
        RunLoop.main.run(until: Date().addingTimeInterval(0.6))
    }
} // the dispose bag goes here, and the subscription with it
