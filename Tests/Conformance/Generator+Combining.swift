import RxSwift

/// Operators of several sources: `zip` and `combineLatest` of 2 to 8 and of collections,
/// `merge`, `concat`, `amb`, `catch(sequence:)`.
extension Generator {
    func combining(_ depth: Int) -> Piece<Obs> {
        let arity = rng.pick([2, 2, 2, 3, 3, 4, 5, 6, 7, 8])
        // Wide ones take leaves, so that a pipeline stays small.
        let sources = (0..<arity).map { _ in observable(arity <= 3 ? depth - 1 : 0) }
        let values = sources.map(\.value)
        let list = sources.map(\.text).joined(separator: ", ")
        let tuple = rng.chance(40)
        return oneOf([
            (
                w(5, 10),
                {
                    Piece(
                        "Observable.zip(\(list))" + (tuple ? ".map(mix)" : " { mix }"),
                        zipped(values, tuple: tuple))
                }
            ),
            (
                w(5, 5),
                {
                    Piece(
                        "Observable.combineLatest(\(list))" + (tuple ? ".map(mix)" : " { mix }"),
                        combinedLatest(values, tuple: tuple))
                }
            ),
            (w(2, 4), { zipCollection(values, list, tuple: tuple) }),
            (2, { combineLatestCollection(values, list, tuple: tuple) }),
            (
                4,
                {
                    self.oneOf([
                        (2, { Piece("Observable.merge([\(list)])", Obs.merge(values)) }),
                        (arity <= 4 ? 1 : 0, { Piece("Observable.merge(\(list))", merged(values)) }),
                        (1, { Piece("Observable.from([\(list)]).merge()", Observable.from(values).merge()) }),
                        (
                            1,
                            {
                                let n = self.rng.int(1...2)
                                return Piece(
                                    "Observable.from([\(list)]).merge(maxConcurrent: \(n))",
                                    Observable.from(values).merge(maxConcurrent: n))
                            }
                        ),
                    ])
                }
            ),
            (
                3,
                {
                    self.oneOf([
                        (2, { Piece("Observable.concat([\(list)])", Obs.concat(values)) }),
                        (arity <= 4 ? 1 : 0, { Piece("Observable.concat(\(list))", concatenated(values)) }),
                        (1, { Piece("Observable.from([\(list)]).concat()", Observable.from(values).concat()) }),
                    ])
                }
            ),
            (w(2, 4), { Piece("Observable.amb([\(list)])", Obs.amb(values)) }),
            (1, { Piece("Observable.catch(sequence: [\(list)])", Obs.catch(sequence: values)) }),
        ])
    }
}

// MARK: - Each arity, as written in a program

func zipCollection(_ values: [Obs], _ list: String, tuple: Bool) -> Piece<Obs> {
    if tuple { return Piece("Observable.zip([\(list)]).map(mix)", Obs.zip(values).map(mix)) }
    return Piece("Observable.zip([\(list)], mix)", Obs.zip(values, resultSelector: mix))
}

func combineLatestCollection(_ values: [Obs], _ list: String, tuple: Bool) -> Piece<Obs> {
    if tuple { return Piece("Observable.combineLatest([\(list)]).map(mix)", Obs.combineLatest(values).map(mix)) }
    return Piece("Observable.combineLatest([\(list)], mix)", Obs.combineLatest(values, resultSelector: mix))
}

/// `Observable.zip` of 2 to 8 sources, with a result selector or as tuples mapped to one value.
func zipped(_ s: [Obs], tuple: Bool) -> Obs {
    switch (s.count, tuple) {
    case (2, false): Observable.zip(s[0], s[1]) { mix($0, $1) }
    case (2, true): Observable.zip(s[0], s[1]).map { mix($0.0, $0.1) }
    case (3, false): Observable.zip(s[0], s[1], s[2]) { mix($0, $1, $2) }
    case (3, true): Observable.zip(s[0], s[1], s[2]).map { mix($0.0, $0.1, $0.2) }
    case (4, false): Observable.zip(s[0], s[1], s[2], s[3]) { mix($0, $1, $2, $3) }
    case (4, true): Observable.zip(s[0], s[1], s[2], s[3]).map { mix($0.0, $0.1, $0.2, $0.3) }
    case (5, false): Observable.zip(s[0], s[1], s[2], s[3], s[4]) { mix($0, $1, $2, $3, $4) }
    case (5, true): Observable.zip(s[0], s[1], s[2], s[3], s[4]).map { mix($0.0, $0.1, $0.2, $0.3, $0.4) }
    case (6, false): Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { mix($0, $1, $2, $3, $4, $5) }
    case (6, true): Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) }
    case (7, false): Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { mix($0, $1, $2, $3, $4, $5, $6) }
    case (7, true):
        Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6) }
    case (8, false):
        Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { mix($0, $1, $2, $3, $4, $5, $6, $7) }
    case (8, true):
        Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map {
            mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7)
        }
    default: fatalError("zip of \(s.count)")
    }
}

/// `Observable.combineLatest` of 2 to 8 sources, as `zipped`.
func combinedLatest(_ s: [Obs], tuple: Bool) -> Obs {
    switch (s.count, tuple) {
    case (2, false): Observable.combineLatest(s[0], s[1]) { mix($0, $1) }
    case (2, true): Observable.combineLatest(s[0], s[1]).map { mix($0.0, $0.1) }
    case (3, false): Observable.combineLatest(s[0], s[1], s[2]) { mix($0, $1, $2) }
    case (3, true): Observable.combineLatest(s[0], s[1], s[2]).map { mix($0.0, $0.1, $0.2) }
    case (4, false): Observable.combineLatest(s[0], s[1], s[2], s[3]) { mix($0, $1, $2, $3) }
    case (4, true): Observable.combineLatest(s[0], s[1], s[2], s[3]).map { mix($0.0, $0.1, $0.2, $0.3) }
    case (5, false): Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { mix($0, $1, $2, $3, $4) }
    case (5, true): Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]).map { mix($0.0, $0.1, $0.2, $0.3, $0.4) }
    case (6, false): Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { mix($0, $1, $2, $3, $4, $5) }
    case (6, true):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map { mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) }
    case (7, false):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { mix($0, $1, $2, $3, $4, $5, $6) }
    case (7, true):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map {
            mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6)
        }
    case (8, false):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { mix($0, $1, $2, $3, $4, $5, $6, $7) }
    case (8, true):
        Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map {
            mix($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7)
        }
    default: fatalError("combineLatest of \(s.count)")
    }
}

/// The variadic `Observable.merge(a, b, …)`.
func merged(_ s: [Obs]) -> Obs {
    switch s.count {
    case 2: Obs.merge(s[0], s[1])
    case 3: Obs.merge(s[0], s[1], s[2])
    case 4: Obs.merge(s[0], s[1], s[2], s[3])
    default: fatalError("merge of \(s.count)")
    }
}

/// The variadic `Observable.concat(a, b, …)`.
func concatenated(_ s: [Obs]) -> Obs {
    switch s.count {
    case 2: Obs.concat(s[0], s[1])
    case 3: Obs.concat(s[0], s[1], s[2])
    case 4: Obs.concat(s[0], s[1], s[2], s[3])
    default: fatalError("concat of \(s.count)")
    }
}
