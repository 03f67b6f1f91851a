import Foundation
import RxCore
import RxTesting
import Testing

/// How many random pipelines to run, and from which seed: `make test` runs the default 2,000;
/// `make property N=100000` runs more; `make property SEED=S N=1` replays case S.
struct PropertySettings {
    var count = 2_000
    var firstSeed: UInt64 = 1

    static var fromEnvironment: PropertySettings {
        var settings = PropertySettings()
        let environment = ProcessInfo.processInfo.environment
        if let n = environment["RX_PROPERTY_N"].flatMap(Int.init), n > 0 { settings.count = n }
        if let seed = environment["RX_PROPERTY_SEED"].flatMap(UInt64.init) { settings.firstSeed = seed }
        return settings
    }

    /// One case in four runs under a trace recorder (and again without, for the same output).
    static func traced(_ seed: UInt64) -> Bool { seed % 4 == 0 }
}

@Suite(.serialized, .noLeaks)
struct PipelinePropertyTests {
    @Test func randomPipelinesKeepTheRxContract() {
        let settings = PropertySettings.fromEnvironment
        var failures = 0
        var modelled = 0
        var seen: [String: Int] = [:]
        let started = ContinuousClock.now
        for i in 0..<settings.count {
            let seed = settings.firstSeed &+ UInt64(i)
            var rng = SplitMix64(seed: seed)
            let pipeline = PipelineCase.generate(&rng)
            for op in pipeline.ops { seen[op.name, default: 0] += 1 }
            if Model.expected(pipeline) != nil { modelled += 1 }
            let found = Properties.violations(of: pipeline, traced: PropertySettings.traced(seed))
            if !found.isEmpty {
                Issue.record(Comment(rawValue: report(seed: seed, pipeline, found)))
                failures += 1
                if failures == 5 { break }
            }
            if settings.count >= 10_000 && (i + 1) % 10_000 == 0 {
                print("\(i + 1) pipelines, \(started.duration(to: .now)), \(failures) failing")
            }
        }
        print(
            "\(settings.count) random pipelines from seed \(settings.firstSeed) (\(modelled) checked against the model)"
                + " in \(started.duration(to: .now)): \(failures) failing")
        // The generator reaches every operator, and the model sees a fair share of cases.
        #expect(
            Set(seen.keys) == Set(Op.allNames), "operators never generated: \(Set(Op.allNames).subtracting(seen.keys))")
        #expect(modelled * 5 >= settings.count)
    }

    /// The seed, what broke, and the shrunk case as Swift to paste into a test.
    private func report(seed: UInt64, _ pipeline: PipelineCase, _ found: [String]) -> String {
        let traced = PropertySettings.traced(seed)
        let shrunk = Shrinker.shrink(pipeline) { !Properties.violations(of: $0, traced: traced).isEmpty }
        let still = Properties.violations(of: shrunk, traced: traced)
        return """
            random pipeline, seed \(seed)\(traced ? " (traced)" : ""): \(found.joined(separator: "; "))
            replay: make property SEED=\(seed) N=1
            shrunk to (\(still.joined(separator: "; "))):
            \(shrunk.swiftCode)
            """
    }
}

/// The checks and the shrinker themselves: each must catch what it is for.
@Suite(.serialized, .noLeaks)
struct PropertyCheckTests {
    @Test func grammarCatchesAnEventAfterTermination() {
        #expect(Properties.grammar([.next(210, 1), .completed(220)]).isEmpty)
        #expect(Properties.grammar([.next(210, 1), .error(220, PipelineError())]).isEmpty)
        #expect(Properties.grammar([.completed(220), .next(230, 1)]).count == 1)
        #expect(Properties.grammar([.error(220, PipelineError()), .completed(230)]).count == 1)
    }

    @Test func disposalCheckCatchesALateEvent() {
        #expect(Properties.afterDisposal([.next(210, 1)], at: 219).isEmpty)
        #expect(Properties.afterDisposal([.next(210, 1), .next(219, 2)], at: 219).count == 1)
    }

    @Test func subscriptionCheckCatchesAnOpenSubscription() {
        let closed = Outcome(events: [], subscriptions: [("s0", [Subscription(200, 300)])])
        let open = Outcome(events: [], subscriptions: [("s0", [Subscription(200, 300), Subscription(300)])])
        #expect(Properties.openSubscriptions(closed).isEmpty)
        #expect(Properties.openSubscriptions(open) == ["s0: subscription at 300 never closed"])
    }

    @Test func leakAndTraceChecksCatchAnUndisposedSubscription() {
        let pipeline = PipelineCase(sources: [SourceSpec(hot: true, events: [])], ops: [.toArray], disposeAt: 1019)
        let subject = PublishSubject<Int>()
        var kept: Disposable?
        // A run that leaves a subscription open behind it (until the next run: the traced run is
        // checked, then run again untraced).
        let leaky = { (pipeline: PipelineCase) -> Outcome in
            kept?.dispose()
            kept = subject.map { $0 }.subscribe()
            return PipelineRun.run(pipeline)
        }
        let found = Properties.violations(of: pipeline, traced: true, run: leaky)
        kept?.dispose()
        kept = nil
        #expect(found.contains { $0.hasPrefix("leaked: ") && $0.contains("MapSink") })
        #expect(found.contains { $0.hasPrefix("Resources.total went from") })
        #expect(found.contains { $0.hasPrefix("trace: ") && $0.contains("nodes alive at the end") })
        #expect(Properties.violations(of: pipeline, traced: true).isEmpty)
    }

    @Test func outputCheckCatchesARunThatTracingChanges() {
        let pipeline = PipelineCase(
            sources: [SourceSpec(hot: true, events: [.init(time: 221, kind: .next(1))])],
            ops: [.map(multiplier: 2, offset: 0)],
            disposeAt: 1019)
        // A run that behaves otherwise while a tracer is installed.
        let changed = { (pipeline: PipelineCase) -> Outcome in
            var outcome = PipelineRun.run(pipeline)
            if Tracing.isOn { outcome.events.append(.next(999, 7)) }
            return outcome
        }
        let found = Properties.violations(of: pipeline, traced: true, run: changed)
        #expect(found.contains { $0.hasPrefix("traced, the observer got ") && $0.contains("next(7) @ 999") })
        #expect(Properties.violations(of: pipeline, traced: true).isEmpty)
        #expect(
            Properties.sameOutput(
                traced: Outcome(events: [], subscriptions: [("s0", [Subscription(200, 300)])]),
                untraced: Outcome(events: [], subscriptions: [("s0", [Subscription(200)])])
            ).count == 1)
    }

    @Test func theModelFollowsRxSwiftsZipAndCombineLatest() {
        let a = SourceSpec(
            hot: true,
            events: [
                .init(time: 221, kind: .next(1)), .init(time: 241, kind: .next(2)), .init(time: 261, kind: .completed),
            ])
        let b = SourceSpec(hot: true, events: [.init(time: 232, kind: .next(10)), .init(time: 302, kind: .completed)])
        let zip = PipelineCase(sources: [a, b], ops: [.zip(source: 1)], disposeAt: 1019)
        // The unpaired 2 stays queued; zip completes when both sources have.
        #expect(Model.expected(zip)?.map(\.description) == [".next(232, 41)", ".completed(302)"])
        let short = SourceSpec(
            hot: true, events: [.init(time: 221, kind: .next(1)), .init(time: 231, kind: .completed)])
        let long = SourceSpec(
            hot: true,
            events: [
                .init(time: 232, kind: .next(10)), .init(time: 250, kind: .next(20)),
                .init(time: 302, kind: .completed),
            ])
        let unpairable = PipelineCase(sources: [short, long], ops: [.zip(source: 1)], disposeAt: 1019)
        // 20 at 250 can never be paired, yet zip of two sources waits for the second's completion.
        #expect(Model.expected(unpairable)?.map(\.description) == [".next(232, 41)", ".completed(302)"])
        let combine = PipelineCase(sources: [a, b], ops: [.combineLatest(source: 1)], disposeAt: 1019)
        #expect(Model.expected(combine)?.map(\.description) == [".next(232, 41)", ".next(241, 72)", ".completed(302)"])
        let silent = SourceSpec(hot: true, events: [.init(time: 222, kind: .completed)])
        let early = PipelineCase(sources: [a, silent], ops: [.combineLatest(source: 1)], disposeAt: 1019)
        // The other source completed without a value: the first value ends it.
        #expect(Model.expected(early)?.map(\.description) == [".completed(241)"])
    }

    @Test func theModelAgreesWithTheCoreOnAKnownCase() {
        let source = SourceSpec(
            hot: false,
            events: [
                .init(time: 21, kind: .next(3)), .init(time: 41, kind: .next(3)), .init(time: 61, kind: .completed),
            ])
        let pipeline = PipelineCase(
            sources: [source], ops: [.startWith([3]), .distinctUntilChanged, .scan(seed: 1)], disposeAt: 1019)
        #expect(Model.expected(pipeline)?.map(\.description) == [".next(200, 4)", ".completed(261)"])
        #expect(Properties.violations(of: pipeline, traced: true).isEmpty)
    }

    @Test func shrinkingKeepsOnlyWhatTheFailureNeeds() {
        var rng = SplitMix64(seed: 42)
        var pipeline = PipelineCase.generate(&rng)
        pipeline.ops += [.take(3), .map(multiplier: 2, offset: 5)]
        // A stand-in failure: "any pipeline with a take and a source value".
        let fails = { (c: PipelineCase) in
            c.ops.contains { if case .take = $0 { true } else { false } }
                && c.sources.contains { $0.events.contains { if case .next = $0.kind { true } else { false } } }
        }
        pipeline.sources[0].events.insert(.init(time: 21, kind: .next(7)), at: 0)
        let shrunk = Shrinker.shrink(pipeline, fails: fails)
        #expect(shrunk.ops == [.take(0)])
        #expect(shrunk.sources.count == 1)
        #expect(shrunk.sources[0].events.count == 1)
        #expect(shrunk.sources[0].events[0].kind == .next(0))
        #expect(shrunk.disposeAt == Shrinker.defaultDisposal)
        #expect(
            shrunk.swiftCode == """
                let scheduler = TestScheduler(initialClock: 0)
                let s0 = scheduler.createColdObservable([\(shrunk.sources[0].events[0].swift())])
                let result = scheduler.start(disposed: 1019) { () -> Observable<Int> in
                    let p1 = s0.asObservable().take(0)
                    return p1
                }
                """)
    }

    @Test func everyOperatorPrintsAsSwift() {
        let inner = InnerSpec(events: [.init(time: 10, kind: .next(1)), .init(time: 20, kind: .completed)])
        let pipeline = PipelineCase(
            sources: [
                SourceSpec(hot: true, events: [.init(time: 221, kind: .next(1)), .init(time: 241, kind: .error)]),
                SourceSpec(hot: false, events: [.init(time: 22, kind: .completed)]),
            ],
            ops: [.flatMap(inner), .share(replay: 1), .zip(source: 1)], disposeAt: 519)
        #expect(
            pipeline.swiftCode == """
                let scheduler = TestScheduler(initialClock: 0)
                let s0 = scheduler.createHotObservable([.next(221, 1), .error(241, opTestError)])
                let s1 = scheduler.createColdObservable([.completed(22)])
                let result = scheduler.start(disposed: 519) { () -> Observable<Int> in
                    let p1 = s0.asObservable().flatMap { x in \
                scheduler.createColdObservable([.next(10, x &+ 1), .completed(20)]) }
                    let p2s = p1.share(replay: 1)
                    let p2 = Observable.merge(p2s, p2s.skip(1))
                    let p3 = Observable.zip(p2, s1) { $0 &* 31 &+ $1 }
                    return p3
                }
                """)
    }
}
