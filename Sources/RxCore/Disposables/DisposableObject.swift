/// A disposable held as the object it is: 16 bytes where an `any Disposable` takes 40, copied
/// and released with plain retains rather than through the runtime's value witnesses, and nil
/// (a null pointer) for "nothing to dispose" (docs/architecture.md, "Class-bound disposables").
typealias DisposableObject = Disposable & AnyObject

/// `disposable` as a `DisposableObject`: the instance itself when it is one (nearly every
/// disposable is: sink disposers, subjects' subscriptions, `Disposables.create(with:)`), nil for
/// the shared no-op, a box around anything else (a struct of user code).
///
/// Without a runtime cast: `as? Disposable & AnyObject` would look the conformance up in the
/// runtime's tables at every subscription. An `any Disposable` is three words of value, its
/// type's metadata and the type's `Disposable` witness table (the layouts of Swift's stable
/// ABI); a class instance keeps its reference in the first word, and a class's metadata starts
/// with the kind 0 (or, where Objective-C interop exists, an isa pointer, above every other
/// kind). A class existential is the reference and that same witness table, so the two words
/// move across as they are.
@inline(__always)
func disposableObject(_ disposable: consuming Disposable) -> DisposableObject? {
    // Worked on where it lies (a copy would go through the type's value witnesses).
    withUnsafeMutablePointer(to: &disposable) { container in
        let raw = UnsafeMutableRawPointer(container)
        let metadata = raw.load(fromByteOffset: 24, as: UnsafeRawPointer.self)
        let kind = metadata.load(as: UInt.self)
        guard kind == 0 || kind > maximumNonClassMetadataKind else {
            if metadata == nopDisposableMetadata { return nil }
            return DisposableBox(container.pointee)
        }
        // Moved, not copied: the reference's +1 goes to the result, and the container is
        // refilled with a no-op (`initialize`, so the moved reference is not released).
        raw.storeBytes(of: raw.load(fromByteOffset: 32, as: UInt.self), toByteOffset: 8, as: UInt.self)
        let object = raw.withMemoryRebound(to: DisposableObject.self, capacity: 1) { $0.move() }
        container.initialize(to: NopDisposable())
        return object
    }
}

/// Metadata kinds that are not classes are at most this (MetadataKind.h in Swift's runtime).
private var maximumNonClassMetadataKind: UInt { 0x7FF }

private var nopDisposableMetadata: UnsafeRawPointer {
    @inline(__always) get { unsafeBitCast(NopDisposable.self as Any.Type, to: UnsafeRawPointer.self) }
}

/// A disposable that is not a class (a struct of user code), boxed to be held as a
/// `DisposableObject`. Not counted in `Resources` (RxSwift makes no such object); the trace
/// sees the disposable inside.
final class DisposableBox: Disposable, TraceStandIn {
    private let disposable: Disposable

    init(_ disposable: __owned Disposable) { self.disposable = disposable }

    func dispose() { disposable.dispose() }

    var traceTargetID: UInt64 { traceNodeID(of: disposable) }
    var traceTargetRecordsOwnEvents: Bool { false }
}
