import CMallocInfo
// What one subscription costs, in heap bytes (`live N`) and, under callgrind, in instructions
// (`cycle N`: subscribe + dispose; `elem N`, `create N`: per element; `flat N`: per `just` inner).
// Run each under callgrind twice (N and 3N) and divide the difference by 2N: start-up cancels out.
import Glibc
import RxCore

let args = CommandLine.arguments
let mode = args.count > 1 ? args[1] : "live"
let n = args.count > 2 ? Int(args[2])! : 10_000

var total = 0
switch mode {
case "live":
    // Bytes and blocks per live subscription of subject.map.filter.map.subscribe.
    let subject = PublishSubject<Int>()
    let chain = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.map { $0 * 3 }
    var keep: [Disposable] = []
    keep.reserveCapacity(n)
    // Warm up: the second subscription makes map's and filter's kept runners.
    for _ in 0..<3 { chain.subscribe(onNext: { total &+= $0 }).dispose() }
    let before = probe_bytes_in_use()
    for _ in 0..<n { keep.append(chain.subscribe(onNext: { total &+= $0 })) }
    let after = probe_bytes_in_use()
    print("live bytes per subscription (malloc chunks):", Double(Int(after) - Int(before)) / Double(n))
    if args.count > 3 { exit(0) } // exit with them live: valgrind counts the blocks in use
    for d in keep { d.dispose() }
case "cycle":
    let subject = PublishSubject<Int>()
    let chain = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.map { $0 * 3 }
    for _ in 0..<n { chain.subscribe(onNext: { total &+= $0 }).dispose() }
case "elem":
    let subject = PublishSubject<Int>()
    let d = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.subscribe(onNext: { total &+= $0 })
    for i in 0..<n { subject.onNext(i) }
    d.dispose()
case "create":
    let d = Observable<Int>.create { o in
        for i in 0..<n { o.onNext(i) }
        o.onCompleted()
        return Disposables.create()
    }.map { $0 + 1 }.filter { $0 % 2 == 0 }.subscribe(onNext: { total &+= $0 })
    d.dispose()
case "flat":
    let d = Observable<Int>.create { o in
        for i in 0..<n { o.onNext(i) }
        o.onCompleted()
        return Disposables.create()
    }.flatMap { Observable.just($0) }.subscribe(onNext: { total &+= $0 })
    d.dispose()
default: fatalError(mode)
}
if total == 42 { print(total) }
