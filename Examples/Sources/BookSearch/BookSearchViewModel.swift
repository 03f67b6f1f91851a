import Foundation
import RxRelay
import RxSwift

/// Where the books come from: a web service in an app, a fixed list in the demo and tests.
public protocol BookCatalog {
    func search(_ query: String) -> Single<[String]>
}

/// Search-as-you-type: waits for the typing to pause, skips repeated queries, keeps only the
/// answer to the latest one, and shows "no results" instead of failing.
public final class BookSearchViewModel {
    /// What the user typed.
    public let query = BehaviorRelay<String>(value: "")
    /// The titles to show for the latest query.
    public let results: Observable<[String]>
    /// Whether a search is under way.
    public let isSearching: Observable<Bool>

    public init(catalog: BookCatalog, scheduler: SchedulerType) {
        let searching = BehaviorRelay(value: false)
        isSearching = searching.asObservable().distinctUntilChanged()
        results =
            query
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .debounce(.milliseconds(300), scheduler: scheduler)
            .distinctUntilChanged()
            .flatMapLatest { query -> Observable<[String]> in
                guard !query.isEmpty else { return .just([]) }
                return catalog.search(query)
                    .asObservable()
                    .catchAndReturn([])
                    .do(onSubscribe: { searching.accept(true) }, onDispose: { searching.accept(false) })
            }
            .share(replay: 1)
    }
}

/// A catalog that answers from a list, after `latency`, on `scheduler`.
public struct InMemoryCatalog: BookCatalog {
    public let titles: [String]
    public let latency: RxTimeInterval
    public let scheduler: SchedulerType

    public init(titles: [String], latency: RxTimeInterval, scheduler: SchedulerType) {
        self.titles = titles
        self.latency = latency
        self.scheduler = scheduler
    }

    public func search(_ query: String) -> Single<[String]> {
        Single.just(titles.filter { $0.localizedCaseInsensitiveContains(query) })
            .delay(latency, scheduler: scheduler)
    }
}
