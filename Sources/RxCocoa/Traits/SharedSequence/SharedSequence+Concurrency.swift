extension SharedSequence {
    /// The elements, read with `for await` on the main actor (a shared sequence cannot fail).
    /// Cancelling the reading task disposes the subscription.
    ///
    /// ```swift
    /// for await title in viewModel.title.values { label.text = title }
    /// ```
    @MainActor public var values: AsyncStream<Element> {
        AsyncStream { continuation in
            let subscription = asObservable().subscribe(
                onNext: { continuation.yield($0) }, onCompleted: { continuation.finish() })
            continuation.onTermination = { termination in
                if case .cancelled = termination { subscription.dispose() }
            }
        }
    }
}
