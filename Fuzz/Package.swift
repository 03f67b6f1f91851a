// swift-tools-version: 6.0
import PackageDescription

// The libFuzzer harness for the trace reader and the renderer, in its own package so no other
// build links libFuzzer. Run with `make fuzz SECONDS=60` (docs/reliability.md).
let package = Package(
    name: "RxAnatomyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RxAnatomy", path: "..")
    ],
    targets: [
        // No main: built with `--sanitize=fuzzer`, libFuzzer's own main calls the harness.
        .executableTarget(
            name: "TraceFuzzer",
            dependencies: [
                .product(name: "RxTrace", package: "RxAnatomy"),
                .product(name: "RxGraphviz", package: "RxAnatomy"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        )
    ]
)
