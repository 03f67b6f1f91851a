// `import RxBlocking`, for code written against RxSwift 6: `toBlocking()` and
// `BlockingObservable` live in RxTesting, with the rest of the test kit.
@_exported import RxCore
@_exported import RxTesting
