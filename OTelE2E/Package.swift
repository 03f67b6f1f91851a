// swift-tools-version: 6.1
import Foundation
import PackageDescription

// End-to-end test of RxDistributedTracing: swift-otel exports the spans over OTLP/HTTP to a
// receiver the test starts on loopback (receiver.py, on PyPI's opentelemetry-proto), and the test
// reads them back. Its own package, like Benchmarks/, so that users of RxAnatomy never build
// swift-otel (about seven minutes on two cores). Run with `make otel-e2e`.
//
// The dependency is the RxAnatomy checkout this folder sits in; a local package is named after
// its folder, so the products name it that way.
let rxAnatomy = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "OTelE2E",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        // OTLP/HTTP only: the gRPC exporter's dependencies are not built.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .testTarget(
            name: "OTelE2ETests",
            dependencies: [
                .product(name: "RxDistributedTracing", package: rxAnatomy),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        )
    ]
)
