/// What this thread is doing, as far as the trace's call sites need it (touched only while
/// tracing). While a producer runs: which producer it is and the call site of the subscription,
/// so sinks born inside `run` take that call site and get their `run` edge from the producer.
/// While a traced hop delivers an event: the node it delivers to, so nodes born while the event
/// is handled (the inner subscriptions of `flatMap` & co.) take that node's call site, and who
/// delivers, so the `on` the receiving observer records is credited to that sink or subject.
///
/// The frames live in this thread's `TraceLocal`, with the rest of its trace state.
enum RunContext {
    struct Frame {
        /// The producer running (0 in a delivery frame).
        var producer: UInt64
        /// The call site of the subscription being made, when known.
        var callSite: CallSite?
        /// In a delivery frame, the node delivered to, whose call site new nodes take.
        var receiver: UInt64
        /// In a delivery frame, the node delivering (a sink, a subject)…
        var sender: UInt64 = 0
        /// …and the observer it delivers to, when that is a node.
        var target: UInt64 = 0
        /// A delivery frame (counted in `TraceLocal.deliveries`).
        var delivery = false
    }

    /// A producer's `run` starts.
    static func push(producer: UInt64, callSite: CallSite?) {
        push(TraceLocal.current, Frame(producer: producer, callSite: callSite, receiver: 0))
    }

    /// A traced delivery from `sender` to `target` starts (a hop's `deliver`). It writes the four
    /// fields a delivery frame uses and leaves the frame's `producer` and `callSite` as they were
    /// (frames are plain data): `current` reads them as 0 and nil in a delivery frame. A whole
    /// frame is 80 bytes, and writing it at each hop was a tenth of the run context's cost.
    @inline(__always)
    static func pushDelivery(_ local: TraceLocal, receiver: UInt64, sender: UInt64, target: UInt64) {
        local.deliveries &+= 1
        if local.frameDepth == local.frameCapacity { grow(local) }
        let frame = local.frames + local.frameDepth
        frame.pointee.receiver = receiver
        frame.pointee.sender = sender
        frame.pointee.target = target
        frame.pointee.delivery = true
        local.frameDepth &+= 1
    }

    /// Who calls `node`'s `on` now: the sink or subject whose delivery to `node` is under way,
    /// else 0 (user code, `create`'s handler, an observer forwarding by hand).
    @inline(__always)
    static func caller(of node: UInt64, _ local: TraceLocal) -> UInt64 {
        guard local.deliveries > 0, local.frameDepth > 0 else { return 0 }
        let frame = local.frames[local.frameDepth - 1]
        return frame.delivery && frame.target == node ? frame.sender : 0
    }

    @inline(__always)
    static func push(_ local: TraceLocal, _ frame: Frame) {
        if local.frameDepth == local.frameCapacity { grow(local) }
        (local.frames + local.frameDepth).initialize(to: frame)
        local.frameDepth &+= 1
    }

    @inline(never)
    private static func grow(_ local: TraceLocal) {
        let frames = UnsafeMutablePointer<Frame>.allocate(capacity: local.frameCapacity * 2)
        frames.moveInitialize(from: local.frames, count: local.frameDepth)
        local.frames.deallocate()
        local.frames = frames
        local.frameCapacity *= 2
    }

    static func pop() { pop(TraceLocal.current) }

    @inline(__always)
    static func pop(_ local: TraceLocal) {
        guard local.frameDepth > 0 else { return }
        local.frameDepth -= 1
        if local.frames[local.frameDepth].delivery { local.deliveries -= 1 }
    }

    /// `pop` of the delivery frame `pushDelivery` pushed: no need to look at the frame.
    @inline(__always)
    static func popDelivery(_ local: TraceLocal) {
        local.frameDepth &-= 1
        local.deliveries &-= 1
    }

    /// The innermost frame; a delivery frame's `producer` and `callSite` read 0 and nil
    /// (`pushDelivery` does not write them).
    static var current: Frame? {
        guard let local = TraceLocal.existing, local.frameDepth > 0 else { return nil }
        var frame = local.frames[local.frameDepth - 1]
        if frame.delivery {
            frame.producer = 0
            frame.callSite = nil
        }
        return frame
    }

    /// The call site of the subscription being made or served on this thread, if any.
    static func site(_ tracer: any RxTracer) -> CallSite? {
        guard let frame = current else { return nil }
        if let site = frame.callSite { return site }
        return frame.receiver != 0 ? tracer.callSite(of: frame.receiver) : nil
    }
}
