// tracechild: a small traced program for the tests that kill one (Tests/rxtraceTests/KillTests).
//
//   RXTRACE=t.trace tracechild wait    records, prints "ready", then keeps emitting until killed
//   RXTRACE=t.trace tracechild crash   records, prints "ready", then calls fatalError
//
// One subscription is left open (alive when the program is stopped); one finishes.

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

let mode = CommandLine.arguments.dropFirst().first ?? "wait"
guard mode == "wait" || mode == "crash" else {
    FileHandle.standardError.write(Data("usage: tracechild wait|crash\n".utf8))
    exit(2)
}
let subject = PublishSubject<Int>()
let openSubscription = subject.map { $0 * 2 }.filter { $0 >= 0 }.subscribe(onNext: { _ in })
let finished = Observable.of(1, 2, 3).map { $0 + 1 }.subscribe(onNext: { _ in })
finished.dispose()
for value in 0..<1000 { subject.onNext(value) }
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
