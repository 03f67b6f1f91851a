// `import RxRelay`, for code written against RxSwift 6: `PublishRelay`, `BehaviorRelay` and
// `ReplayRelay` live in RxCore, beside the subjects they wrap.
@_exported import RxCore
