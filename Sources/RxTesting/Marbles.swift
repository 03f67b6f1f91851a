import Foundation
import RxCore
import Testing

/// Marble diagrams: a sequence drawn as a string, one character per frame.
///
/// ```
/// "--a--b--|"      a at frame 2, b at frame 5, completed at frame 8
/// "--a--#"         error at frame 5
/// "-a-^-b-|"       hot observable: ^ is frame 0 (the subscription), a is at frame -2
/// "--(ab|)--"      a, b and completed all at frame 2; the group takes one frame
/// ```
///
/// - `-` one frame with nothing in it. A frame is `ticksPerFrame` ticks (10 by default, so
///   `"-a"` is `next(a)` at 10 ticks after frame zero).
/// - any other letter or digit: a `next` whose element is `values[character]` (with no
///   dictionary, for `String` elements, the character itself).
/// - `|` completed, `#` error (the `error` given, `MarbleError()` by default).
/// - `^` the subscription point of a hot observable: frame zero. Without it, frame zero is the
///   first character.
/// - `(…)` a group: everything inside happens at the same time; the group takes one frame.
/// - spaces are ignored, so diagrams can be aligned.
///
/// Frame zero is put at a virtual time `zero`: the subscription time (`200`) for hot observables
/// with `^` and for expectations, `0` for cold observables (their times are offsets).
public enum Marbles {
    /// The recorded events a marble string stands for.
    ///
    /// - Throws: `MarbleSyntaxError` for an unknown value, an unclosed or nested group, or more
    ///   than one `^`.
    public static func events<Element>(
        _ marbles: String,
        values: [Character: Element],
        error: Swift.Error = MarbleError(),
        ticksPerFrame: Int = 10,
        zero: TestTime = 0
    ) throws -> [Recorded<Event<Element>>] {
        let chars = Array(marbles.filter { !$0.isWhitespace })
        // Frame of each character; ^ sets frame zero.
        var frames: [(frame: Int, char: Character)] = []
        var frame = 0
        var caretFrame: Int?
        var groupFrame: Int?
        for char in chars {
            switch char {
            case "(":
                if groupFrame != nil { throw MarbleSyntaxError("nested group in \"\(marbles)\"") }
                groupFrame = frame
            case ")":
                if groupFrame == nil { throw MarbleSyntaxError("unmatched ) in \"\(marbles)\"") }
                groupFrame = nil
                frame += 1
            case "^":
                if caretFrame != nil { throw MarbleSyntaxError("more than one ^ in \"\(marbles)\"") }
                if groupFrame != nil { throw MarbleSyntaxError("^ inside a group in \"\(marbles)\"") }
                caretFrame = frame
                frame += 1
            default:
                frames.append((groupFrame ?? frame, char))
                if groupFrame == nil { frame += 1 }
            }
        }
        if groupFrame != nil { throw MarbleSyntaxError("unclosed group in \"\(marbles)\"") }
        let origin = caretFrame ?? 0
        var result: [Recorded<Event<Element>>] = []
        for (frame, char) in frames {
            let time = zero + (frame - origin) * ticksPerFrame
            switch char {
            case "-": continue
            case "|": result.append(Recorded(time: time, value: .completed))
            case "#": result.append(Recorded(time: time, value: .error(error)))
            default:
                guard let value = values[char] else {
                    throw MarbleSyntaxError("no value for '\(char)' in \"\(marbles)\"")
                }
                result.append(Recorded(time: time, value: .next(value)))
            }
        }
        return result
    }

    /// `events` for `String` elements, each letter standing for itself.
    public static func events(
        _ marbles: String,
        error: Swift.Error = MarbleError(),
        ticksPerFrame: Int = 10,
        zero: TestTime = 0
    ) throws -> [Recorded<Event<String>>] {
        try events(marbles, values: letterValues(marbles), error: error, ticksPerFrame: ticksPerFrame, zero: zero)
    }

    /// The marble string of `events`: the inverse of `events(_:values:…)` when every time falls
    /// on a frame. An element with no key in `values` is drawn `?`; an event between frames is
    /// drawn in the frame before it. Events before `zero` put a `^` at frame zero.
    public static func string<Element: Equatable>(
        _ events: [Recorded<Event<Element>>],
        values: [Character: Element],
        ticksPerFrame: Int = 10,
        zero: TestTime = 0
    ) -> String {
        let keys = values.keys.sorted()
        func symbol(_ event: Event<Element>) -> Character {
            switch event {
            case .completed: return "|"
            case .error: return "#"
            case .next(let element): return keys.first { values[$0] == element } ?? "?"
            }
        }
        func frameOf(_ time: TestTime) -> Int {
            let offset = time - zero
            return offset >= 0 ? offset / ticksPerFrame : -((-offset + ticksPerFrame - 1) / ticksPerFrame)
        }
        var byFrame: [Int: [Character]] = [:]
        for event in events { byFrame[frameOf(event.time), default: []].append(symbol(event.value)) }
        let first = min(byFrame.keys.min() ?? 0, 0)
        let last = byFrame.keys.max() ?? -1
        var out = ""
        var frame = first
        while frame <= last {
            if let symbols = byFrame[frame] {
                out += symbols.count == 1 ? String(symbols[0]) : "(" + String(symbols) + ")"
            } else if frame == 0 && first < 0 {
                out += "^"
            } else {
                out += "-"
            }
            frame += 1
        }
        return out
    }

    /// `string` for `String` elements of one character.
    public static func string(
        _ events: [Recorded<Event<String>>], ticksPerFrame: Int = 10, zero: TestTime = 0
    ) -> String {
        var values: [Character: String] = [:]
        for case .next(let element) in events.map(\.value) where element.count == 1 { values[element.first!] = element }
        return string(events, values: values, ticksPerFrame: ticksPerFrame, zero: zero)
    }

    /// A readable account of how `actual` differs from `expected`, or nil when they are equal:
    ///
    /// ```
    /// expected: --a--b--|
    /// actual:   --a--c--|
    ///                ^ first difference at column 5
    /// - next(b) @ 250
    /// + next(c) @ 250
    /// ```
    public static func diff<Element: Equatable>(
        expected: [Recorded<Event<Element>>],
        actual: [Recorded<Event<Element>>],
        values: [Character: Element],
        ticksPerFrame: Int = 10,
        zero: TestTime = 0
    ) -> String? {
        if expected == actual { return nil }
        let e = string(expected, values: values, ticksPerFrame: ticksPerFrame, zero: zero)
        let a = string(actual, values: values, ticksPerFrame: ticksPerFrame, zero: zero)
        var lines = ["expected: \(e)", "actual:   \(a)"]
        let ec = Array(e), ac = Array(a)
        if let column = (0..<min(ec.count, ac.count)).first(where: { ec[$0] != ac[$0] })
            ?? (ec.count != ac.count ? min(ec.count, ac.count) : nil)
        {
            lines.append(String(repeating: " ", count: 10 + column) + "^ first difference at column \(column)")
        }
        // The events only one side has, in time order (a multiset difference).
        var missing = expected, extra: [Recorded<Event<Element>>] = []
        for event in actual {
            if let index = missing.firstIndex(of: event) { missing.remove(at: index) } else { extra.append(event) }
        }
        var changes: [(TestTime, Int, String)] = []
        for event in missing { changes.append((event.time, 0, "- \(event.value) @ \(event.time)")) }
        for event in extra { changes.append((event.time, 1, "+ \(event.value) @ \(event.time)")) }
        if changes.isEmpty { lines.append("same events in a different order") }
        lines += changes.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
        return lines.joined(separator: "\n")
    }
}

/// The error `#` stands for when no other is given.
public struct MarbleError: Error, Equatable, CustomStringConvertible {
    public let name: String
    public init(_ name: String = "error") { self.name = name }
    public var description: String { "MarbleError(\(name))" }
}

/// A marble string that cannot be read.
public struct MarbleSyntaxError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Inputs

extension TestScheduler {
    /// A hot observable drawn as marbles. `^` marks frame zero, put at the default subscription
    /// time (200); without `^`, the first character is time 0.
    ///
    /// ```swift
    /// let xs = scheduler.createHotObservable("-a-^-b-c-|", values: ["a": 1, "b": 2, "c": 3])
    /// // next(1) @ 180, next(2) @ 210, next(3) @ 230, completed @ 250
    /// ```
    public func createHotObservable<Element>(
        _ marbles: String,
        values: [Character: Element],
        error: Swift.Error = MarbleError(),
        ticksPerFrame: Int = 10,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> TestableObservable<Element> {
        let zero = marbles.contains("^") ? Defaults.subscribed : 0
        return createHotObservable(
            parseMarbles(
                marbles, values: values, error: error, ticksPerFrame: ticksPerFrame, zero: zero,
                SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)))
    }

    /// A cold observable drawn as marbles; the first character is the subscription time.
    public func createColdObservable<Element>(
        _ marbles: String,
        values: [Character: Element],
        error: Swift.Error = MarbleError(),
        ticksPerFrame: Int = 10,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> TestableObservable<Element> {
        createColdObservable(
            parseMarbles(
                marbles, values: values, error: error, ticksPerFrame: ticksPerFrame, zero: 0,
                SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)))
    }

    /// A hot observable of one-letter strings drawn as marbles.
    public func createHotObservable(
        _ marbles: String, error: Swift.Error = MarbleError(), ticksPerFrame: Int = 10, fileID: String = #fileID,
        filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> TestableObservable<String> {
        createHotObservable(
            marbles, values: letterValues(marbles), error: error, ticksPerFrame: ticksPerFrame, fileID: fileID,
            filePath: filePath, line: line, column: column)
    }

    /// A cold observable of one-letter strings drawn as marbles.
    public func createColdObservable(
        _ marbles: String, error: Swift.Error = MarbleError(), ticksPerFrame: Int = 10, fileID: String = #fileID,
        filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> TestableObservable<String> {
        createColdObservable(
            marbles, values: letterValues(marbles), error: error, ticksPerFrame: ticksPerFrame, fileID: fileID,
            filePath: filePath, line: line, column: column)
    }

    private func parseMarbles<Element>(
        _ marbles: String, values: [Character: Element], error: Swift.Error, ticksPerFrame: Int, zero: TestTime,
        _ sourceLocation: SourceLocation
    ) -> [Recorded<Event<Element>>] {
        do {
            return try Marbles.events(marbles, values: values, error: error, ticksPerFrame: ticksPerFrame, zero: zero)
        } catch {
            reportMarbleError(error, sourceLocation)
            return []
        }
    }
}

/// A diagram that cannot be read: a test issue in a test, a message on standard error elsewhere.
func reportMarbleError(_ error: Swift.Error, _ sourceLocation: SourceLocation) {
    if Test.current == nil {
        FileHandle.standardError.write(Data("\(sourceLocation): \(error)\n".utf8))
    }
    Issue.record(error, sourceLocation: sourceLocation)
}

/// Each letter of a diagram standing for itself.
func letterValues(_ marbles: String) -> [Character: String] {
    var values: [Character: String] = [:]
    for char in marbles where !"-|#^()".contains(char) && !char.isWhitespace { values[char] = String(char) }
    return values
}

// MARK: - Expectations

extension TestableObserver where Element: Equatable {
    /// The recorded events as marbles, frame zero at the subscription time (200 by default).
    public func marbles(
        values: [Character: Element], ticksPerFrame: Int = 10, zero: TestTime = TestScheduler.Defaults.subscribed
    ) -> String {
        Marbles.string(events, values: values, ticksPerFrame: ticksPerFrame, zero: zero)
    }
}

/// Expects `observer` to have recorded the events drawn in `expected` (frame zero at the
/// subscription time, 200 by default); otherwise records an issue with a marble diff.
///
/// ```swift
/// let res = scheduler.start { xs.map { $0 * 10 } }
/// expectMarbles(res, "-a-b-|", values: ["a": 10, "b": 20])
/// ```
@discardableResult
public func expectMarbles<Element: Equatable>(
    _ observer: TestableObserver<Element>,
    _ expected: String,
    values: [Character: Element],
    error: Swift.Error = MarbleError(),
    ticksPerFrame: Int = 10,
    zero: TestTime = TestScheduler.Defaults.subscribed,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> Bool {
    expectMarbles(
        observer.events, expected, values: values, error: error, ticksPerFrame: ticksPerFrame, zero: zero,
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// `expectMarbles` for one-letter `String` elements.
@discardableResult
public func expectMarbles(
    _ observer: TestableObserver<String>,
    _ expected: String,
    error: Swift.Error = MarbleError(),
    ticksPerFrame: Int = 10,
    zero: TestTime = TestScheduler.Defaults.subscribed,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> Bool {
    var values = letterValues(expected)
    for case .next(let element) in observer.events.map(\.value) where element.count == 1 {
        values[element.first!] = element
    }
    return expectMarbles(
        observer.events, expected, values: values, error: error, ticksPerFrame: ticksPerFrame, zero: zero,
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// `expectMarbles` for recorded events (a subscription's, a hot observable's…).
@discardableResult
public func expectMarbles<Element: Equatable>(
    _ actual: [Recorded<Event<Element>>],
    _ expected: String,
    values: [Character: Element],
    error: Swift.Error = MarbleError(),
    ticksPerFrame: Int = 10,
    zero: TestTime = TestScheduler.Defaults.subscribed,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> Bool {
    let wanted: [Recorded<Event<Element>>]
    do {
        wanted = try Marbles.events(expected, values: values, error: error, ticksPerFrame: ticksPerFrame, zero: zero)
    } catch {
        Issue.record(
            error, sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return false
    }
    guard
        let diff = Marbles.diff(
            expected: wanted, actual: actual, values: values, ticksPerFrame: ticksPerFrame, zero: zero)
    else {
        return true
    }
    Issue.record(
        Comment(rawValue: "marbles differ:\n" + diff),
        sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    return false
}
