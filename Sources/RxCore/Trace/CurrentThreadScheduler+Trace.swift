extension CurrentThreadScheduler.Trampoline {
    /// `enqueue` while tracing: the step `enqueue`, from the queued work to the scheduler, with
    /// how much now waits. Work that is not a node (born before the recording began) is not shown.
    @inline(never)
    func traceEnqueued(_ item: any TrampolineItem) {
        let node = traceNodeID(of: item)
        guard node != 0 else { return }
        traceStep(.enqueue, from: node, to: 0, Self.detail(waiting: waiting))
    }

    /// The trampoline takes `item` off its queue to run it (or to drop it, when it was disposed
    /// while it waited): the step `dequeue`, from the scheduler to the work.
    @inline(never)
    func traceDequeued(_ item: any TrampolineItem) {
        let node = traceNodeID(of: item)
        guard node != 0 else { return }
        let detail = item.isDisposed ? "CurrentThreadScheduler, disposed: dropped" : Self.detail(waiting: waiting)
        traceStep(.dequeue, from: 0, to: node, detail)
    }

    /// `CurrentThreadScheduler, 2 queued`: the scheduler, and the work waiting after the step.
    static func detail(waiting: Int) -> String { "CurrentThreadScheduler, \(waiting) queued" }
}
