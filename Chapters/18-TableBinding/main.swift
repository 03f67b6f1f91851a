// Chapter 18 — table binding with sections, and Driver (003 "RxSwift实现一个UITableView":
// SectionModel, RxTableViewSectionedReloadDataSource, configureCell, rx_itemsWithDataSource;
// 001 "tableView 绑定数据源 代理" and "tableView 点击代理"; 000 "用Observable还是Driver").
//
// A headless table view stands in for UITableView: "showing" a row prints it.
import Foundation
import RxCore
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

final class TableViewCell {
    var textLabel = ""
    var tag = 0
}

/// A headless UITableView: holds a data source and shows every row when reloaded.
final class TableView: NSObject {
    fileprivate var numberOfSections: () -> Int = { 0 }
    fileprivate var numberOfRows: (Int) -> Int = { _ in 0 }
    fileprivate var cellForRow: (IndexPath) -> TableViewCell = { _ in TableViewCell() }
    fileprivate var titleForHeader: (Int) -> String? = { _ in nil }
    fileprivate let selected = PublishSubject<IndexPath>()

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

// MARK: - Exercises (the answers: make chapter N=18 ARGS=--answers)

exercise(1) {
    let subject = PublishSubject<Int>()
    let driver = subject.asDriver(onErrorJustReturn: -1)
    _ = driver.drive(onNext: { print("A", $0) })
    subject.onNext(1)
    _ = driver.drive(onNext: { print("B", $0) })
    subject.onError(RequestFailed())
    subject.onNext(2)
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
}
