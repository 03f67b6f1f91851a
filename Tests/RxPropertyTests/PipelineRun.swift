import RxCore
import RxTesting

/// The error every failing source sends.
struct PipelineError: Error, Equatable, CustomStringConvertible {
    var description: String { "opTestError" }
}

/// What one run of a case produced: the observer's record and every testable observable's
/// subscriptions (the sources, and each inner observable a flatMap-like operator made).
struct Outcome {
    var events: [Recorded<Event<Int>>]
    var subscriptions: [(name: String, subscriptions: [Subscription])]
}

/// Builds a case's pipeline on a fresh TestScheduler and runs it to the end.
///
/// Everything it creates is a local of `run`, so when it returns every core object of the run
/// should be gone: the leak property checks exactly that.
enum PipelineRun {
    static func run(_ pipeline: PipelineCase) -> Outcome {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = pipeline.sources.map { spec in
            spec.hot
                ? scheduler.createHotObservable(spec.events.map(recorded))
                : scheduler.createColdObservable(spec.events.map(recorded))
        }
        let inners = InnerLog()
        let observer = scheduler.start(
            created: PipelineCase.created, subscribed: PipelineCase.subscribed, disposed: pipeline.disposeAt
        ) { () -> Observable<Int> in
            var stream = sources[0].asObservable()
            for (index, op) in pipeline.ops.enumerated() {
                stream = apply(op, to: stream, sources: sources, scheduler: scheduler) { x, inner in
                    let observable = scheduler.createColdObservable(inner.events.map { recorded($0, plus: x) })
                    inners.append("inner of op \(index + 1) (\(op.name)) for \(x)", observable)
                    return observable.asObservable()
                }
            }
            return stream
        }
        let named = sources.enumerated().map { (name: "s\($0.offset)", subscriptions: $0.element.subscriptions) }
        return Outcome(events: observer.events, subscriptions: named + inners.subscriptions)
    }

    private static func apply(
        _ op: Op, to up: Observable<Int>, sources: [TestableObservable<Int>], scheduler: TestScheduler,
        inner: @escaping (Int, InnerSpec) -> Observable<Int>
    ) -> Observable<Int> {
        switch op {
        case .map(let multiplier, let offset): return up.map { $0 &* multiplier &+ offset }
        case .filter(let modulus): return up.filter { $0 % modulus == 0 }
        case .scan(let seed): return up.scan(seed) { $0 &+ $1 }
        case .take(let count): return up.take(count)
        case .skip(let count): return up.skip(count)
        case .distinctUntilChanged: return up.distinctUntilChanged()
        case .startWith(let values):
            // Variadic in RxSwift, and Swift cannot spread an array: the generator makes 1–3.
            switch values.count {
            case 1: return up.startWith(values[0])
            case 2: return up.startWith(values[0], values[1])
            default: return up.startWith(values[0], values[1], values[2])
            }
        case .concat(let s): return up.concat(sources[s])
        case .reduce(let seed): return up.reduce(seed) { $0 &+ $1 }
        case .toArray: return up.toArray().asObservable().map(Model.fold)
        case .zip(let s): return Observable.zip(up, sources[s]) { $0 &* 31 &+ $1 }
        case .combineLatest(let s): return Observable.combineLatest(up, sources[s]) { $0 &* 31 &+ $1 }
        case .flatMap(let spec): return up.flatMap { inner($0, spec) }
        case .flatMapLatest(let spec): return up.flatMapLatest { inner($0, spec) }
        case .concatMap(let spec): return up.concatMap { inner($0, spec) }
        case .switchLatest(let spec): return up.map { inner($0, spec) }.switchLatest()
        case .merge(let s): return Observable.merge(up, sources[s].asObservable())
        case .catchWith(let s): return up.catch { _ in sources[s].asObservable() }
        case .retry(let count): return up.retry(count)
        case .share(let replay):
            let shared = up.share(replay: replay)
            return Observable.merge(shared, shared.skip(1))
        case .debounce(let due): return up.debounce(.seconds(due), scheduler: scheduler)
        case .throttle(let due, let latest): return up.throttle(.seconds(due), latest: latest, scheduler: scheduler)
        case .sample(let s): return up.sample(sources[s])
        case .groupBy(let modulus): return up.groupBy(keySelector: { $0 % modulus }).flatMap { $0 }
        }
    }

    private static func recorded(_ event: SourceEvent) -> Recorded<Event<Int>> {
        recorded(event, plus: 0)
    }

    private static func recorded(_ event: SourceEvent, plus x: Int) -> Recorded<Event<Int>> {
        switch event.kind {
        case .next(let value): return .next(event.time, x &+ value)
        case .completed: return .completed(event.time)
        case .error: return .error(event.time, PipelineError())
        }
    }
}

/// The inner observables a run made, in order.
private final class InnerLog {
    private var made: [(name: String, observable: TestableObservable<Int>)] = []

    func append(_ name: String, _ observable: TestableObservable<Int>) { made.append((name, observable)) }

    var subscriptions: [(name: String, subscriptions: [Subscription])] {
        made.map { (name: $0.name, subscriptions: $0.observable.subscriptions) }
    }
}
