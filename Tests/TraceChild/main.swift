// tracechild: a small traced program for the tests that kill one (Tests/rxtraceTests/KillTests).
//
//   RXTRACE=t.trace tracechild wait    records, prints "ready", then keeps emitting until killed
//   RXTRACE=t.trace tracechild crash   records, prints "ready", then calls fatalError
//   RXTRACE=t.trace tracechild run [N] [paced]
//                                      records N elements (default 1,000; paced: 100 every 10 ms),
//                                      prints "done", exits 0 (Tests/rxtraceTests/EnvironmentTests)
//
// One subscription is left open (alive when the program is stopped or ends); one finishes.

import Foundation
import RxCore

// As a program started from a terminal: SIGINT and SIGTERM at their default, not blocked (a
// test runner's background process may pass them on ignored or blocked). Before the first Rx
// object, where RXTRACE installs its handlers for signals left at their default.
signal(SIGINT, SIG_DFL)
signal(SIGTERM, SIG_DFL)
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)

let arguments = CommandLine.arguments.dropFirst()
let mode = arguments.first ?? "wait"
let count = arguments.dropFirst().first.map { Int($0) } ?? 1000
guard mode == "wait" || mode == "crash" || mode == "run", let count, count >= 0 else {
    FileHandle.standardError.write(Data("usage: tracechild wait|crash|run [COUNT]\n".utf8))
    exit(2)
}
let subject = PublishSubject<Int>()
let openSubscription = subject.map { $0 * 2 }.filter { $0 >= 0 }.subscribe(onNext: { _ in })
let finished = Observable.of(1, 2, 3).map { $0 + 1 }.subscribe(onNext: { _ in })
finished.dispose()
let paced = arguments.dropFirst(2).first == "paced"
for value in 0..<count {
    subject.onNext(value)
    if paced, value % 100 == 99 { Thread.sleep(forTimeInterval: 0.01) }
}
if mode == "run" {
    print("done")
    exit(0)
}
// The trace's writer writes at least every 250 ms: what came before is on disk now.
Thread.sleep(forTimeInterval: 0.6)
print("ready")
fflush(stdout)
_ = openSubscription
if mode == "crash" { fatalError("tracechild: crashing on purpose") }
while true {
    subject.onNext(1)
    Thread.sleep(forTimeInterval: 0.02)
}
