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
public func example(_ description: String, draw: Bool = false, action: () -> Void) {
    Workbook.start()
    print("\n--- \(description) example ---")
    if draw, Diagrams.isEnabled {
        Diagrams.record(description, action)
    } else {
        action()
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

/// What every chapter shares: argument handling (`--diagrams DIR`) and the `RXTRACE` trace.
public enum Workbook {
    private static let started: Void = {
        Diagrams.configure(arguments: CommandLine.arguments)
    }()

    /// Reads the arguments once. Called by `example`; a chapter that prints before its first
    /// example can call it first.
    public static func start() { _ = started }

    /// Prints a chapter's own section header (between examples of different topics).
    public static func section(_ title: String) {
        start()
        print("\n=== \(title) ===")
    }
}
