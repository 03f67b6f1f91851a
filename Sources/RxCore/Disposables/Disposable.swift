/// Something that holds resources and can release them.
public protocol Disposable {
    /// Releases the resources. Calling it again does nothing.
    func dispose()
}

/// A disposable that knows whether it has been disposed.
public protocol Cancelable: Disposable {
    var isDisposed: Bool { get }
}

/// Base class of the core's disposables: counts itself and, when tracing, is a trace node.
open class DisposeBase: TraceIdentifiable {
    // Not retained: counters live as long as the process (the registry holds them).
    let resourceCounter: Unmanaged<ResourceCounter>
    /// Trace node id (0 when not traced).
    public let traceID: UInt64

    /// `counter` names the type in resource counts; subclasses outside the core may omit it.
    public init(counter: __shared ResourceCounter? = nil, callSite: CallSite? = nil) {
        let counter = counter ?? ResourceCounter.named("Disposable")
        self.resourceCounter = Unmanaged.passUnretained(counter)
        self.traceID = rxBirth(counter, .disposable, callSite)
    }

    deinit { rxDeath(resourceCounter, traceID) }
}

extension Disposable {
    /// Adds `self` to `bag`, which disposes it when the bag is deallocated.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
