// Chapter 04 — operators are producers (002 "map原理分析"): `map` returns a `Map` producer whose
// `run` makes a `MapSink` and subscribes it to the source.
import RxCore
import Workbook

// 002: the simplest map.
example("map", draw: true) {
    let disposeBag = DisposeBag()
    let ob = Observable.of(1, 2, 3, 4)
    ob.map { (number) -> Int in
        return number + 2
    }
    .subscribe {
        print("\($0)")
    }
    .disposed(by: disposeBag)
}

// The calls behind it: the subscription travels up (MapSink subscribes to the source), the
// events travel down (the source's sink → MapSink.on → transform → forwardOn).
example("map, call by call") {
    let trace = Diagrams.trace {
        let d = Observable.of(1).map { $0 + 2 }.subscribe(onNext: { print($0) })
        d.dispose()
    }
    print(DiagramOutput.flowText(trace), terminator: "")
}

// 002 总结: "different operators are different Producer subclasses and Sink subclasses". The
// same shape, written outside the core: a producer that keeps the source and the transform,
// and a sink that transforms each element and forwards it.
final class MyMapSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = SourceType
    private let transform: (SourceType) throws -> Observer.Element

    init(transform: @escaping (SourceType) throws -> Observer.Element, observer: Observer, cancel: SinkDisposer) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("MyMapSink"))
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            do {
                forwardOn(.next(try transform(element)))
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

final class MyMap<SourceType, ResultType>: Producer<ResultType> {
    private let source: Observable<SourceType>
    private let transform: (SourceType) throws -> ResultType

    init(source: Observable<SourceType>, transform: @escaping (SourceType) throws -> ResultType, callSite: CallSite) {
        self.source = source
        self.transform = transform
        super.init(counter: ResourceCounter.named("MyMap"), callSite: callSite)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == ResultType {
        let sink = MyMapSink(transform: transform, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

extension ObservableType {
    func myMap<Result>(
        _ transform: @escaping (Element) throws -> Result, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Result> {
        MyMap(source: asObservable(), transform: transform, callSite: CallSite(file, line))
    }
}

example("myMap", draw: true) {
    let disposeBag = DisposeBag()
    Observable.of(1, 2, 3, 4)
        .myMap { $0 + 2 }
        .subscribe { print($0) }
        .disposed(by: disposeBag)
}

// A throwing transform ends the sequence with an error (MapSink's catch branch).
struct TooBig: Error, CustomStringConvertible {
    let value: Int
    var description: String { "TooBig(\(value))" }
}

example("map that throws") {
    let disposeBag = DisposeBag()
    Observable.of(1, 2, 3, 4)
        .map { number -> Int in
            if number > 2 { throw TooBig(value: number) }
            return number + 2
        }
        .subscribe { print($0) }
        .disposed(by: disposeBag)
}

// Operators chain: each one is a producer built on the one before; each subscription makes one
// sink per operator.
example("chain", draw: true) {
    let disposeBag = DisposeBag()
    Observable.of(1, 2, 3, 4)
        .filter { $0 % 2 == 0 }
        .map { $0 * 10 }
        .subscribe { print($0) }
        .disposed(by: disposeBag)
}

// MARK: - Exercises (the answers: make chapter N=04 ARGS=--answers)

exercise(1) {
    _ = Observable.of(1, 2, 3)
        .map { n -> Int in
            print("map", n)
            return n * 10
        }
        .filter { n in
            print("filter", n)
            return n != 20
        }
        .subscribe(onNext: { print("got", $0) })
} why: {
    Why(
        """
        Operators do not take turns over the whole sequence: each element goes down the whole chain, `MapSink`,
        `FilterSink`, the observer, before the source sends the next one. 20 stops at the filter.
        """,
        zh: """
            操作符并不是一个处理完全部元素再交给下一个：每个元素都顺着整条链走到底——`MapSink`、`FilterSink`、观察者
            ——源序列才发下一个。20 在 filter 那里被拦下了。
            """)
}

exercise(2) {
    let doubled = Observable.of(1, 2).map { n -> Int in
        print("map", n)
        return n * 2
    }
    print("built")
    _ = doubled.subscribe(onNext: { print("A", $0) })
    _ = doubled.subscribe(onNext: { print("B", $0) })
} why: {
    Why(
        """
        Building the chain runs nothing. Each `subscribe` makes its own `MapSink` and its own subscription to `of`, so
        the closure runs once per element per subscriber: 1 and 2 are each mapped twice.
        """,
        zh: """
            搭好链条时什么也不执行。每次 `subscribe` 都会建自己的 `MapSink`，自己订阅一次 `of`，所以闭包对每个订阅者
            的每个元素各执行一次：1 和 2 各被 map 了两次。
            """)
}
