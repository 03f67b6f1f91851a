/// The bit of `ObserverBase.state` set when the pointer above the low bits is an `ObserverExtras`
/// the observer holds, not its counter.
let observerBoxedFlag: UInt = 4
/// The bit set when that box is the subclass's own (`AnonymousObserver`'s handlers), not one made
/// only for tracing.
let observerOwnBoxFlag: UInt = 8
/// The low bits of `ObserverBase.state`; the pointer is above them.
let observerFlagBits: UInt = 15

/// What an observer keeps besides its state word, only when it has any: the counter it was
/// born with, its trace state (made only while tracing), and in a subclass of this box, a
/// subclass's rarely used fields (`AnonymousObserver`'s `onError`, `onCompleted`, …). An
/// observer with none of them keeps its counter in the state word and no box.
class ObserverExtras {
    // Not retained: counters live as long as the process (the registry holds them).
    let counter: Unmanaged<ResourceCounter>
    /// Trace state (Trace/ObserverBase+Trace.swift), set at the observer's birth while tracing.
    fileprivate(set) var trace: TraceHop?

    init(counter: __shared ResourceCounter) { self.counter = Unmanaged.passUnretained(counter) }

    init(counter: Unmanaged<ResourceCounter>) { self.counter = counter }

    /// Counts the birth of an observer with no box of its own (a node too while tracing) and
    /// returns its first state word: `word` (its counter), or a box for its trace state.
    @inline(__always)
    static func born(_ word: UInt, _ counter: __shared ResourceCounter, _ callSite: CallSite?) -> UInt {
        let trace = TraceHop.observerBorn(counter, callSite) // counts it; a node too while tracing
        if trace == nil { return word }
        return Self.word(ObserverExtras(counter: counter), trace: trace, own: false)
    }

    /// `born` for an observer with a box of its own (`box.counter` counts it).
    static func born(box: __owned ObserverExtras, _ callSite: CallSite?) -> UInt {
        let trace = box.counter._withUnsafeGuaranteedRef { TraceHop.observerBorn($0, callSite) }
        return word(box, trace: trace, own: true)
    }

    @inline(never)
    private static func word(_ box: __owned ObserverExtras, trace: __owned TraceHop?, own: Bool) -> UInt {
        box.trace = trace
        var word = UInt(bitPattern: Unmanaged.passRetained(box).toOpaque()) | observerBoxedFlag
        if own { word |= observerOwnBoxFlag }
        if trace != nil { word |= observerTracedFlag }
        return word
    }

    /// Counts an observer's death (and its node's, while tracing), and lets its box go.
    @inline(__always)
    static func died(_ word: UInt) {
        guard word & observerBoxedFlag != 0 else {
            return rxDeath(Unmanaged<ResourceCounter>.fromOpaque(pointer(word)), 0)
        }
        let box = Unmanaged<ObserverExtras>.fromOpaque(pointer(word))
        box._withUnsafeGuaranteedRef { rxDeath($0.counter, $0.trace?.node ?? 0) }
        box.release()
    }

    /// The trace node of an observer whose `word` has the traced bit.
    @inline(never)
    static func tracedNode(_ word: UInt) -> UInt64 {
        box(word)?._withUnsafeGuaranteedRef { $0.trace?.node } ?? 0
    }

    /// The box in `word`, not retained; nil when there is none.
    @inline(__always)
    static func box(_ word: UInt) -> Unmanaged<ObserverExtras>? {
        word & observerBoxedFlag != 0 ? Unmanaged.fromOpaque(pointer(word)) : nil
    }

    @inline(__always)
    private static func pointer(_ word: UInt) -> UnsafeRawPointer {
        UnsafeRawPointer(bitPattern: word & ~observerFlagBits).unsafelyUnwrapped
    }
}
