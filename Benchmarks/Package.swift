// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so users of RxAnatomy never build OpenCombine or
// package-benchmark. `make bench` runs them all; `make bench-check` compares a run of the
// package-benchmark suite with the thresholds committed in Thresholds/ (docs/performance.md).
//
//   Core/          the package-benchmark suite (ordo-one/benchmark): RxCore and OpenCombine side
//                  by side, time, malloc counts, memory, and counts taken in child processes
//                  (callgrind's instructions, bytes per live subscription, RXTRACE's cost)
//   Sources/       the workloads the suite and Probe share, Probe itself, and the harnesses that
//                  measure what package-benchmark cannot: TraceBench (hooks compiled out, the
//                  traced multi-threaded program), ReadBench, RenderBench, ReportBench, Soak
let package = Package(
    name: "RxAnatomyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so the product references below do not depend on the checkout's folder name.
        .package(name: "RxAnatomy", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        // Its malloc counts come from the interposer, a trait to be named once traits are given.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The work each benchmark measures, for RxCore and for OpenCombine, and the measures
        // taken by running Probe as a child (callgrind, resident memory, RXTRACE).
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "RxCore", package: "RxAnatomy"),
                // Counts the records of the traces RXTRACE writes (rxtrace/3 is binary).
                .product(name: "RxTrace", package: "RxAnatomy"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // malloc's bytes in use and callgrind's client requests, from C (see its header).
        .target(name: "CProbe"),
        // The workloads in a plain executable: no malloc interposer, so its memory and
        // instructions are a program's own.
        .executableTarget(
            name: "Probe",
            dependencies: ["Workloads", "CProbe", .product(name: "RxCore", package: "RxAnatomy")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The package-benchmark suite: `swift package benchmark` (package-benchmark finds the
        // executable targets in a folder named Benchmarks: this package's own).
        .executableTarget(
            name: "Core",
            dependencies: [
                "Workloads",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RxCore", package: "RxAnatomy"),
            ],
            path: "Core",
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
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
        // What the trace hooks cost: tracing off vs hooks compiled out (a second build with
        // RXANATOMY_NO_TRACE=1), tracing on vs off, and the traced multi-threaded program
        // (--threaded). See Sources/TraceBench/main.swift.
        .executableTarget(
            name: "TraceBench",
            dependencies: [.product(name: "RxCore", package: "RxAnatomy")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
