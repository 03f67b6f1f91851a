import CRxThreads

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value per thread, created on first use and released when the thread exits.
///
/// Reads go through a C `__thread` slot (one load, see CRxThreads.h) rather than
/// `pthread_getspecific`, a library call: the trampoline is read at every subscription. A
/// pthread key still owns the value, so its destructor releases it when the thread exits.
final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    /// The slots in use: one per `ThreadLocal` (there are two, made once).
    enum Slot: Int32 {
        case trampoline = 0
        case trace = 1
    }

    // `let`s: a stored `var` of a class is read through a dynamic exclusivity check
    // (`swift_beginAccess`), which cost more than the thread-local lookup itself.
    private let key: pthread_key_t
    private let slot: Slot
    private let make: () -> Value

    init(slot: Slot, _ make: @escaping () -> Value) {
        self.make = make
        self.slot = slot
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            let pointer: UnsafeMutableRawPointer? = pointer
            #endif
            guard let pointer else { return }
            // The thread is ending: a late read (another destructor) makes a fresh value.
            for index in 0..<Int32(CRX_THREAD_SLOTS) where crx_thread_slot(index) == pointer {
                crx_set_thread_slot(index, nil)
            }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        self.key = key
    }

    /// This thread's value.
    @inline(__always)
    var value: Value {
        if let pointer = crx_thread_slot(slot.rawValue) {
            return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeValue()
    }

    @inline(never)
    private func makeValue() -> Value {
        let fresh = make()
        let pointer = Unmanaged.passRetained(fresh as AnyObject).toOpaque()
        pthread_setspecific(key, pointer)
        crx_set_thread_slot(slot.rawValue, pointer)
        return fresh
    }

    /// This thread's value, unretained (it lives as long as the thread): for hot paths, where
    /// `_withUnsafeGuaranteedRef` uses it with no retain and release.
    @inline(__always)
    var unmanagedValue: Unmanaged<Value> {
        if let pointer = crx_thread_slot(slot.rawValue) { return Unmanaged<Value>.fromOpaque(pointer) }
        return Unmanaged.passUnretained(makeValue())
    }

    /// `existing`, unretained.
    @inline(__always)
    static func unmanagedExisting(_ slot: Slot) -> Unmanaged<Value>? {
        guard let pointer = crx_thread_slot(slot.rawValue) else { return nil }
        return Unmanaged<Value>.fromOpaque(pointer)
    }

    /// This thread's value if it was made already.
    @inline(__always)
    var existing: Value? { Self.existing(slot) }

    /// The value in `slot` if this thread made it already, without touching the
    /// `ThreadLocal` itself (a lazily made global, so a `swift_once` check per use).
    @inline(__always)
    static func existing(_ slot: Slot) -> Value? {
        guard let pointer = crx_thread_slot(slot.rawValue) else { return nil }
        return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }
}
