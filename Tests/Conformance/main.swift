// conformance: random pipelines on RxTest's virtual time, printed as canonical text.
//
//   conformance [--seed S] [--count N] [--focused M] [--only ID]
//
// Pipeline gN (N < count) and fN (N < focused, pipelines that favour time operators, sharing,
// retry and zip) are built from seed S alone, so that the same file, compiled against RxSwift
// and against RxAnatomy's drop-in modules, builds the same pipelines and prints what each
// implementation did with them. It imports RxSwift, RxRelay and RxTest, and uses only their
// public API (docs/reliability.md says how the two outputs are compared).
//
// Each pipeline prints a header line `== ID`, the lines that describe it, then its outcome, each
// line starting with "> ": the events every observer recorded with their virtual times, the
// subscription ranges of every testable observable, and a log, in order, of what the pipeline's
// closures and observers saw (so the order of things at one virtual time shows). The
// description is written before the pipeline runs: a pipeline that hangs or crashes is the last
// one printed.

import Foundation
import RxSwift
import RxTest

struct Options {
    var seed: UInt64 = 2026
    var count = 4000
    var focused = 600
    var only: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw Usage(message: "\(flag) needs a value") }
            switch flag {
            case "--seed": seed = try Self.number(flag, value)
            case "--count": count = Int(try Self.number(flag, value))
            case "--focused": focused = Int(try Self.number(flag, value))
            case "--only": only = value
            default: throw Usage(message: "unknown option \(flag)")
            }
        }
    }

    static func number(_ flag: String, _ text: String) throws -> UInt64 {
        guard let n = UInt64(text), n <= 1 << 40 else { throw Usage(message: "\(flag) wants a number, not \(text)") }
        return n
    }

    /// Every pipeline to run, in order: its id, its generator, whether it is focused.
    var pipelines: [(id: String, rng: SplitMix64, focused: Bool)] {
        let all =
            (0..<count).map { ("g\($0)", SplitMix64(seed: seed, index: UInt64($0)), false) }
            + (0..<focused).map { ("f\($0)", SplitMix64(seed: seed, index: UInt64($0) | 1 << 41), true) }
        guard let only else { return all }
        if let n = Int(only.dropFirst()), only.first == "g" {
            return [(only, SplitMix64(seed: seed, index: UInt64(n)), false)]
        }
        if let n = Int(only.dropFirst()), only.first == "f" {
            return [(only, SplitMix64(seed: seed, index: UInt64(n) | 1 << 41), true)]
        }
        return []
    }
}

struct Usage: Error {
    let message: String
}

/// Builds one pipeline and writes its description, then runs it and writes its outcome.
func runPipeline(id: String, rng: SplitMix64, focused: Bool) {
    var rng = rng
    let simulate = rng.below(8) != 0
    let run = Run(simulateProcessingDelay: simulate)
    let generator = Generator(rng: rng, run: run, focused: focused)
    let main = generator.observable(3)
    let scheduler = run.scheduler
    // The main observer's events go to the log too, so that their order among the pipeline's
    // side effects at one virtual time shows.
    let log = run.log
    let observed = main.value.do(
        onNext: { log.note("main", "n\($0)") }, onError: { log.note("main", "e(\(Run.text($0)))") },
        onCompleted: { log.note("main", "c") })
    // Past every scheduled action; a pipeline still running then (a periodic timer someone
    // kept) stops there, the same in both builds.
    scheduler.scheduleAt(3000) { scheduler.stop() }
    let disposed = generator.rng.pick([300, 400, 500, 700, 1000])
    let created = generator.rng.pick([0, 50, 100, 100])
    let subscribed = generator.rng.pick([0, 5, 100, 100])
    let subscribedAt = generator.rng.pick([0, 150, 200, 205])
    let form = generator.rng.below(10)
    let how: String =
        switch form {
        case 0..<4: "scheduler.start(disposed: \(disposed))"
        case 4..<6: "scheduler.start()"
        case 6..<8: "scheduler.start(created: \(created), subscribed: \(created + subscribed), disposed: \(disposed))"
        default: "subscribed at \(subscribedAt) with scheduleAt, disposed at \(disposed)"
        }
    var text = "== \(id)\n"
    for line in run.lines { text += line + "\n" }
    text += "main = \(main.text)\n"
    text += "run: \(how)\(simulate ? "" : ", simulateProcessingDelay: false")\n"
    write(text)

    let observer: TestableObserver<Int>
    switch form {
    case 0..<4:
        observer = scheduler.start(disposed: disposed) { observed }
    case 4..<6:
        observer = scheduler.start { observed }
    case 6..<8:
        observer = scheduler.start(created: created, subscribed: created + subscribed, disposed: disposed) { observed }
    default:
        observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(subscribedAt) { subscription = observed.subscribe(observer) }
        scheduler.scheduleAt(disposed) { subscription?.dispose() }
        scheduler.start()
    }
    var outcome = "> main: \(Run.text(observer.events))\n"
    for line in run.outcome() { outcome += "> \(line)\n" }
    write(outcome)
}

func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let pipelines = options.pipelines
    if pipelines.isEmpty { throw Usage(message: "no pipeline \(options.only ?? "")") }
    if options.only == nil {
        write("# conformance --seed \(options.seed) --count \(options.count) --focused \(options.focused)\n")
    }
    for pipeline in pipelines {
        runPipeline(id: pipeline.id, rng: pipeline.rng, focused: pipeline.focused)
    }
} catch let usage as Usage {
    FileHandle.standardError.write(Data("conformance: \(usage.message)\n".utf8))
    exit(2)
}
