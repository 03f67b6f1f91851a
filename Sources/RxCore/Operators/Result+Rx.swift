// The answer of 004 to "onError kills the chain": a login chain that fails once is disposed,
// and the next tap does nothing. Carry failures as values instead — `Result<Success, Error>`,
// Swift's own type — so the chain survives, and keep the happy path readable with four helpers:
//
// ```swift
// loginTaps
//     .flatMap { provider.login() }                      // Observable<Result<JSON, Error>>
//     .map(mapValue { json in json["token"] as! String }) // Result<String, Error>; no error plumbing
//     .flatMap(flatMapRequest { token in provider.userInfo(token) })   // failures become values
//     .subscribe(onNext: { result in … })                // never disposed by a failed login
// ```
//
// These are helpers over Swift's `Result`, not a second error model: a `Result`'s failure is
// an element like any other; an `error` event still ends a sequence.

/// A function for `map` that transforms the success value and passes failures through; a
/// throwing `transform` gives a failure (004's `mapValue`).
///
/// ```swift
/// results.map(mapValue { json in json.token })
/// ```
public func mapValue<T, K>(_ transform: @escaping (T) throws -> K) -> (Result<T, Error>) -> Result<K, Error> {
    { result in result.mapValue(transform) }
}

/// A function for `flatMap` that runs `request` on a success value and turns the request's
/// own error into a failure value, so the outer chain keeps going; a failure skips the
/// request and is passed on (004's `flatMapRequest`).
///
/// ```swift
/// tokens.flatMap(flatMapRequest { token in api.userInfo(token) })   // Observable<Result<User, Error>>
/// ```
public func flatMapRequest<T, R>(
    _ request: @escaping (T) throws -> Observable<R>, file: StaticString = #fileID, line: UInt = #line
) -> (Result<T, Error>) -> Observable<Result<R, Error>> {
    { result in
        switch result {
        case .success(let value):
            do {
                return try request(value)
                    .map({ Result<R, Error>.success($0) }, file: file, line: line)
                    .catch(
                        { error in Observable.just(.failure(error), file: file, line: line) }, file: file, line: line)
            } catch {
                return Observable.just(.failure(error), file: file, line: line)
            }
        case .failure(let error):
            return Observable.just(.failure(error), file: file, line: line)
        }
    }
}

/// A function for `flatMap` that starts a chain of results: runs `request` on a plain value and
/// turns the request's error into a failure value (004's `FlatMap.request(api:)` for values).
///
/// ```swift
/// loginTaps.flatMap(flatMapRequest { password in api.login(password) })   // Observable<Result<Token, Error>>
/// ```
@_disfavoredOverload
public func flatMapRequest<T, R>(
    _ request: @escaping (T) throws -> Observable<R>, file: StaticString = #fileID, line: UInt = #line
) -> (T) -> Observable<Result<R, Error>> {
    let onResult: (Result<T, Error>) -> Observable<Result<R, Error>> = flatMapRequest(request, file: file, line: line)
    return { value in onResult(.success(value)) }
}

/// A function for `flatMap` that keeps success values and drops failures (004's `filterValue`).
public func filterValue<T>() -> (Result<T, Error>) -> Observable<T> {
    Result<T, Error>.filterValue
}

/// A function for `flatMap` that keeps failures and drops success values (004's `filterError`).
public func filterError<T>() -> (Result<T, Error>) -> Observable<Error> {
    Result<T, Error>.filterError
}

extension Result where Failure == Error {
    /// Transforms the success value; a throwing `transform` gives a failure.
    public func mapValue<NewSuccess>(_ transform: (Success) throws -> NewSuccess) -> Result<NewSuccess, Error> {
        switch self {
        case .success(let value):
            do { return .success(try transform(value)) } catch { return .failure(error) }
        case .failure(let error):
            return .failure(error)
        }
    }

    /// For `flatMap`: the success value as a one-element sequence, a failure as an empty one.
    public static var filterValue: (Result<Success, Error>) -> Observable<Success> {
        { result in
            switch result {
            case .success(let value): return Observable.just(value)
            case .failure: return Observable.empty()
            }
        }
    }

    /// For `flatMap`: the failure as a one-element sequence, a success value as an empty one.
    public static var filterError: (Result<Success, Error>) -> Observable<Error> {
        { result in
            switch result {
            case .success: return Observable.empty()
            case .failure(let error): return Observable.just(error)
            }
        }
    }
}

/// A `Result` with an `Error` failure, so sequences of results get the helpers as operators.
public protocol RxResultConvertible {
    associatedtype Success
    /// The value as a `Result`.
    var asResult: Result<Success, Error> { get }
}

extension Result: RxResultConvertible where Failure == Error {
    public var asResult: Result<Success, Error> { self }
}

extension ObservableType where Element: RxResultConvertible {
    /// `map(mapValue(transform))`.
    public func mapValue<K>(
        _ transform: @escaping (Element.Success) throws -> K, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Result<K, Error>> {
        map({ $0.asResult.mapValue(transform) }, file: file, line: line)
    }

    /// Only the success values.
    public func filterValue(file: StaticString = #fileID, line: UInt = #line) -> Observable<Element.Success> {
        ResultPartition(
            source: asObservable().map { $0.asResult }, pick: { try? $0.get() }, callSite: CallSite(file, line))
    }

    /// Only the failures.
    public func filterError(file: StaticString = #fileID, line: UInt = #line) -> Observable<Error> {
        ResultPartition(
            source: asObservable().map { $0.asResult },
            pick: { result in
                if case .failure(let error) = result { return error }
                return nil
            }, callSite: CallSite(file, line))
    }
}

/// Passes on the side of each `Result` that `pick` returns, drops the rest.
final class ResultPartitionSink<Success, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Result<Success, Error>

    private let pick: (Element) -> Observer.Element?

    init(pick: @escaping (Element) -> Observer.Element?, observer: Observer, cancel: SinkDisposer) {
        self.pick = pick
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("ResultPartitionSink"))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let result):
            if let picked = pick(result) { forwardOn(.next(picked)) }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

final class ResultPartition<Success, Picked>: Producer<Picked> {
    private let source: Observable<Result<Success, Error>>
    private let pick: (Result<Success, Error>) -> Picked?

    init(
        source: Observable<Result<Success, Error>>, pick: @escaping (Result<Success, Error>) -> Picked?,
        callSite: CallSite?
    ) {
        self.source = source
        self.pick = pick
        super.init(counter: ResourceCounter.named("ResultPartition"), callSite: callSite)
        traceSource(source)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Picked {
        let sink = ResultPartitionSink<Success, Observer>(pick: pick, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
