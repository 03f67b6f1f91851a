/// Makes a failing case smaller while it still fails: fewer operators, fewer source events,
/// smaller parameters, the default disposal time. Greedy: the first smaller case that still
/// fails is kept and the search starts again from it.
enum Shrinker {
    /// The smallest failing case found within `budget` runs of `fails`.
    static func shrink(_ failing: PipelineCase, budget: Int = 2_000, fails: (PipelineCase) -> Bool) -> PipelineCase {
        var current = failing
        var runs = 0
        search: while runs < budget {
            for candidate in smaller(than: current) {
                runs += 1
                if fails(candidate) {
                    current = candidate
                    continue search
                }
                if runs >= budget { break search }
            }
            break
        }
        return current
    }

    /// Candidates one step smaller than `pipeline`, the biggest steps first.
    static func smaller(than pipeline: PipelineCase) -> [PipelineCase] {
        var candidates: [PipelineCase] = []
        // Drop an operator (and the sources only it used).
        if pipeline.ops.count > 1 {
            for i in pipeline.ops.indices {
                var c = pipeline
                c.ops.remove(at: i)
                candidates.append(c.withoutUnusedSources())
            }
        }
        // The default disposal time.
        if pipeline.disposeAt != defaultDisposal {
            var c = pipeline
            c.disposeAt = defaultDisposal
            candidates.append(c)
        }
        // Drop one event of a source, or of an operator's inner observable.
        for (s, source) in pipeline.sources.enumerated() {
            for e in source.events.indices {
                var c = pipeline
                c.sources[s].events.remove(at: e)
                candidates.append(c)
            }
        }
        for (i, op) in pipeline.ops.enumerated() {
            for simpler in simpler(op) {
                var c = pipeline
                c.ops[i] = simpler
                candidates.append(c)
            }
        }
        // Cold instead of hot, then smaller values.
        for (s, source) in pipeline.sources.enumerated() where source.hot {
            var c = pipeline
            c.sources[s].hot = false
            c.sources[s].events = source.events.map { event in
                var event = event
                event.time -= PipelineCase.subscribed
                return event
            }.filter { $0.time > 0 }
            candidates.append(c)
        }
        for (s, source) in pipeline.sources.enumerated() {
            for (e, event) in source.events.enumerated() {
                guard case .next(let value) = event.kind, value != 0 else { continue }
                for smaller in [0, value / 2] where smaller != value {
                    var c = pipeline
                    c.sources[s].events[e].kind = .next(smaller)
                    candidates.append(c)
                }
            }
        }
        return candidates
    }

    static let defaultDisposal = 50 * Times.period + Times.disposal

    private static func simpler(_ op: Op) -> [Op] {
        switch op {
        case .map(let m, let o):
            return [(1, 0), (m, 0), (1, o)].filter { $0 != (m, o) }.map { .map(multiplier: $0.0, offset: $0.1) }
        case .scan(let seed) where seed != 0: return [.scan(seed: 0)]
        case .reduce(let seed) where seed != 0: return [.reduce(seed: 0)]
        case .take(let n) where n > 0: return [.take(n - 1)]
        case .skip(let n) where n > 0: return [.skip(n - 1)]
        case .retry(let n) where n > 1: return [.retry(n - 1)]
        case .share(let n) where n > 0: return [.share(replay: n - 1)]
        case .startWith(let values) where values.count > 1: return [.startWith([values[0]])]
        case .flatMap(let inner): return fewer(inner).map { .flatMap($0) }
        case .flatMapLatest(let inner): return fewer(inner).map { .flatMapLatest($0) }
        case .concatMap(let inner): return fewer(inner).map { .concatMap($0) }
        case .switchLatest(let inner): return fewer(inner).map { .switchLatest($0) }
        default: return []
        }
    }

    private static func fewer(_ inner: InnerSpec) -> [InnerSpec] {
        inner.events.indices.map { i in
            var smaller = inner
            smaller.events.remove(at: i)
            return smaller
        }
    }
}

extension PipelineCase {
    /// The same case without sources no operator uses, indices renumbered.
    func withoutUnusedSources() -> PipelineCase {
        let used = Set([0] + ops.compactMap(\.source))
        var renumbered: [Int: Int] = [:]
        var kept: [SourceSpec] = []
        for (i, source) in sources.enumerated() where used.contains(i) {
            renumbered[i] = kept.count
            kept.append(source)
        }
        let ops = ops.map { op in
            var op = op
            op.source = op.source.flatMap { renumbered[$0] }
            return op
        }
        return PipelineCase(sources: kept, ops: ops, disposeAt: disposeAt)
    }
}
