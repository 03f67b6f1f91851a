#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value per thread, created on first use and released when the thread exits.
final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    // A `let`: a stored `var` of a class is read through a dynamic exclusivity check
    // (`swift_beginAccess`), which cost more than the thread-local lookup itself.
    private let key: pthread_key_t
    private let make: () -> Value

    init(_ make: @escaping () -> Value) {
        self.make = make
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
        self.key = key
    }

    /// This thread's value.
    @inline(__always)
    var value: Value {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
        }
        let fresh = make()
        pthread_setspecific(key, Unmanaged.passRetained(fresh as AnyObject).toOpaque())
        return fresh
    }

    /// This thread's value, unretained (it lives as long as the thread): for hot paths, where
    /// `_withUnsafeGuaranteedRef` uses it with no retain and release.
    @inline(__always)
    var unmanagedValue: Unmanaged<Value> {
        if let pointer = pthread_getspecific(key) { return Unmanaged<Value>.fromOpaque(pointer) }
        return Unmanaged.passUnretained(value)
    }

    /// This thread's value if it was made already.
    @inline(__always)
    var existing: Value? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }
}
