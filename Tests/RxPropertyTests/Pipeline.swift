/// A random pipeline as data: sources on a TestScheduler, 1–6 operators, a disposal time.
///
/// Being data, a case can be run (`PipelineRun`), predicted by the model (`Model`), made
/// smaller (`Shrinker`) and printed as Swift code to paste into a test (`swiftCode`).

/// One event of a source, at a virtual time (absolute for hot sources, an offset for cold ones).
struct SourceEvent: Equatable {
    enum Kind: Equatable {
        case next(Int)
        case completed
        case error
    }
    var time: Int
    var kind: Kind
}

/// A TestableObservable to be created before the scheduler starts.
struct SourceSpec: Equatable {
    var hot: Bool
    /// `next*` then at most one terminal event, times strictly increasing.
    var events: [SourceEvent]
}

/// What each element of a flatMap-like operator turns into: a cold observable whose values
/// are the element plus `delta`, at these offsets from its subscription.
struct InnerSpec: Equatable {
    /// `.next` values here are deltas added to the element.
    var events: [SourceEvent]
}

/// One operator of the pipeline; `Int` payloads are its parameters, `source` an index into
/// `PipelineCase.sources`.
enum Op: Equatable {
    case map(multiplier: Int, offset: Int)
    case filter(modulus: Int)
    case scan(seed: Int)
    case take(Int)
    case skip(Int)
    case distinctUntilChanged
    case startWith([Int])
    case concat(source: Int)
    case reduce(seed: Int)
    case toArray
    case zip(source: Int)
    case combineLatest(source: Int)
    case flatMap(InnerSpec)
    case flatMapLatest(InnerSpec)
    case concatMap(InnerSpec)
    case switchLatest(InnerSpec)
    case merge(source: Int)
    case catchWith(source: Int)
    case retry(Int)
    case share(replay: Int)
    case debounce(Int)
    case throttle(Int, latest: Bool)
    case sample(source: Int)
    case groupBy(modulus: Int)

    /// Operators whose output is a function of their input list (and, for zip and
    /// combineLatest, of the interleaving on virtual time): the model predicts these.
    var isModelled: Bool {
        switch self {
        case .map, .filter, .scan, .take, .skip, .distinctUntilChanged, .startWith, .concat, .reduce, .toArray,
            .zip, .combineLatest:
            return true
        default:
            return false
        }
    }

    /// The index of the source this operator subscribes to besides its upstream, if any.
    var source: Int? {
        get {
            switch self {
            case .concat(let s), .zip(let s), .combineLatest(let s), .merge(let s), .catchWith(let s), .sample(let s):
                return s
            default: return nil
            }
        }
        set {
            guard let s = newValue else { return }
            switch self {
            case .concat: self = .concat(source: s)
            case .zip: self = .zip(source: s)
            case .combineLatest: self = .combineLatest(source: s)
            case .merge: self = .merge(source: s)
            case .catchWith: self = .catchWith(source: s)
            case .sample: self = .sample(source: s)
            default: break
            }
        }
    }

    /// The operator's name, for coverage counts.
    var name: String {
        switch self {
        case .map: "map"
        case .filter: "filter"
        case .scan: "scan"
        case .take: "take"
        case .skip: "skip"
        case .distinctUntilChanged: "distinctUntilChanged"
        case .startWith: "startWith"
        case .concat: "concat"
        case .reduce: "reduce"
        case .toArray: "toArray"
        case .zip: "zip"
        case .combineLatest: "combineLatest"
        case .flatMap: "flatMap"
        case .flatMapLatest: "flatMapLatest"
        case .concatMap: "concatMap"
        case .switchLatest: "switchLatest"
        case .merge: "merge"
        case .catchWith: "catch"
        case .retry: "retry"
        case .share: "share"
        case .debounce: "debounce"
        case .throttle: "throttle"
        case .sample: "sample"
        case .groupBy: "groupBy"
        }
    }

    static let allNames = [
        "map", "filter", "scan", "take", "skip", "distinctUntilChanged", "startWith", "concat", "reduce", "toArray",
        "zip", "combineLatest", "flatMap", "flatMapLatest", "concatMap", "switchLatest", "merge", "catch", "retry",
        "share", "debounce", "throttle", "sample", "groupBy",
    ]
}

/// A whole case: `sources[0]` feeds the operators in order; the subscription made at 200 is
/// disposed at `disposeAt`.
struct PipelineCase: Equatable {
    var sources: [SourceSpec]
    var ops: [Op]
    var disposeAt: Int

    static let created = 100
    static let subscribed = 200
}

// MARK: - Virtual times

/// Times are spread over residues modulo `period` so that no two sources (nor a source and the
/// disposal) ever fire at the same virtual time: the order of simultaneous actions is an
/// accident of scheduling, not something a model should have to guess.
enum Times {
    static let period = 20
    /// The residue of every disposal time (subscriptions happen at residue 0: 200).
    static let disposal = 19
    /// Residues 1…18 are handed to sources in order.
    static func residue(ofSource index: Int) -> Int { 1 + index % 18 }
}

// MARK: - Generation

extension PipelineCase {
    /// A random case: 1–6 operators; about a third of cases use only modelled operators, so the
    /// model is checked often.
    static func generate(_ rng: inout SplitMix64) -> PipelineCase {
        var sources = [SourceSpec.generate(&rng, index: 0, hotChance: 50)]
        let modelledOnly = rng.chance(35)
        var ops: [Op] = []
        for _ in 0..<rng.int(in: 1...6) {
            ops.append(Op.generate(&rng, modelledOnly: modelledOnly, sources: &sources))
        }
        // 40% run to 1019 (after every source has ended), the rest are cut short anywhere.
        let disposeAt = (rng.chance(40) ? 50 : rng.int(in: 10...59)) * Times.period + Times.disposal
        return PipelineCase(sources: sources, ops: ops, disposeAt: disposeAt)
    }
}

extension SourceSpec {
    /// Up to 6 values then completed, error or nothing; hot sources may start before the
    /// subscription (those events are missed, as they should be).
    static func generate(_ rng: inout SplitMix64, index: Int, hotChance: Int) -> SourceSpec {
        let hot = rng.chance(hotChance)
        let residue = Times.residue(ofSource: index)
        var slot = hot ? rng.int(in: 7...11) : 0
        var events: [SourceEvent] = []
        for _ in 0..<rng.int(in: 0...6) {
            slot += rng.int(in: 1...6)
            events.append(SourceEvent(time: slot * Times.period + residue, kind: .next(rng.int(in: -3...12))))
        }
        slot += rng.int(in: 1...8)
        switch rng.int(in: 0..<10) {
        case 0..<5: events.append(SourceEvent(time: slot * Times.period + residue, kind: .completed))
        case 5..<8: events.append(SourceEvent(time: slot * Times.period + residue, kind: .error))
        default: break
        }
        return SourceSpec(hot: hot, events: events)
    }
}

extension InnerSpec {
    /// 0–3 values at small offsets, usually completing.
    static func generate(_ rng: inout SplitMix64) -> InnerSpec {
        var offset = 0
        var events: [SourceEvent] = []
        for _ in 0..<rng.int(in: 0...3) {
            offset += rng.int(in: 1...40)
            events.append(SourceEvent(time: offset, kind: .next(rng.int(in: 0...5))))
        }
        offset += rng.int(in: 1...40)
        switch rng.int(in: 0..<10) {
        case 0..<7: events.append(SourceEvent(time: offset, kind: .completed))
        case 7: events.append(SourceEvent(time: offset, kind: .error))
        default: break
        }
        return InnerSpec(events: events)
    }
}

extension Op {
    static func generate(_ rng: inout SplitMix64, modelledOnly: Bool, sources: inout [SourceSpec]) -> Op {
        func newSource(hotChance: Int) -> Int {
            sources.append(SourceSpec.generate(&rng, index: sources.count, hotChance: hotChance))
            return sources.count - 1
        }
        let kinds = modelledOnly ? 12 : 24
        switch rng.int(in: 0..<kinds) {
        case 0: return .map(multiplier: rng.int(in: -2...3), offset: rng.int(in: -5...5))
        case 1: return .filter(modulus: rng.int(in: 2...4))
        case 2: return .scan(seed: rng.int(in: 0...3))
        case 3: return .take(rng.int(in: 0...5))
        case 4: return .skip(rng.int(in: 0...4))
        case 5: return .distinctUntilChanged
        case 6: return .startWith((0..<rng.int(in: 1...3)).map { _ in rng.int(in: 0...9) })
        // concat subscribes when its upstream completes, at any residue: a hot second source
        // keeps its events off the residues of the others.
        case 7: return .concat(source: newSource(hotChance: 100))
        case 8: return .reduce(seed: rng.int(in: 0...3))
        case 9: return .toArray
        case 10: return .zip(source: newSource(hotChance: 50))
        case 11: return .combineLatest(source: newSource(hotChance: 50))
        case 12: return .flatMap(.generate(&rng))
        case 13: return .flatMapLatest(.generate(&rng))
        case 14: return .concatMap(.generate(&rng))
        case 15: return .switchLatest(.generate(&rng))
        case 16: return .merge(source: newSource(hotChance: 50))
        case 17: return .catchWith(source: newSource(hotChance: 50))
        case 18: return .retry(rng.int(in: 1...3))
        case 19: return .share(replay: rng.int(in: 0...2))
        case 20: return .debounce(rng.int(in: 1...60))
        case 21: return .throttle(rng.int(in: 1...60), latest: rng.chance(50))
        case 22: return .sample(source: newSource(hotChance: 50))
        default: return .groupBy(modulus: rng.int(in: 2...3))
        }
    }
}

// MARK: - Seeded randomness

/// SplitMix64: tiny, fast, and the same sequence for a seed on every platform and run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func int(in range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool { int(in: 0..<100) < percent }
}
