import RxTrace
import Testing

/// Runs `body` and checks that every core object it made is gone afterwards.
func checkingNoLeaks<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) rethrows -> T {
    let before = Resources.total
    let result = try body()
    #expect(
        Resources.total == before, "leaked \(Resources.total - before) core objects", sourceLocation: sourceLocation)
    return result
}
