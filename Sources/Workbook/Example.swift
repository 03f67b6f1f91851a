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
/// really prints under a header:
///
/// ```swift
/// exercise(1) {
///     Observable.of(1, 2).subscribe(onNext: { print($0) })
/// }
/// // (blank line)
/// // --- exercise 1 ---
/// // 1
/// // 2
/// ```
///
/// Without `--answers` an exercise does nothing, so a chapter's transcript never gives its
/// answers away. ChapterTests hold the README's code to the body of the closure, line for line,
/// and the answers to a golden transcript.
public func exercise(_ number: Int, action: () -> Void) {
    Workbook.start()
    guard Workbook.printsAnswers else { return }
    print("\n--- exercise \(number) ---")
    action()
}

/// The documents' `delay(_:closure:)`: runs `closure` `delay` seconds later — on the virtual
/// clock of the enclosing `onVirtualTime { }`, so the transcript is the same on every run.
public func delay(_ delay: Double, closure: @escaping () -> Void) {
    guard let clock = VirtualClock.current else {
        preconditionFailure("delay(_:closure:) needs a virtual clock: call it inside onVirtualTime { }")
    }
    clock.schedule(after: delay, closure)
}

/// What every chapter shares: argument handling (`--diagrams DIR`, `--answers`) and the
/// `RXTRACE` trace.
public enum Workbook {
    private static let started: Void = {
        Diagrams.configure(arguments: CommandLine.arguments)
        printsAnswers = CommandLine.arguments.contains("--answers")
    }()

    /// True under `--answers`: the exercises run and the examples do not.
    public private(set) static var printsAnswers = false

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
