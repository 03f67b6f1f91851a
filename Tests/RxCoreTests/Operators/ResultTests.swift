import RxCore
import RxTesting
import Testing

private struct LoginFailed: Error, Equatable, CustomStringConvertible {
    var description: String { "LoginFailed" }
}

@Suite(.serialized, .noLeaks)
struct ResultHelpersTests {
    /// 004's story: with `onError`, the first failed login kills the chain and later taps do
    /// nothing. With `Result` values and the helpers, every tap gets an answer.
    @Test func aFailedLoginNoLongerKillsTheChain() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([
            .next(210, "bad"), .next(220, "good"), .next(230, "bad"), .next(240, "good"),
        ])
        func login(_ password: String) -> Observable<String> {
            password == "good" ? .just("token-\(password)") : .error(LoginFailed())
        }
        func userInfo(_ token: String) -> Observable<String> { .just("user for \(token)") }

        let res = scheduler.start {
            taps.flatMap(flatMapRequest(login))
                .map(mapValue { (token: String) in token.uppercased() })
                .flatMap(flatMapRequest(userInfo))
                .map { result -> String in
                    switch result {
                    case .success(let user): return user
                    case .failure(let error): return "failed: \(error)"
                    }
                }
        }
        #expect(
            res.events == [
                .next(210, "failed: LoginFailed"), .next(220, "user for TOKEN-GOOD"),
                .next(230, "failed: LoginFailed"), .next(240, "user for TOKEN-GOOD"),
            ])
        #expect(taps.subscriptions == [Subscription(200, 1000)])
    }

    @Test func theSameChainWithOnErrorDiesAtTheFirstFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, "bad"), .next(220, "good")])
        let res = scheduler.start {
            taps.flatMap { password -> Observable<String> in password == "good" ? .just("token") : .error(LoginFailed())
            }
        }
        #expect(res.events == [.error(210, LoginFailed())])
        #expect(taps.subscriptions == [Subscription(200, 210)])
    }

    @Test func mapValueTransformsSuccessesAndCatchesThrows() {
        let transform: (Result<Int, Error>) -> Result<String, Error> = mapValue { (n: Int) -> String in
            if n < 0 { throw LoginFailed() }
            return "\(n)"
        }
        #expect((try? transform(.success(3)).get()) == "3")
        #expect(transform(.success(-1)).isFailure(LoginFailed()))
        #expect(transform(.failure(LoginFailed())).isFailure(LoginFailed()))
        #expect((try? Result<Int, Error>.success(2).mapValue { $0 * 2 }.get()) == 4)
    }

    @Test func filterValueAndFilterErrorSplitTheResults() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Result<Int, Error>.success(1)), .next(220, .failure(LoginFailed())), .next(230, .success(2)),
            .completed(240),
        ])
        let values = scheduler.start { xs.filterValue() }
        #expect(values.events == [.next(210, 1), .next(230, 2), .completed(240)])

        let s2 = TestScheduler(initialClock: 0)
        let ys = s2.createHotObservable([
            .next(210, Result<Int, Error>.success(1)), .next(220, .failure(LoginFailed())), .completed(240),
        ])
        let errors = s2.start { ys.filterError().map { "\($0)" } }
        #expect(errors.events == [.next(220, "LoginFailed"), .completed(240)])

        var viaFlatMap: [Int] = []
        _ = Observable.of(Result<Int, Error>.success(5), .failure(LoginFailed())).flatMap(filterValue()).subscribe(
            onNext: { viaFlatMap.append($0) })
        var errorCount = 0
        _ = Observable.of(Result<Int, Error>.success(5), .failure(LoginFailed())).flatMap(filterError()).subscribe(
            onNext: { _ in errorCount += 1 })
        #expect(viaFlatMap == [5])
        #expect(errorCount == 1)
    }

    @Test func mapValueAsAnOperator() {
        var out: [String] = []
        _ = Observable.of(Result<Int, Error>.success(1), .failure(LoginFailed()))
            .mapValue { $0 + 1 }
            .subscribe(onNext: { result in out.append((try? result.get()).map { "\($0)" } ?? "failure") })
        #expect(out == ["2", "failure"])
    }
}

extension Result {
    fileprivate func isFailure(_ expected: LoginFailed) -> Bool {
        if case .failure(let error) = self { return (error as? LoginFailed) == expected }
        return false
    }
}
