// swift-tools-version:6.0
// Bytes and instructions per subscription, for docs/performance.md ("Bytes per subscription").
// Its own small package so that it builds in a minute beside Benchmarks/ (see the README there).
import PackageDescription

let package = Package(
    name: "BytesProbe",
    dependencies: [.package(name: "RxAnatomy", path: "../..")],
    targets: [
        .target(name: "CMallocInfo"),
        .executableTarget(
            name: "BytesProbe",
            dependencies: [.product(name: "RxCore", package: "RxAnatomy"), "CMallocInfo"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ])
