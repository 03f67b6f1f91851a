import Foundation
import RxTrace
import Testing

/// Every sink and observer of a subscription is reachable from the observer that started it:
/// inner subscriptions and helper observers of the combining operators are part of the graph.
@Suite(.serialized) struct ConnectednessTests {
    /// Pipelines with inner subscriptions or helper observers, each driven to completion.
    static let pipelines: [(String, (PublishSubject<Int>, PublishSubject<Int>) -> Observable<Int>)] = [
        ("flatMap", { a, _ in a.flatMap { Observable.of($0, $0) } }),
        ("flatMapLatest", { a, b in a.flatMapLatest { _ in b.asObservable() } }),
        ("concatMap", { a, _ in a.concatMap { Observable.of($0) } }),
        (
            "merge(maxConcurrent:)",
            { a, b in Observable.of(a.asObservable(), b.asObservable()).merge(maxConcurrent: 1) }
        ),
        ("combineLatest", { a, b in Observable.combineLatest(a, b) { $0 + $1 } }),
        ("zip", { a, b in Observable.zip(a, b) { $0 + $1 } }),
        ("withLatestFrom", { a, b in a.withLatestFrom(b) }),
        ("take(until:)", { a, b in a.take(until: b) }),
        ("skip(until:)", { a, b in a.skip(until: b) }),
        ("sample", { a, b in a.sample(b) }),
        ("amb", { a, b in a.amb(b) }),
        ("catch", { a, b in a.catch { _ in b.asObservable() } }),
    ]

    @Test(arguments: pipelines.indices)
    func sinksAndObserversAreConnected(_ index: Int) {
        let (name, make) = Self.pipelines[index]
        let trace = checkingNoLeaks {
            Trace.record {
                let a = PublishSubject<Int>(), b = PublishSubject<Int>()
                let d = make(a, b).subscribe(onNext: { _ in }, onError: { _ in })
                b.onNext(10)
                a.onNext(1)
                b.onNext(20)
                a.onNext(2)
                d.dispose()
            }
        }
        var neighbours: [UInt64: Set<UInt64>] = [:]
        for edge in trace.edges {
            neighbours[edge.from, default: []].insert(edge.to)
            neighbours[edge.to, default: []].insert(edge.from)
        }
        guard let terminal = trace.nodes.first(where: { $0.type == "AnonymousObserver" }) else {
            Issue.record("\(name): no terminal observer")
            return
        }
        var reached: Set<UInt64> = [terminal.id]
        var frontier = [terminal.id]
        while let id = frontier.popLast() {
            for next in neighbours[id] ?? [] where reached.insert(next).inserted { frontier.append(next) }
        }
        let unreached = trace.nodes.filter { ($0.kind == .sink || $0.kind == .observer) && !reached.contains($0.id) }
        #expect(unreached.isEmpty, "\(name): not connected: \(unreached.map { "\($0.type) #\($0.id)" })")
        #expect(trace.nodes.contains { $0.kind == .sink }, "\(name): no sink")
    }
}
