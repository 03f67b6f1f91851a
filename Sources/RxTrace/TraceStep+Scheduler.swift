extension TraceStep {
    /// For a step with a scheduler at one end (`schedule`, `enqueue`, `dequeue`): the
    /// scheduler's name. The scheduler is no node (its end of the step is 0), so the step names
    /// it first in its detail: `CurrentThreadScheduler, 1 queued`.
    public var schedulerName: String? {
        guard [.schedule, .enqueue, .dequeue].contains(call), let detail else { return nil }
        return detail.range(of: ", ").map { String(detail[..<$0.lowerBound]) } ?? detail
    }

    /// What such a step's detail says after the scheduler's name (`1 queued`), if anything.
    public var schedulerNote: String? {
        guard schedulerName != nil, let detail, let comma = detail.range(of: ", ") else { return nil }
        return String(detail[comma.upperBound...])
    }
}
