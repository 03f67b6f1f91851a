import Foundation
import RxCore

/// Runs one example of a chapter under a header, as the documents' playground `SupportCode.swift`
/// does (003, "SupportCode"):
///
/// ```swift
/// example("just") {
///     _ = Observable.just(32).subscribe { print($0) }
/// }
/// // (blank line)
/// // --- just example ---
/// // next(32)
/// // completed
/// ```
///
/// With `draw: true` the example is one of the chapter's main examples: when the chapter runs
/// with `--diagrams DIR`, its trace and diagrams are written under `DIR` (see `Diagrams`).
///
/// Under `--answers` the examples are skipped: the chapter prints its exercises' answers only.
public func example(_ description: String, draw: Bool = false, action: () -> Void) {
    Workbook.start()
    if Workbook.printsAnswers { return }
    print("\n--- \(description) example ---")
    if draw, Diagrams.isEnabled {
        Diagrams.record(description, action)
    } else {
        action()
    }
}

/// One "predict the output" exercise at the end of a chapter. Its code is printed in the
/// chapter's README (README.md and README.zh.md) without its output; `chapterNN --answers`
/// (`make chapter N=NN ARGS=--answers`) runs the exercises, and only them, and prints what each
/// really prints under a header, then why it prints that:
///
/// ```swift
/// exercise(1) {
///     _ = Observable.of(1, 2).subscribe(onNext: { print($0) })
/// } why: {
///     Why("`of` sends its elements in order, then completes.", zh: "`of` 按顺序发出元素，然后完成。")
/// }
/// // (blank line)
/// // --- exercise 1 ---
/// // 1
/// // 2
/// // why: `of` sends its elements in order, then completes.
/// ```
///
/// `--lang zh` prints the reason in Chinese, after `为什么：`. Without `--answers` an exercise
/// does nothing, so a chapter's transcript never gives its answers away. ChapterTests hold the
/// README's code to the body of the closure, line for line, the answers to a golden transcript,
/// and every answer to having its reason in both languages.
public func exercise(_ number: Int, action: () -> Void, why: () -> Why) {
    Workbook.start()
    guard Workbook.printsAnswers else { return }
    print("\n--- exercise \(number) ---")
    action()
    let reason = why()
    print(Workbook.chinese ? reason.chineseLines : reason.englishLines, terminator: "")
}

/// Why an exercise prints what it prints, in English and in Chinese: what a reader who predicted
/// wrong needs to read under the answer.
///
/// The texts are written as multi-line string literals, wrapped to fit the source's 120 columns;
/// the lines of a paragraph are joined again (with a space between English words, with none
/// between Chinese characters) and wrapped anew for the terminal. A blank line starts a paragraph.
public struct Why {
    public let english: String
    public let chinese: String

    public init(_ english: String, zh chinese: String) {
        self.english = Why.unwrapped(english)
        self.chinese = Why.unwrapped(chinese)
    }

    /// The paragraphs of `text`, each on one line.
    static func unwrapped(_ text: String) -> String {
        let paragraphs = text.components(separatedBy: "\n\n").map { paragraph in
            paragraph.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .reduce(into: "") { joined, line in
                    guard let last = joined.last, let first = line.first else { return joined += line }
                    joined += width(last) == 2 || width(first) == 2 ? line : " " + line
                }
        }
        return paragraphs.joined(separator: "\n")
    }

    /// `why: …`, wrapped at 100 columns, the following lines indented under the first.
    var englishLines: String { Why.wrap(english, head: "why: ") }

    /// `为什么：…`, wrapped at 100 columns (a Chinese character counts two).
    var chineseLines: String { Why.wrap(chinese, head: "为什么：") }

    static func width(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        // CJK ideographs, their punctuation and the full-width forms take two columns.
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6:
            return 2
        default: return 1
        }
    }

    /// Breaks `text` into lines of at most `limit` columns: English at spaces, Chinese between
    /// any two characters (never before closing punctuation), a paragraph break kept as one.
    static func wrap(_ text: String, head: String, limit: Int = 100) -> String {
        let indent = String(repeating: " ", count: head.reduce(0) { $0 + width($1) })
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            var lastBreak: String.Index?
            let prefixWidth = indent.count
            for character in paragraph {
                let w = width(character)
                if lineWidth + w > limit - prefixWidth, !line.isEmpty {
                    let noBreakBefore: Set<Character> = ["，", "。", "：", "；", "、", "）", "」", "”", "！", "？", ",", "."]
                    if w == 2, !noBreakBefore.contains(character) {
                        lines.append(line)
                        line = ""
                        lineWidth = 0
                        lastBreak = nil
                    } else if let cut = lastBreak {
                        lines.append(String(line[..<cut]).trimmingTrailingSpaces)
                        line = String(line[line.index(after: cut)...])
                        lineWidth = line.reduce(0) { $0 + width($1) }
                        lastBreak = nil
                    }
                }
                if character == " " {
                    lastBreak = line.endIndex
                } else if w == 2 {
                    lastBreak = nil
                }
                line.append(character)
                lineWidth += w
            }
            lines.append(line.trimmingTrailingSpaces)
        }
        return lines.enumerated().map { ($0.offset == 0 ? head : indent) + $0.element + "\n" }.joined()
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

/// The documents' `delay(_:closure:)`: runs `closure` `delay` seconds later — on the virtual
/// clock of the enclosing `onVirtualTime { }`, so the transcript is the same on every run.
public func delay(_ delay: Double, closure: @escaping () -> Void) {
    guard let clock = VirtualClock.current else {
        preconditionFailure("delay(_:closure:) needs a virtual clock: call it inside onVirtualTime { }")
    }
    clock.schedule(after: delay, closure)
}

/// What every chapter shares: argument handling (`--diagrams DIR`, `--answers`, `--lang zh`)
/// and the `RXTRACE` trace.
public enum Workbook {
    private static let started: Void = {
        let arguments = CommandLine.arguments
        Diagrams.configure(arguments: arguments)
        printsAnswers = arguments.contains("--answers")
        if let index = arguments.firstIndex(of: "--lang") {
            let language = index + 1 < arguments.count ? arguments[index + 1] : ""
            guard ["en", "zh"].contains(language) else {
                FileHandle.standardError.write(Data("error: --lang takes en or zh\n".utf8))
                exit(2)
            }
            chinese = language == "zh"
        }
    }()

    /// True under `--answers`: the exercises run and the examples do not.
    public private(set) static var printsAnswers = false

    /// True under `--lang zh`: the exercises' reasons are printed in Chinese.
    public private(set) static var chinese = false

    /// Reads the arguments once. Called by `example`; a chapter that prints before its first
    /// example can call it first.
    public static func start() { _ = started }

    /// Prints a chapter's own section header (between examples of different topics).
    public static func section(_ title: String) {
        start()
        if printsAnswers { return }
        print("\n=== \(title) ===")
    }
}
