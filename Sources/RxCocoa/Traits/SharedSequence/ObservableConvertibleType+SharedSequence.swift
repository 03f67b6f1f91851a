extension ObservableConvertibleType {
    /// A shared sequence of any strategy that, on error, emits `onErrorJustReturn` and completes.
    ///
    /// ```swift
    /// let signal: Signal<Int> = numbers.asSharedSequence(onErrorJustReturn: -1)
    /// ```
    public func asSharedSequence<S>(
        sharingStrategy _: S.Type = S.self, onErrorJustReturn: Element, file: StaticString = #fileID,
        line: UInt = #line
    ) -> SharedSequence<S, Element> {
        let source = asObservable()
            .observe(on: S.scheduler, file: file, line: line)
            .catchAndReturn(onErrorJustReturn, file: file, line: line)
        return SharedSequence(source, file: file, line: line)
    }

    /// A shared sequence of any strategy that, on error, continues with `onErrorDriveWith`.
    public func asSharedSequence<S>(
        sharingStrategy _: S.Type = S.self, onErrorDriveWith: SharedSequence<S, Element>,
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<S, Element> {
        let source = asObservable()
            .observe(on: S.scheduler, file: file, line: line)
            .catch({ _ in onErrorDriveWith.asObservable() }, file: file, line: line)
        return SharedSequence(source, file: file, line: line)
    }

    /// A shared sequence of any strategy that, on error, continues with what `onErrorRecover`
    /// makes of the error.
    public func asSharedSequence<S>(
        sharingStrategy _: S.Type = S.self,
        onErrorRecover: @escaping (_ error: Swift.Error) -> SharedSequence<S, Element>,
        file: StaticString = #fileID, line: UInt = #line
    ) -> SharedSequence<S, Element> {
        let source = asObservable()
            .observe(on: S.scheduler, file: file, line: line)
            .catch({ error in onErrorRecover(error).asObservable() }, file: file, line: line)
        return SharedSequence(source, file: file, line: line)
    }
}
