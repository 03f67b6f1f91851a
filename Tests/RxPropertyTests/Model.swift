import RxCore
import RxTesting

/// A plain-Swift reference for the operators whose output is a function of their input list:
/// lists of timed events in, a list out, no schedulers, no subscriptions. Semantics follow
/// RxSwift 6 (its `Zip.swift` and `CombineLatest.swift` for the two that depend on timing).
enum Model {
    /// A timed event, in the order it reaches the observer (equal times keep list order).
    struct Timed: Equatable, CustomStringConvertible {
        var time: Int
        var kind: SourceEvent.Kind

        var description: String {
            switch kind {
            case .next(let value): ".next(\(time), \(value))"
            case .completed: ".completed(\(time))"
            case .error: ".error(\(time), opTestError)"
            }
        }
    }

    /// What `toArray` turns into here, so the pipeline keeps `Int` elements.
    static func fold(_ values: [Int]) -> Int { values.reduce(7) { $0 &* 31 &+ $1 } }

    /// The expected output of `pipeline`, or nil when one of its operators is not modelled.
    static func expected(_ pipeline: PipelineCase) -> [Timed]? {
        guard pipeline.ops.allSatisfy(\.isModelled) else { return nil }
        let start = PipelineCase.subscribed
        var stream = subscribe(pipeline.sources[0], at: start)
        for op in pipeline.ops {
            stream = apply(op, stream, sources: pipeline.sources, subscribedAt: start)
        }
        // A subscription disposed at `disposeAt` sees nothing from then on (no event shares that time).
        return stream.filter { $0.time < pipeline.disposeAt }
    }

    /// What a subscription made at `time` receives: a hot source's later events, a cold
    /// source's events shifted by `time`.
    static func subscribe(_ source: SourceSpec, at time: Int) -> [Timed] {
        source.hot
            ? source.events.filter { $0.time > time }.map { Timed(time: $0.time, kind: $0.kind) }
            : source.events.map { Timed(time: $0.time + time, kind: $0.kind) }
    }

    private static func apply(_ op: Op, _ input: [Timed], sources: [SourceSpec], subscribedAt start: Int) -> [Timed] {
        switch op {
        case .map(let multiplier, let offset):
            return mapValues(input) { $0 &* multiplier &+ offset }
        case .filter(let modulus):
            return input.filter { if case .next(let v) = $0.kind { v % modulus == 0 } else { true } }
        case .scan(let seed):
            var accumulator = seed
            return mapValues(input) {
                accumulator = accumulator &+ $0; return accumulator
            }
        case .take(let count):
            guard count > 0 else { return [Timed(time: start, kind: .completed)] }
            var output: [Timed] = []
            for event in input {
                output.append(event)
                if output.count == count, case .next = event.kind {
                    return output + [Timed(time: event.time, kind: .completed)]
                }
                if event.isStop { break }
            }
            return output
        case .skip(let count):
            var skipped = 0
            return input.filter { event in
                guard case .next = event.kind, skipped < count else { return true }
                skipped += 1
                return false
            }
        case .distinctUntilChanged:
            var last: Int?
            return input.filter { event in
                guard case .next(let v) = event.kind else { return true }
                defer { last = v }
                return v != last
            }
        case .startWith(let values):
            return values.map { Timed(time: start, kind: .next($0)) } + input
        case .concat(let s):
            guard let end = input.last, end.kind == .completed else { return input }
            return Array(input.dropLast()) + subscribe(sources[s], at: end.time)
        case .reduce(let seed):
            return aggregate(input) { $0.reduce(seed) { $0 &+ $1 } }
        case .toArray:
            return aggregate(input, fold)
        case .zip(let s):
            return zip(input, subscribe(sources[s], at: start))
        case .combineLatest(let s):
            return combineLatest(input, subscribe(sources[s], at: start))
        default:
            preconditionFailure("\(op.name) is not modelled")
        }
    }

    private static func mapValues(_ input: [Timed], _ transform: (Int) -> Int) -> [Timed] {
        input.map { event in
            guard case .next(let v) = event.kind else { return event }
            return Timed(time: event.time, kind: .next(transform(v)))
        }
    }

    /// reduce and toArray: one value at completion, from all the values.
    private static func aggregate(_ input: [Timed], _ combine: ([Int]) -> Int) -> [Timed] {
        guard let end = input.last, end.isStop else { return [] }
        guard end.kind == .completed else { return [end] }
        let values = input.compactMap(\.value)
        return [Timed(time: end.time, kind: .next(combine(values))), end]
    }

    /// The two inputs in the order the scheduler delivers them (no shared times but the
    /// subscription's, where the first input's synchronous events come first).
    private static func interleave(_ a: [Timed], _ b: [Timed]) -> [(index: Int, event: Timed)] {
        (a.map { (index: 0, event: $0) } + b.map { (index: 1, event: $0) })
            .enumerated()
            .sorted { ($0.element.event.time, $0.offset) < ($1.element.event.time, $1.offset) }
            .map(\.element)
    }

    /// RxSwift's zip of two sources (`Zip+arity.swift`): a pair as soon as both queues hold a
    /// value; completed when both sources have completed, even when a value that can never be
    /// paired arrives before (only the collection form ends there); the first error ends it.
    private static func zip(_ a: [Timed], _ b: [Timed]) -> [Timed] {
        var queues: [[Int]] = [[], []]
        return combine(a, b) { index, value, time, _ in
            queues[index].append(value)
            guard !queues[0].isEmpty && !queues[1].isEmpty else { return [] }
            let first = queues[0].removeFirst()
            let second = queues[1].removeFirst()
            return [Timed(time: time, kind: .next(first &* 31 &+ second))]
        }
    }

    /// RxSwift's combineLatest: a value on each element once both have one; completed when
    /// both have completed, or when a value arrives and the other, valueless, has completed.
    private static func combineLatest(_ a: [Timed], _ b: [Timed]) -> [Timed] {
        var latest: [Int?] = [nil, nil]
        return combine(a, b) { index, value, time, done in
            latest[index] = value
            if let first = latest[0], let second = latest[1] {
                return [Timed(time: time, kind: .next(first &* 31 &+ second))]
            }
            return done[1 - index] ? [Timed(time: time, kind: .completed)] : []
        }
    }

    /// What zip and combineLatest share: the inputs in delivery order, `next` saying what a
    /// value of input `index` sends (a terminal event among it ends the output), the first error
    /// ending it, and completion once both inputs have completed.
    private static func combine(
        _ a: [Timed], _ b: [Timed], next: (_ index: Int, _ value: Int, _ time: Int, _ done: [Bool]) -> [Timed]
    ) -> [Timed] {
        var done = [false, false]
        var output: [Timed] = []
        for (index, event) in interleave(a, b) {
            switch event.kind {
            case .next(let value):
                for sent in next(index, value, event.time, done) {
                    output.append(sent)
                    if sent.isStop { return output }
                }
            case .error:
                return output + [event]
            case .completed:
                done[index] = true
                if done[0] && done[1] { return output + [event] }
            }
        }
        return output
    }
}

extension Model.Timed {
    var isStop: Bool { if case .next = kind { false } else { true } }
    var value: Int? { if case .next(let v) = kind { v } else { nil } }

    init(_ recorded: Recorded<Event<Int>>) {
        switch recorded.value {
        case .next(let v): self.init(time: recorded.time, kind: .next(v))
        case .completed: self.init(time: recorded.time, kind: .completed)
        case .error: self.init(time: recorded.time, kind: .error)
        }
    }
}
