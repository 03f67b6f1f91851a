// `import RxCocoa`, for code written against RxSwift 6: RxCocoa's platform-free half —
// `SharedSequence` with `Driver` and `Signal`, `ControlProperty`, `ControlEvent`,
// `NotificationCenter.rx` and `URLSession.rx` — built on RxCore, which it re-exports (RxCocoa
// re-exports RxRelay, whose types live in RxCore). UIKit and AppKit extensions, KVO and delegate
// proxies need the Objective-C runtime and do not exist on Linux (docs/compatibility.md).
@_exported import RxCore
