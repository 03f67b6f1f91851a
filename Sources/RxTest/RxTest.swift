// `import RxTest`, for code written against RxSwift 6: `TestScheduler`, `Recorded`,
// `Subscription` and the hot and cold observables live in RxTesting. This module adds what
// RxTest gives XCTest: `XCTAssertEqual` for lists of trait events (`SingleEvent` is a
// `Result` whose failure is any `Error`, so it cannot be `Equatable`) and
// `XCTAssertRecordedElements`.
@_exported import RxCore
@_exported import RxTesting
