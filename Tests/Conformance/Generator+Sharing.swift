import RxSwift
import RxTest

/// `share`, `publish`, `replay`, `multicast`, `refCount` and `connect`.
extension Generator {
    /// A shared observable with a name of its own, put in the pool so that the pipeline may
    /// subscribe to it more than once, with observers that come and go.
    func shared(_ depth: Int) -> Piece<Obs> {
        let source = observable(depth - 1)
        let src = source.text
        let p = source.value
        let r = rng.pick([0, 0, 1, 1, 2])
        let v = value()
        let (text, value): (String, Obs) = oneOf([
            (4, { ("\(src).share(replay: \(r))", p.share(replay: r)) }),
            (2, { ("\(src).share(replay: \(r), scope: .forever)", p.share(replay: r, scope: .forever)) }),
            (2, { ("\(src).publish().refCount()", p.publish().refCount()) }),
            (2, { ("\(src).replay(\(r + 1)).refCount()", p.replay(r + 1).refCount()) }),
            (1, { ("\(src).replayAll().refCount()", p.replayAll().refCount()) }),
            (
                1,
                {
                    (
                        "\(src).multicast(BehaviorSubject(\(v))).refCount()",
                        p.multicast(BehaviorSubject(value: v)).refCount()
                    )
                }
            ),
            (
                1,
                {
                    (
                        "\(src).multicast(makeSubject: { ReplaySubject(bufferSize: 1) }).refCount()",
                        p.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 1) }).refCount()
                    )
                }
            ),
            (2, { self.connected("\(src).publish()", p.publish()) }),
            (2, { self.connected("\(src).replay(\(r + 1))", p.replay(r + 1)) }),
            (1, { self.connected("\(src).multicast(PublishSubject())", p.multicast(PublishSubject<Int>())) }),
            (
                1,
                {
                    self.connected(
                        "\(src).multicast(makeSubject: { BehaviorSubject(\(v)) })",
                        p.multicast(makeSubject: { BehaviorSubject(value: v) }))
                }
            ),
        ])
        let name = run.name("shared")
        run.lines.append("\(name) = \(text)")
        let piece = Piece(name, value)
        pool.append(piece)
        sideObservers(piece)
        return piece
    }

    /// A connectable observable connected at a chosen time and disconnected later, once or twice.
    func connected<C: ConnectableObservableType>(_ text: String, _ connectable: C) -> (String, Obs)
    where C.Element == Int {
        var times: [(Int, Int)] = []
        var start = time()
        for _ in 0..<rng.pick([1, 1, 2]) {
            let end = start + rng.pick([20, 100, 300, 600])
            times.append((start, end))
            start = end + rng.pick([0, 10, 100])
        }
        for (connect, disconnect) in times {
            var connection: Disposable?
            scheduler.scheduleAt(connect) { connection = connectable.connect() }
            scheduler.scheduleAt(disconnect) { connection?.dispose() }
        }
        let schedule = times.map { "connect at \($0.0), dispose at \($0.1)" }.joined(separator: ", ")
        return ("\(text) (\(schedule))", connectable.asObservable())
    }

    /// Sharing inside a chain: the shared result is subscribed twice by what follows.
    func sharing(_ p: Piece<Obs>, _ depth: Int) -> Piece<Obs> {
        let r = rng.pick([0, 1])
        let (shareText, shared): (String, Obs) = oneOf([
            (3, { ("\(p.text).share(replay: \(r))", p.value.share(replay: r)) }),
            (1, { ("\(p.text).publish().refCount()", p.value.publish().refCount()) }),
            (1, { ("\(p.text).replay(1).refCount()", p.value.replay(1).refCount()) }),
        ])
        let k = value()
        let selectorText = rng.pick(["merge", "zip", "concat", "combineLatest"])
        func twice(_ s: Obs) -> Obs {
            switch selectorText {
            case "merge": Obs.merge(s, s.map { $0 &* k })
            case "zip": Obs.zip(s, s.skip(1)) { mix($0, $1) }
            case "concat": s.take(1).concat(s)
            default: Obs.combineLatest(s, s.filter { $0 > k }) { mix($0, $1) }
            }
        }
        let twiceText: String =
            switch selectorText {
            case "merge": "merge(s, s.map { $0 * \(k) })"
            case "zip": "zip(s, s.skip(1), mix)"
            case "concat": "s.take(1).concat(s)"
            default: "combineLatest(s, s.filter { $0 > \(k) }, mix)"
            }
        return oneOf([
            (3, { Piece("{ s in \(twiceText) }(\(shareText))", twice(shared)) }),
            (
                1,
                {
                    Piece(
                        "\(p.text).multicast({ PublishSubject() }, selector: { s in \(twiceText) })",
                        p.value.multicast({ PublishSubject<Int>() }, selector: twice))
                }
            ),
            (
                1,
                {
                    Piece(
                        "\(p.text).multicast({ ReplaySubject(bufferSize: 1) }, selector: { s in \(twiceText) })",
                        p.value.multicast({ ReplaySubject<Int>.create(bufferSize: 1) }, selector: twice))
                }
            ),
        ])
    }
}
