// `import RxCocoa`, for code written against RxSwift 6: the platform-free part of RxCocoa
// (`Driver`, `Signal`, `Binder`, the `rx` namespace) lives in RxCore. UIKit and AppKit
// extensions do not exist on Linux (docs/compatibility.md lists them).
@_exported import RxCore
