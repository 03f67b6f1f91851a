// `import RxSwift`, for code written against RxSwift 6: the same API, served by RxCore.
//
// A package switches by depending on RxAnatomy's `RxSwift` product instead of RxSwift's; its
// sources stay as they are. Everything below comes from RxCore, so `RXTRACE=trace.rxt`
// traces such a program like any other (see docs/compatibility.md).
@_exported import RxCore
