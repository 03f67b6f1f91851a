/// A case as RxTest-style Swift to paste into a test under Tests/RxCoreTests/Operators/
/// (where `opTestError` is defined). `PipelineRun` builds the same pipeline, operator by operator.
extension PipelineCase {
    var swiftCode: String {
        var lines = ["let scheduler = TestScheduler(initialClock: 0)"]
        for (i, source) in sources.enumerated() {
            let kind = source.hot ? "createHotObservable" : "createColdObservable"
            lines.append("let s\(i) = scheduler.\(kind)([\(source.events.map { $0.swift() }.joined(separator: ", "))])")
        }
        lines.append("let result = scheduler.start(disposed: \(disposeAt)) { () -> Observable<Int> in")
        var upstream = "s0.asObservable()"
        for (i, op) in ops.enumerated() {
            let name = "p\(i + 1)"
            for line in op.swift(upstream: upstream, name: name) { lines.append("    " + line) }
            upstream = name
        }
        lines.append("    return \(upstream)")
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}

extension SourceEvent {
    /// `.next(230, 4)`; inside an inner observable `x` is the element it was made for.
    func swift(plus x: String? = nil) -> String {
        switch kind {
        case .next(let value): return ".next(\(time), \(x.map { "\($0) &+ \(value)" } ?? "\(value)"))"
        case .completed: return ".completed(\(time))"
        case .error: return ".error(\(time), opTestError)"
        }
    }
}

extension InnerSpec {
    var swift: String {
        "scheduler.createColdObservable([\(events.map { $0.swift(plus: "x") }.joined(separator: ", "))])"
    }
}

extension Op {
    /// The statements that make `name` from `upstream`.
    func swift(upstream up: String, name: String) -> [String] {
        let expression: String
        switch self {
        case .map(let m, let o): expression = "\(up).map { $0 &* \(m) &+ \(o) }"
        case .filter(let modulus): expression = "\(up).filter { $0 % \(modulus) == 0 }"
        case .scan(let seed): expression = "\(up).scan(\(seed)) { $0 &+ $1 }"
        case .take(let n): expression = "\(up).take(\(n))"
        case .skip(let n): expression = "\(up).skip(\(n))"
        case .distinctUntilChanged: expression = "\(up).distinctUntilChanged()"
        case .startWith(let values): expression = "\(up).startWith(\(values.map(String.init).joined(separator: ", ")))"
        case .concat(let s): expression = "\(up).concat(s\(s))"
        case .reduce(let seed): expression = "\(up).reduce(\(seed)) { $0 &+ $1 }"
        case .toArray: expression = "\(up).toArray().asObservable().map { $0.reduce(7) { $0 &* 31 &+ $1 } }"
        case .zip(let s): expression = "Observable.zip(\(up), s\(s)) { $0 &* 31 &+ $1 }"
        case .combineLatest(let s): expression = "Observable.combineLatest(\(up), s\(s)) { $0 &* 31 &+ $1 }"
        case .flatMap(let inner): expression = "\(up).flatMap { x in \(inner.swift) }"
        case .flatMapLatest(let inner): expression = "\(up).flatMapLatest { x in \(inner.swift) }"
        case .concatMap(let inner): expression = "\(up).concatMap { x in \(inner.swift) }"
        case .switchLatest(let inner): expression = "\(up).map { x in \(inner.swift).asObservable() }.switchLatest()"
        case .merge(let s): expression = "Observable.merge(\(up), s\(s).asObservable())"
        case .catchWith(let s): expression = "\(up).catch { _ in s\(s).asObservable() }"
        case .retry(let n): expression = "\(up).retry(\(n))"
        case .share(let replay):
            return [
                "let \(name)s = \(up).share(replay: \(replay))",
                "let \(name) = Observable.merge(\(name)s, \(name)s.skip(1))",
            ]
        case .debounce(let due): expression = "\(up).debounce(.seconds(\(due)), scheduler: scheduler)"
        case .throttle(let due, let latest):
            expression = "\(up).throttle(.seconds(\(due)), latest: \(latest), scheduler: scheduler)"
        case .sample(let s): expression = "\(up).sample(s\(s))"
        case .groupBy(let modulus): expression = "\(up).groupBy(keySelector: { $0 % \(modulus) }).flatMap { $0 }"
        }
        return ["let \(name) = \(expression)"]
    }
}
