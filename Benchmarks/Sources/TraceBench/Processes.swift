// Whole-process runs for measuring `RXTRACE` as users run it: the process is timed from outside
// (its CPU time, the trace writer's thread included), untraced and under `RXTRACE`, e.g.
//
//   /usr/bin/time -f '%U %S' .build/release/TraceBench --pipeline-child 1000000
//   RXTRACE=/tmp/trace.rxt /usr/bin/time -f '%U %S' .build/release/TraceBench --pipeline-child 1000000
//
//   --pipeline-child N  `create` → `map` → `filter` → `subscribe`, N elements, once
//   --cycles-child N    N subscribe + dispose cycles of `subject` → `map` → `filter` → `map` →
//                       `subscribe` (no element)

import Foundation
import RxCore

/// The count after `flag`, or `fallback`.
func countArgument(_ flag: String, _ fallback: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count,
        let count = Int(arguments[index + 1].replacingOccurrences(of: "_", with: ""))
    else { return fallback }
    return count
}

/// `create` → `map` → `filter` → `subscribe` of `count` elements; prints the sum.
func runPipelineChild(_ count: Int) {
    print(pipeline(count))
}

/// `count` subscribe + dispose cycles of `subject` → `map` → `filter` → `map` → `subscribe`.
func runCyclesChild(_ count: Int) {
    var sum = 0
    let subject = PublishSubject<Int>()
    for _ in 0..<count {
        let d = subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.map { $0 &* 2 }.subscribe(onNext: { sum &+= $0 })
        d.dispose()
    }
    subject.onNext(1)
    print(sum)
}
