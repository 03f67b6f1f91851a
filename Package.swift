// swift-tools-version: 6.0
import Foundation
import PackageDescription

// RxAnatomy: a reactive core with RxSwift 6's API, a trace layer, a Graphviz renderer and lessons.
//
// RxCore is compiled in Swift 5 language mode: RxSwift's API (escaping closures stored in
// sinks, observers called from any thread) predates Sendable checking, and the core's thread
// safety comes from its own Mutex/Atomic discipline rather than the type checker.
//
// Setting RXANATOMY_NO_TRACE=1 in the environment builds RxCore with the `RX_NO_TRACE`
// condition, which makes `Tracing.isOn` constant false (an installed tracer is ignored, and
// `RXTRACE` is not read): the optimizer drops the traced branches, the rest of the code is the
// same. It exists only so Benchmarks/ can compare tracing off with that build (TraceBench,
// docs/performance.md); nobody needs it otherwise.
let noTrace = ProcessInfo.processInfo.environment["RXANATOMY_NO_TRACE"] == "1"
let coreDefines: [SwiftSetting] = noTrace ? [.define("RX_NO_TRACE")] : []
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

/// One lesson of the workbook: `Chapters/NN-Topic/` built as executable `chapterNN`.
func chapter(_ number: String, _ folder: String) -> Target {
    .executableTarget(
        name: "chapter\(number)",
        dependencies: ["RxCore", "RxTesting", "Workbook"] + (chaptersUsingRxCocoa.contains(folder) ? ["RxCocoa"] : []),
        path: "Chapters/\(folder)",
        exclude: ["README.md", "README.zh.md"],
        swiftSettings: swift5
    )
}

// The number of a chapter is its place in the reading order (docs/chapters.md). 20 is kept for
// the Traits chapter, which comes after the Testing chapter and before the two app chapters.
let chapters: [(String, String)] = [
    ("01", "01-WhyRx"),
    ("02", "02-AnatomyOfASubscription"),
    ("03", "03-TheTrampoline"),
    ("04", "04-OperatorsAreProducers"),
    ("05", "05-CreatingSequences"),
    ("06", "06-Subjects"),
    ("07", "07-Utility"),
    ("08", "08-Schedulers"),
    ("09", "09-Disposing"),
    ("10", "10-Transforming"),
    ("11", "11-Combining"),
    ("12", "12-FilteringAndConditions"),
    ("13", "13-Sharing"),
    ("14", "14-Connectables"),
    ("15", "15-Errors"),
    ("16", "16-TheRxNamespace"),
    ("17", "17-MessageInterception"),
    ("18", "18-WrappingCallbackAPIs"),
    ("19", "19-TestingAndMemory"),
    ("21", "21-GitHubSignup"),
    ("22", "22-TableBinding"),
]

/// The chapters that use `Driver` (RxCocoa's), and so link RxCocoa and FoundationNetworking.
let chaptersUsingRxCocoa: Set = ["22-TableBinding"]

let package = Package(
    name: "RxAnatomy",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RxCore", targets: ["RxCore"]),
        .library(name: "RxTesting", targets: ["RxTesting"]),
        .library(name: "RxTrace", targets: ["RxTrace"]),
        .library(name: "RxGraphviz", targets: ["RxGraphviz"]),
        .executable(name: "rxtrace", targets: ["rxtrace"]),
        // RxSwift 6's module names, so that a package switches by changing only its dependency.
        .library(name: "RxSwift", targets: ["RxSwift"]),
        .library(name: "RxRelay", targets: ["RxRelay"]),
        .library(name: "RxCocoa", targets: ["RxCocoa"]),
        .library(name: "RxTest", targets: ["RxTest"]),
        .library(name: "RxBlocking", targets: ["RxBlocking"]),
    ] + chapters.map { .executable(name: "chapter\($0.0)", targets: ["chapter\($0.0)"]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .target(name: "CRxThreads"),
        .target(name: "RxCore", dependencies: ["CRxThreads"], swiftSettings: swift5 + coreDefines),
        .target(name: "RxTesting", dependencies: ["RxCore"], swiftSettings: swift5),
        .target(name: "RxTrace", dependencies: ["RxCore"], swiftSettings: swift5),
        // Modules under RxSwift 6's names, re-exporting RxCore and RxTesting (thin, but for RxCocoa).
        .target(name: "RxSwift", dependencies: ["RxCore"], swiftSettings: swift5),
        .target(name: "RxRelay", dependencies: ["RxCore"], swiftSettings: swift5),
        // RxCocoa's own types (Driver, Signal, URLSession.rx: FoundationNetworking, libcurl) stay out of RxCore.
        .target(name: "RxCocoa", dependencies: ["RxCore"], swiftSettings: swift5),
        .target(name: "RxTest", dependencies: ["RxCore", "RxTesting"], swiftSettings: swift5),
        .target(name: "RxBlocking", dependencies: ["RxCore", "RxTesting"], swiftSettings: swift5),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"])]
        ),
        .target(name: "RxGraphviz", dependencies: ["RxTrace", "CGraphviz"], swiftSettings: swift5),
        .executableTarget(
            name: "rxtrace",
            dependencies: [
                "RxTrace", "RxGraphviz",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The report page's files, compiled into the binary: rxtrace needs nothing beside it.
            resources: [
                .embedInCode("Report/report.html"), .embedInCode("Report/report.css"),
                .embedInCode("Report/report.js"),
            ],
            swiftSettings: swift5
        ),
        .target(
            name: "Workbook", dependencies: ["RxCore", "RxTesting", "RxTrace", "RxGraphviz"], swiftSettings: swift5),

        .testTarget(name: "RxCoreTests", dependencies: ["RxCore", "RxTesting"], swiftSettings: swift5),
        .testTarget(
            name: "RxCocoaTests", dependencies: ["RxCocoa", "RxTesting", "RxTrace"], swiftSettings: swift5),
        .testTarget(
            name: "RxTestingTests", dependencies: ["RxCore", "RxTesting", "RxTest"], swiftSettings: swift5),
        .testTarget(name: "RxTraceTests", dependencies: ["RxCore", "RxTesting", "RxTrace"], swiftSettings: swift5),
        // Random pipelines checked against the Rx contract and a plain-Swift model (docs/reliability.md).
        .testTarget(name: "RxPropertyTests", dependencies: ["RxCore", "RxTesting", "RxTrace"], swiftSettings: swift5),
        // Hand-built traces shared by the rendering and CLI tests.
        .target(name: "TraceFixtures", dependencies: ["RxTrace"], path: "Tests/TraceFixtures", swiftSettings: swift5),
        // The one runner of child processes the tests share: output to files, a time limit,
        // SIGTERM then SIGKILL, a bounded wait (Tests/ChildProcess/Child.swift).
        .target(name: "ChildProcess", path: "Tests/ChildProcess"),
        .testTarget(name: "ChildProcessTests", dependencies: ["ChildProcess"]),
        // A traced program the kill tests stop with signals and a crash (Tests/rxtraceTests/KillTests).
        .executableTarget(
            name: "tracechild", dependencies: ["RxCore"], path: "Tests/TraceChild", swiftSettings: swift5),
        .testTarget(
            name: "RxGraphvizTests", dependencies: ["RxCore", "RxTrace", "RxGraphviz", "TraceFixtures"],
            exclude: ["Golden"], swiftSettings: swift5),
        .testTarget(
            name: "rxtraceTests", dependencies: ["RxCore", "RxTrace", "TraceFixtures", "ChildProcess"],
            swiftSettings: swift5),
        // Random virtual-time pipelines printed as text, built from RxSwift's public API only, so
        // that the same files build against RxSwift; ConformanceTests compares this build's output
        // with what RxSwift printed (docs/reliability.md).
        .executableTarget(
            name: "conformance", dependencies: ["RxSwift", "RxRelay", "RxTest"], path: "Tests/Conformance",
            swiftSettings: swift5),
        .testTarget(name: "ConformanceTests", dependencies: ["ChildProcess"], exclude: ["Golden"]),
        .testTarget(
            name: "ChapterTests", dependencies: ["Workbook", "RxTrace", "ChildProcess"], exclude: ["Golden"],
            swiftSettings: swift5),
    ] + chapters.map { chapter($0.0, $0.1) }
)
