/// Everything tracing keeps per thread, in one object, so a traced call finds all of it with one
/// thread-local lookup: the cached tracer, the thread's number, the virtual clock a
/// `VirtualTimeScheduler` publishes, the run context (`RunContext`), the clock reading the
/// events of one delivery share, and this thread's record buffer in the installed recorder.
///
/// Only ever touched by its own thread (hence the unchecked exclusivity), except that a
/// recorder reads the buffer under its lock. Released when the thread exits,
/// handing what its buffer holds to its recorder first.
final class TraceLocal {
    /// Two types (their metadata addresses) and their numbers in `TraceTypes`; a type not
    /// among them is numbered (under `TraceTypes`' lock) and takes the older one's place.
    struct TypeNumbers {
        var keys: (UInt, UInt) = (0, 0)
        var numbers: (UInt16, UInt16) = (0, 0)

        @inline(__always)
        mutating func number(of type: Any.Type) -> UInt16 {
            let key = UInt(bitPattern: unsafeBitCast(type, to: Int.self))
            if keys.0 == key { return numbers.0 }
            if keys.1 == key { return numbers.1 }
            return missed(type, key)
        }

        @inline(never)
        private mutating func missed(_ type: Any.Type, _ key: UInt) -> UInt16 {
            let number = TraceTypes.number(of: type)
            keys = (key, keys.0)
            numbers = (number, numbers.0)
            return number
        }
    }

    // MARK: Tracer cache (`Tracing.cachedTracer`)
    /// The `Tracing.installCount` at which `tracer` was cached; `.max` when none is installed.
    @exclusivity(unchecked) var tracerInstall: UInt64 = .max
    @exclusivity(unchecked) var tracer: (any RxTracer)?
    /// `tracer` when it is a `TraceRecorder`: the per-element hooks call it directly, with no
    /// existential dispatch and no retain and release (`TraceHook`). Unretained: `tracer` holds
    /// it, and the hooks use it only before they deliver (a delivery may refresh the cache).
    @exclusivity(unchecked) var recorder: Unmanaged<TraceRecorder>?

    // MARK: Context propagation (`TraceContext`)
    /// The installed tracer's `contextPropagation`, cached with it.
    @exclusivity(unchecked) var propagation: (any RxContextPropagation)?
    /// `propagation != nil`, read without copying the existential.
    @exclusivity(unchecked) var carriesContext = false
    /// The context the core has bound on this thread (nil: none): a hop whose context is this
    /// one delivers without binding it again.
    @exclusivity(unchecked) var context: AnyObject?
    /// The context a subject's subscriber carries, from the subject's `traceSubscribe` to its
    /// `tracedHandler` within one `subscribe`.
    @exclusivity(unchecked) var subscriberContext: AnyObject?

    // MARK: Thread number (`TraceThreads.current`)
    @exclusivity(unchecked) var threadIndex: UInt32 = .max

    // MARK: Virtual clock (`TraceClock`)
    @exclusivity(unchecked) var virtualDepth = 0
    @exclusivity(unchecked) var virtualNow: Double = 0

    // MARK: Run context (`RunContext`)
    /// A stack of `frameCapacity` frames, `frameDepth` of them in use: plain memory (frames are
    /// plain data), so a traced delivery's push and pop do no bounds or uniqueness checks.
    @exclusivity(unchecked) var frames = UnsafeMutablePointer<RunContext.Frame>.allocate(capacity: 16)
    @exclusivity(unchecked) var frameCapacity = 16
    @exclusivity(unchecked) var frameDepth = 0
    /// Traced deliveries (`forwardOn` of a traced sink, a subject delivering) under way.
    @exclusivity(unchecked) var deliveries = 0

    /// The observer a sink's `forwardOn` is delivering an element to, which records the sink's
    /// step with its own (`TraceHop.mergesObserved`); 0: none. Set by the sink just before the
    /// delivery, taken by the observer's traced `onNext` first thing.
    @exclusivity(unchecked) var forwardingTo: UInt64 = 0

    // MARK: Observer nodes (`ObserverNode`)
    /// The node a subscription made for its observer, offered to the hop that takes the
    /// observer during `run` (0: none), and the observer's type.
    @exclusivity(unchecked) var offeredObserver: UInt64 = 0
    @exclusivity(unchecked) var offeredObserverType: UInt = 0

    // MARK: Shared clock reading (see `TraceRecorder`)
    /// The last reading of the recorder's clock (`EventClock.now()`).
    @exclusivity(unchecked) var time: UInt64 = 0
    /// The node whose received event read `time` (0: none): its forward reuses the reading.
    @exclusivity(unchecked) var timeReadBy: UInt64 = 0

    // MARK: Record buffer
    /// This thread's buffer in the recorder whose `idBase` is `bufferKey`. Unretained (no
    /// retain and release per record): the recorder holds it until the recorder goes, and it is
    /// used only while `bufferKey` names the recorder using it.
    @exclusivity(unchecked) var unmanagedBuffer: Unmanaged<TraceRecorder.Buffer>?
    @exclusivity(unchecked) var bufferKey: UInt64 = .max

    // MARK: Record types
    /// The last two value types this thread recorded and their numbers in `TraceTypes`: an
    /// element's type costs a compare, not a lookup.
    @exclusivity(unchecked) var recordTypes = TypeNumbers()
    /// The same for the element types of the sinks born on this thread (`TraceElementForm.of`),
    /// kept apart: a birth would push a type the thread's records use out of `recordTypes`.
    @exclusivity(unchecked) var sinkElementTypes = TypeNumbers()

    /// `type`'s number in `TraceTypes.shared`, from this thread's cache.
    @inline(__always)
    func recordTypeNumber(_ type: Any.Type) -> UInt16 { recordTypes.number(of: type) }

    // MARK: Type facts (`TraceTypeFacts`)
    /// An open-addressed table of `typeFactSlots` entries: a type's metadata address, its facts
    /// and, for a `TraceIdentifiable` type, its conformance's witness table (`traceNodeID(of:)`).
    /// A type is looked for from its place (a Fibonacci hash of its address) onwards until it or
    /// an empty entry is met, so each type is found by casts once per thread. (A cache that
    /// evicted, two places a type, kept missing for 16 of a traced cycle's types and cast again:
    /// 17% of a traced subscribe + dispose.) Full to three quarters, it starts again.
    static let typeFactSlots = 256
    @exclusivity(unchecked) var typeFactKeys = UnsafeMutablePointer<UInt>.allocate(capacity: typeFactSlots)
    @exclusivity(unchecked) var typeFactValues = UnsafeMutablePointer<UInt8>.allocate(capacity: typeFactSlots)
    @exclusivity(unchecked) var typeFactWitnesses = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(
        capacity: typeFactSlots)
    @exclusivity(unchecked) var typeFactCount = 0

    init() {
        typeFactKeys.initialize(repeating: 0, count: Self.typeFactSlots)
        typeFactValues.initialize(repeating: 0, count: Self.typeFactSlots)
        typeFactWitnesses.initialize(repeating: nil, count: Self.typeFactSlots)
    }

    /// The entry of the type at `key` (its metadata address), made with what `find` finds on
    /// a miss: read its facts and witness table at the index returned.
    @inline(__always)
    func typeFactEntry(_ key: UInt, _ find: () -> TraceTypeFacts.Found) -> Int {
        let place = Self.typeFactPlace(key)
        if typeFactKeys[place] == key { return place }
        return typeFactEntryFurther(key, place, find)
    }

    /// The entries after the type's place, then `find`: the type takes the first empty one.
    @inline(never)
    private func typeFactEntryFurther(_ key: UInt, _ place: Int, _ find: () -> TraceTypeFacts.Found) -> Int {
        var slot = place
        while typeFactKeys[slot] != 0 {
            if typeFactKeys[slot] == key { return slot }
            slot = (slot + 1) & (Self.typeFactSlots - 1)
        }
        let found = find()
        if typeFactCount >= Self.typeFactSlots * 3 / 4 {
            typeFactKeys.update(repeating: 0, count: Self.typeFactSlots)
            typeFactCount = 0
            slot = place
        }
        typeFactKeys[slot] = key
        typeFactValues[slot] = found.facts.rawValue
        typeFactWitnesses[slot] = found.identifiable
        typeFactCount += 1
        return slot
    }

    @inline(__always)
    private static func typeFactPlace(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    private static let key = ThreadLocal<TraceLocal>(slot: .trace) { TraceLocal() }

    /// This thread's state.
    @inline(__always)
    static var current: TraceLocal { existing ?? key.value }

    /// This thread's state, unretained: `TraceLocal.unmanagedCurrent._withUnsafeGuaranteedRef
    /// { local in … }` uses it with no retain and release (each an atomic instruction), which
    /// the per-element hooks cannot afford.
    @inline(__always)
    static var unmanagedCurrent: Unmanaged<TraceLocal> {
        ThreadLocal<TraceLocal>.unmanagedExisting(.trace) ?? key.unmanagedValue
    }

    /// This thread's state if it was made already.
    @inline(__always)
    static var existing: TraceLocal? { ThreadLocal<TraceLocal>.existing(.trace) }

    /// `existing`, unretained (see `unmanagedCurrent`).
    @inline(__always)
    static var unmanagedExisting: Unmanaged<TraceLocal>? { ThreadLocal<TraceLocal>.unmanagedExisting(.trace) }

    deinit {
        defer {
            frames.deallocate()
            typeFactKeys.deallocate()
            typeFactValues.deallocate()
            typeFactWitnesses.deallocate()
        }
        // The thread exits: its pending records go to the rings of their recorder, when that is
        // still the one this thread holds (else the recorder keeps the buffer and reads it at
        // snapshot). No weak reference to the recorder: one would make every retain and release
        // of it take the slow path.
        if let buffer = unmanagedBuffer, let recorder = tracer as? TraceRecorder, recorder.idBase == bufferKey {
            recorder.retire(buffer.takeUnretainedValue())
        }
    }
}
