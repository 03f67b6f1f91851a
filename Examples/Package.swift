// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A package written for RxSwift 6, built against RxAnatomy instead. Its sources are exactly what
// an RxSwift user writes (`import RxSwift`, `import RxRelay`, `import RxCocoa`, `import RxTest`);
// only the dependency below differs. With RxSwift it would read:
//
//     .package(url: "https://github.com/ReactiveX/RxSwift.git", from: "6.0.0")
//     .product(name: "RxSwift", package: "RxSwift")
//
// Here the dependency is the RxAnatomy checkout this folder sits in. A local package is named
// after its folder, so the products name it that way.
let rxAnatomy = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "BookSearch",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "..")
    ],
    targets: [
        .target(
            name: "BookSearch",
            dependencies: [
                .product(name: "RxSwift", package: rxAnatomy),
                .product(name: "RxRelay", package: rxAnatomy),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // A signup form's view model with Driver and Signal outputs, headless controls with
        // ControlProperty and ControlEvent, and Driver extensions of the kind libraries add.
        .target(
            name: "Signup",
            dependencies: [
                .product(name: "RxSwift", package: rxAnatomy),
                .product(name: "RxCocoa", package: rxAnatomy),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "BookSearchDemo",
            dependencies: ["BookSearch", .product(name: "RxSwift", package: rxAnatomy)],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "BookSearchTests",
            dependencies: [
                "BookSearch",
                .product(name: "RxSwift", package: rxAnatomy),
                .product(name: "RxRelay", package: rxAnatomy),
                .product(name: "RxTest", package: rxAnatomy),
                .product(name: "RxBlocking", package: rxAnatomy),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "SignupTests",
            dependencies: [
                "Signup",
                .product(name: "RxSwift", package: rxAnatomy),
                .product(name: "RxCocoa", package: rxAnatomy),
                .product(name: "RxTest", package: rxAnatomy),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
