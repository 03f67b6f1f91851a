import RxCore
import RxTesting
import XCTest

/// Fails when the two lists of `SingleEvent`s differ, naming the first index where they do.
///
/// XCTest's own `XCTAssertEqual` needs `Equatable` values; a `SingleEvent` is a `Result`
/// whose failure is any `Error`, so RxTest adds this overload (and so does this module).
///
/// ```swift
/// var events: [SingleEvent<Int>] = []
/// _ = Single.just(1).subscribe { events.append($0) }
/// XCTAssertEqual(events, [.success(1)])
/// ```
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>], file: StaticString = #filePath, line: UInt = #line
) {
    if lhs == rhs { return }
    XCTFail("XCTAssertEqual failed: \(describeDifference(lhs, rhs, ==))", file: file, line: line)
}

/// Fails unless `stream` holds only `next` events, whose elements are `elements` (times are
/// not compared).
///
/// ```swift
/// XCTAssertRecordedElements(observer.events, [1, 2, 3])
/// ```
public func XCTAssertRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath, line: UInt = #line
) {
    if let stop = stream.first(where: { $0.value.isStopEvent }) {
        XCTFail("a stop event was recorded: \(stop.value) @ \(stop.time)", file: file, line: line)
        return
    }
    let recorded = stream.compactMap { $0.value.element }
    if recorded == elements { return }
    XCTFail("XCTAssertRecordedElements failed: \(describeDifference(recorded, elements, ==))", file: file, line: line)
}

/// `("[a, b]" is not equal to "[a, c]"): first difference at index 1`.
private func describeDifference<T>(_ lhs: [T], _ rhs: [T], _ equal: (T, T) -> Bool) -> String {
    let common = min(lhs.count, rhs.count)
    let index = (0..<common).first { !equal(lhs[$0], rhs[$0]) } ?? common
    return "(\"\(lhs)\") is not equal to (\"\(rhs)\"): first difference at index \(index)"
}
