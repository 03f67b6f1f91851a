// Chapter 22 — table binding with sections, and Driver (003 "RxSwift实现一个UITableView":
// SectionModel, RxTableViewSectionedReloadDataSource, configureCell, rx_itemsWithDataSource;
// 001 "tableView 绑定数据源 代理" and "tableView 点击代理"; 000 "用Observable还是Driver").
//
// A headless table view stands in for UITableView: "showing" a row prints it.
import Foundation
import RxCocoa // Driver is RxCocoa's, as in RxSwift; RxCocoa re-exports RxCore
import Workbook

// MARK: - RxDataSources' model, reduced

/// A section: its model (here a title) and its items.
struct SectionModel<Section, Item> {
    var model: Section
    var items: [Item]
}

struct IndexPath: CustomStringConvertible {
    let section: Int
    let row: Int
    var description: String { "[\(section), \(row)]" }
}

class TableViewCell {
    var textLabel = ""
    var tag = 0
    required init() {}
}

/// A headless UITableView: holds a data source and shows every row when reloaded.
final class TableView: NSObject {
    fileprivate var numberOfSections: () -> Int = { 0 }
    fileprivate var numberOfRows: (Int) -> Int = { _ in 0 }
    fileprivate var cellForRow: (IndexPath) -> TableViewCell = { _ in TableViewCell() }
    fileprivate var titleForHeader: (Int) -> String? = { _ in nil }
    fileprivate let selected = PublishSubject<IndexPath>()
    /// Where the table is scrolled to (UIScrollView's `contentOffset`).
    let contentOffsetRelay = BehaviorRelay(value: CGPoint.zero)

    /// What a finger dragging the table does.
    func scroll(toY y: CGFloat) { contentOffsetRelay.accept(CGPoint(x: 0, y: y)) }

    func reloadData() {
        print("reloadData")
        for section in 0..<numberOfSections() {
            if let title = titleForHeader(section), !title.isEmpty { print("  [\(title)]") }
            for row in 0..<numberOfRows(section) {
                let cell = cellForRow(IndexPath(section: section, row: row))
                print("  \(cell.tag % 2 == 0 ? "▒" : " ") \(cell.textLabel)")
            }
        }
    }

    /// What a finger on a row does.
    func selectRow(at indexPath: IndexPath) {
        selected.onNext(indexPath)
    }
}

/// RxDataSources' RxTableViewSectionedReloadDataSource: configureCell and section titles.
final class RxTableViewSectionedReloadDataSource<Section, Item> {
    typealias ConfigureCell = (RxTableViewSectionedReloadDataSource, TableView, IndexPath, Item) -> TableViewCell
    var configureCell: ConfigureCell
    var titleForHeaderInSection: (RxTableViewSectionedReloadDataSource, Int) -> String? = { _, _ in nil }
    fileprivate(set) var sectionModels: [SectionModel<Section, Item>] = []

    init(configureCell: @escaping ConfigureCell) {
        self.configureCell = configureCell
    }

    subscript(indexPath: IndexPath) -> Item {
        sectionModels[indexPath.section].items[indexPath.row]
    }
}

extension Reactive where Base: TableView {
    /// 003's `rx_itemsWithDataSource`: each new array of sections reloads the table.
    func items<Section, Item, Source: ObservableType>(
        dataSource: RxTableViewSectionedReloadDataSource<Section, Item>
    )
        -> (Source) -> Disposable where Source.Element == [SectionModel<Section, Item>]
    {
        { source in
            source.subscribe(onNext: { [base] sections in
                dataSource.sectionModels = sections
                base.numberOfSections = { dataSource.sectionModels.count }
                base.numberOfRows = { dataSource.sectionModels[$0].items.count }
                base.cellForRow = { [unowned base] indexPath in
                    dataSource.configureCell(dataSource, base, indexPath, dataSource[indexPath])
                }
                base.titleForHeader = { dataSource.titleForHeaderInSection(dataSource, $0) }
                base.reloadData()
            })
        }
    }

    /// 001's `tableView.rx.items`: one section, a cell factory `(tableView, row, element)`.
    func items<Element, Source: ObservableType>(
        _ source: Source
    )
        -> (_ cellFactory: @escaping (TableView, Int, Element) -> TableViewCell) -> Disposable
    where Source.Element == [Element] {
        { cellFactory in
            source.subscribe(onNext: { [base] elements in
                base.numberOfSections = { 1 }
                base.numberOfRows = { _ in elements.count }
                base.cellForRow = { [unowned base] indexPath in
                    cellFactory(base, indexPath.row, elements[indexPath.row])
                }
                base.titleForHeader = { _ in nil }
                base.reloadData()
            })
        }
    }

    /// 001's `tableView.rx.itemSelected`.
    var itemSelected: Observable<IndexPath> { base.selected.asObservable() }
}

// MARK: - 003's model and view model

struct User {
    let followersCount: Int
    let followingCount: Int
    let screenName: String
}

final class ViewModel {
    func getUsers() -> Observable<[SectionModel<String, User>]> {
        return Observable.create { (observer) -> Disposable in
            let users = [
                User(followersCount: 19_901_990, followingCount: 1990, screenName: "Marco Sun"),
                User(followersCount: 19_890_000, followingCount: 1989, screenName: "Taylor Swift"),
                User(followersCount: 250_000, followingCount: 25, screenName: "Rihanna"),
                User(followersCount: 13_000_000_000, followingCount: 13, screenName: "Jolin Tsai"),
                User(followersCount: 25_000_000, followingCount: 25, screenName: "Adele"),
            ]
            let section = [SectionModel(model: "", items: users)]
            observer.onNext(section)
            observer.onCompleted()
            return Disposables.create()
        }
    }
}

// 003: viewDidLoad — configureCell, then bind the view model's sections to the table.
example("RxTableViewSectionedReloadDataSource", draw: true) {
    let disposeBag = DisposeBag()
    let tableView = TableView()
    let viewModel = ViewModel()
    let dataSource = RxTableViewSectionedReloadDataSource<String, User>(configureCell: {
        _, tableView, indexPath, user in
        let cell = TableViewCell()
        cell.tag = indexPath.row
        cell.textLabel = "\(user.screenName)在简书上关注了\(user.followingCount)个用户，并且被\(user.followersCount)个用户关注了。"
        return cell
    })
    viewModel.getUsers()
        .bind(to: tableView.rx.items(dataSource: dataSource))
        .disposed(by: disposeBag)
}

// Sections with titles (003: "fill the section's string and implement titleForHeaderInSection").
example("sections") {
    let disposeBag = DisposeBag()
    let tableView = TableView()
    let dataSource = RxTableViewSectionedReloadDataSource<String, String>(configureCell: { _, _, indexPath, item in
        let cell = TableViewCell()
        cell.tag = indexPath.row
        cell.textLabel = item
        return cell
    })
    dataSource.titleForHeaderInSection = { dataSource, index in dataSource.sectionModels[index].model }
    let sections = BehaviorRelay(value: [
        SectionModel(model: "Creating", items: ["just", "of", "create"]),
        SectionModel(model: "Subjects", items: ["PublishSubject", "BehaviorRelay"]),
    ])
    sections
        .bind(to: tableView.rx.items(dataSource: dataSource))
        .disposed(by: disposeBag)
    print("a section is added")
    sections.accept(sections.value + [SectionModel(model: "Traits", items: ["Driver"])])
}

// 001: items with a cell factory, and itemSelected.
example("tableView.rx.items") {
    let disposeBag = DisposeBag()
    let tableView = TableView()
    let items = Observable.just([
        "Just",
        "Relay",
        "From",
        "Driver",
        "merge",
    ])
    items.bind(to: tableView.rx.items) { (tableView, row, element) in
        let cell = TableViewCell()
        cell.tag = row
        cell.textLabel = element
        return cell
    }
    .disposed(by: disposeBag)
    tableView.rx.itemSelected
        .subscribe(onNext: { indexPath in
            print("itemSelected \(indexPath)")
        })
        .disposed(by: disposeBag)
    tableView.selectRow(at: IndexPath(section: 0, row: 3))
}

// 000 "用Observable还是Driver": a Driver never errors (asDriver says what to show instead),
// delivers on the main scheduler and replays its latest element to a new subscriber — what a
// table needs. Here the request fails, and the table shows the fallback instead of dying.
struct RequestFailed: Error {}

example("Driver", draw: true) {
    let disposeBag = DisposeBag()
    let tableView = TableView()
    let refresh = PublishSubject<Void>()
    var attempt = 0
    let results: Driver<[String]> =
        refresh
        .flatMapLatest { _ -> Observable<[String]> in
            attempt += 1
            if attempt == 2 {
                print("request \(attempt) fails")
                return Observable.error(RequestFailed())
            }
            print("request \(attempt) succeeds")
            return Observable.just(["result \(attempt).a", "result \(attempt).b"])
        }
        .asDriver(onErrorJustReturn: ["(offline)"])
    results
        .drive(onNext: { rows in
            print("drive: \(rows.count) rows")
        })
        .disposed(by: disposeBag)
    results.asObservable()
        .bind(to: tableView.rx.items) { _, row, element in
            let cell = TableViewCell()
            cell.tag = row
            cell.textLabel = element
            return cell
        }
        .disposed(by: disposeBag)
    refresh.onNext(())
    refresh.onNext(())
    refresh.onNext(())
    print("refresh.hasObservers = \(refresh.hasObservers)")
}

// The Driver above survived the error only by completing with its fallback: the third refresh
// reached nobody (004's warning again). Recovering *inside* flatMapLatest keeps the chain.
example("Driver, recovering inside flatMapLatest") {
    let disposeBag = DisposeBag()
    let refresh = PublishSubject<Void>()
    var attempt = 0
    let results: Driver<[String]> =
        refresh
        .flatMapLatest { _ -> Observable<[String]> in
            attempt += 1
            let request: Observable<[String]> =
                attempt == 2
                ? Observable.error(RequestFailed())
                : Observable.just(["result \(attempt).a", "result \(attempt).b"])
            return request.catchAndReturn(["(offline)"])
        }
        .asDriver(onErrorJustReturn: [])
    results
        .drive(onNext: { rows in print("drive: \(rows)") })
        .disposed(by: disposeBag)
    refresh.onNext(())
    refresh.onNext(())
    refresh.onNext(())
    print("refresh.hasObservers = \(refresh.hasObservers)")
}

// MARK: - 001 "监听 tableView 的滚动": rx.contentOffset

extension Reactive where Base: TableView {
    /// RxCocoa's `UIScrollView.rx.contentOffset`: the offset now, then every change.
    var contentOffset: Observable<CGPoint> { base.contentOffsetRelay.asObservable() }
}

example("tableView.rx.contentOffset") {
    let disposeBag = DisposeBag()
    let tableView = TableView()
    tableView.rx.contentOffset.subscribe(onNext: { contentOffset in
        /// 修改透明度
        let alpha = min(1, max(0, contentOffset.y / 200))
        print("contentOffset.y = \(contentOffset.y), navigation bar alpha = \(alpha)")
    })
    .disposed(by: disposeBag)
    tableView.scroll(toY: 100)
    tableView.scroll(toY: 250)
}

// MARK: - 001 "配合 HandyJSON 转model", with Codable

/// A network response: what Moya hands over (`Response`), its body as bytes.
struct Response {
    let statusCode: Int
    let data: Data
}

/// A club, as the server sends it.
struct ClubModel: Codable, Equatable {
    let name: String
    let members: Int
}

extension ObservableType where Element == Response {
    /// 001's `mapHandyJsonModel(_:)` with `Codable`: each response's body decoded as a `T`
    /// (RxSwift 6's `decode(type:decoder:)`). A body that does not decode is an error event
    /// (001 made a model from `{"msg":"解析有误"}` instead).
    func mapModel<T: Decodable>(_ type: T.Type) -> Observable<T> {
        map(\.data).decode(type: T.self, decoder: JSONDecoder())
    }
}

/// A decoding error in one line: which key was missing, or what else went wrong.
func describe(_ error: Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, _): return "keyNotFound(\(key.stringValue))"
    case DecodingError.typeMismatch(let type, let context):
        return "typeMismatch(\(type), at \(context.codingPath.map(\.stringValue).joined(separator: ".")))"
    default: return "\(error)"
    }
}

example("JSON to model") {
    let disposeBag = DisposeBag()
    let responses = [
        Response(statusCode: 200, data: Data(#"{"name": "RxSwift 中文网", "members": 42}"#.utf8)),
        Response(statusCode: 200, data: Data(#"{"msg": "解析有误"}"#.utf8)),
    ]
    Observable.from(responses)
        .mapModel(ClubModel.self)
        .subscribe(onNext: { print("model:", $0) }, onError: { print("error:", describe($0)) })
        .disposed(by: disposeBag)
    // One failed body ends the sequence; to keep going, handle it per response.
    Observable.from(responses)
        .flatMap { response in
            Observable.just(response).mapModel(ClubModel.self).catchAndReturn(ClubModel(name: "(解析有误)", members: 0))
        }
        .subscribe(onNext: { print("model or fallback:", $0) })
        .disposed(by: disposeBag)
}

// MARK: - 003 "信号的操作": page → throttle → do → flatMap { fetch … retry … } → the table

/// A headless UIRefreshControl.
final class RefreshControl {
    private let clock: VirtualClock
    init(clock: VirtualClock) { self.clock = clock }

    var isEnabled = true {
        didSet { print("\(clock.stamp) refreshCtrl.isEnabled = \(isEnabled)") }
    }

    func endRefreshing() { print("\(clock.stamp) refreshCtrl.endRefreshing()") }
}

/// 003's cell view model, made from a club.
struct ClubTableCellViewModel {
    let club: ClubModel
    init(club: ClubModel) { self.club = club }
}

final class ClubListCell: TableViewCell {
    var viewModel: ClubTableCellViewModel? {
        didSet { textLabel = viewModel.map { "\($0.club.name) (\($0.club.members))" } ?? "" }
    }
}

/// The clubs' server, on virtual time: each page answers after 0.3 s, and page 1 fails the first
/// time it is asked (a 500), to show the retry.
final class ClubServer {
    private let clock: VirtualClock
    private var failedOnce = false
    init(clock: VirtualClock) { self.clock = clock }

    func request(page: Int) -> Observable<Response> {
        Observable.create { [self] observer in
            print("\(clock.stamp) GET /clubs?page=\(page)")
            let fails = page == 1 && !failedOnce
            if fails { failedOnce = true }
            clock.schedule(after: 0.3) { [self] in
                if fails {
                    print("\(clock.stamp) page \(page): HTTP 500")
                    observer.onError(HTTPStatus(code: 500))
                    return
                }
                let clubs = (0..<2).map { ClubModel(name: "club \(page * 2 + $0 + 1)", members: 10 * (page + 1) + $0) }
                observer.onNext(Response(statusCode: 200, data: try! JSONEncoder().encode(clubs)))
                observer.onCompleted()
            }
            return Disposables.create()
        }
    }
}

struct HTTPStatus: Error {
    let code: Int
}

/// 003's view model: `fetchClubList(fromPage:)` keeps every page it loaded (page 0 starts
/// over) and sends the whole list.
final class ClubListViewModel {
    private let server: ClubServer
    private var cellViewModels: [ClubTableCellViewModel] = []
    init(server: ClubServer) { self.server = server }

    func fetchClubList(fromPage page: Int) -> Observable<[ClubTableCellViewModel]> {
        server.request(page: page)
            .mapModel([ClubModel].self)
            .map { [unowned self] clubs in
                if page == 0 { self.cellViewModels.removeAll() }
                self.cellViewModels.append(contentsOf: clubs.map { ClubTableCellViewModel(club: $0) })
                return self.cellViewModels
            }
    }
}

extension Reactive where Base: TableView {
    /// RxCocoa 6's `items(cellIdentifier:cellType:)` (003's `rx_itemsWithCellIdentifier`): one
    /// cell of `cellType` per element, configured by the closure.
    func items<Element, Cell: TableViewCell, Source: ObservableType>(
        cellIdentifier: String, cellType: Cell.Type
    ) -> (Source) -> (@escaping (Int, Element, Cell) -> Void) -> Disposable where Source.Element == [Element] {
        { source in
            { configureCell in
                let bindCells: (@escaping (TableView, Int, Element) -> TableViewCell) -> Disposable = items(source)
                return bindCells { _, row, element in
                    let cell = Cell()
                    cell.tag = row
                    configureCell(row, element, cell)
                    return cell
                }
            }
        }
    }
}

example("信号的操作: page → throttle → flatMap → table", draw: true) {
    onVirtualTime { clock in
        let clubList = TableView()
        let refreshCtrl = RefreshControl(clock: clock)
        let viewModel = ClubListViewModel(server: ClubServer(clock: clock))
        let page = BehaviorRelay(value: 0)
        page
            .throttle(.milliseconds(500), scheduler: clock.scheduler)
            .do(onNext: { _ in refreshCtrl.isEnabled = false })
            .flatMap { page in
                viewModel.fetchClubList(fromPage: page)
                    .do(
                        onNext: { _ in
                            refreshCtrl.endRefreshing()
                            refreshCtrl.isEnabled = true
                        },
                        onError: { _ in
                            refreshCtrl.endRefreshing()
                            refreshCtrl.isEnabled = true
                        }
                    )
                    .retry()
                    .catchAndReturn([])
            }
            .bind(to: clubList.rx.items(cellIdentifier: "clubCell", cellType: ClubListCell.self)) {
                (_, viewModel, cell: ClubListCell) in
                cell.viewModel = viewModel
            }
            .disposed(by: clock.disposeBag)
        // The user scrolls to the end twice, quickly, then once more later.
        clock.at(1) {
            print("\(clock.stamp) page = 1")
            page.accept(1)
        }
        clock.at(1.2) {
            print("\(clock.stamp) page = 2")
            page.accept(2)
        }
        clock.at(3) {
            print("\(clock.stamp) page = 3")
            page.accept(3)
        }
    }
}

// MARK: - Exercises (the answers: make chapter N=22 ARGS=--answers)

exercise(1) {
    let subject = PublishSubject<Int>()
    let driver = subject.asDriver(onErrorJustReturn: -1)
    _ = driver.drive(onNext: { print("A", $0) })
    subject.onNext(1)
    _ = driver.drive(onNext: { print("B", $0) })
    subject.onError(RequestFailed())
    subject.onNext(2)
} why: {
    Why(
        """
        A `Driver` shares one subscription and replays the latest element to a newcomer: B gets 1 at once. The error
        becomes the `onErrorJustReturn` element, -1, for both, and then the Driver completes, so 2 reaches nobody.
        """,
        zh: """
            `Driver` 共享同一个订阅，并给新来的订阅者重放最新的元素：B 一订阅就收到 1。错误被换成
            `onErrorJustReturn` 给的 -1，两边都收到，随后 Driver 完成，2 就没人收了。
            """)
}

exercise(2) {
    let tableView = TableView()
    let items = BehaviorRelay(value: ["a"])
    _ = items.bind(to: tableView.rx.items) { _, row, element in
        let cell = TableViewCell()
        cell.tag = row
        cell.textLabel = element
        return cell
    }
    items.accept(items.value + ["b"])
} why: {
    Why(
        """
        A `BehaviorRelay` gives its current value on subscription, so binding reloads the table at once with `a`;
        `accept` sends the new array, and the table reloads again with both rows.
        """,
        zh: """
            `BehaviorRelay` 一被订阅就给出当前值，所以绑定时表格立刻用 `a` 刷新一次；`accept` 发出新数组，表格再刷新
            一次，两行都在。
            """)
}
