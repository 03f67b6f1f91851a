// swift-tools-version: 6.0
import PackageDescription

// Benchmarks live in their own package so users of RxAnatomy never build OpenCombine.
// Run with `make bench` (release build); each executable prints ratios measured in one run.
let package = Package(
    name: "RxAnatomyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so the product references below do not depend on the checkout's folder name.
        .package(name: "RxAnatomy", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "CoreBench",
            dependencies: [
                .product(name: "RxCore", package: "RxAnatomy"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Hand-built traces in the shapes the views expect, shared by RenderBench and ReportBench.
        .target(
            name: "BenchTraces",
            dependencies: [.product(name: "RxTrace", package: "RxAnatomy")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "RenderBench",
            dependencies: [
                "BenchTraces",
                .product(name: "RxTrace", package: "RxAnatomy"),
                .product(name: "RxGraphviz", package: "RxAnatomy"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The report page in headless Chromium: load time and time per step (make bench-report).
        .executableTarget(
            name: "ReportBench",
            dependencies: ["BenchTraces", .product(name: "RxTrace", package: "RxAnatomy")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // What the trace hooks cost: tracing off vs hooks compiled out (a second build with
        // RXANATOMY_NO_TRACE=1), and tracing on vs off. See Sources/TraceBench/main.swift.
        // Millions of events across threads, tracing off then on: events/s and memory over time.
        .executableTarget(
            name: "Soak",
            dependencies: [.product(name: "RxCore", package: "RxAnatomy")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Reading a 100 MB-class trace: rxtrace/2 parse speed, `rxtrace summary` against Python's
        // json.load of the same trace as rxtrace/1 JSON (see Sources/ReadBench/main.swift).
        .executableTarget(
            name: "ReadBench",
            dependencies: [.product(name: "RxTrace", package: "RxAnatomy")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "TraceBench",
            dependencies: [.product(name: "RxCore", package: "RxAnatomy")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
