/// An observer that applies each element to a target object on a scheduler (the main scheduler
/// unless told otherwise), holding the target weakly. It cannot fail: an `error` event is a
/// programming error (a trap in debug builds, as in RxSwift); `completed` is ignored.
///
/// ```swift
/// let title = Binder(label) { label, text in label.text = text }
/// names.bind(to: title)
/// ```
public struct Binder<Value>: ObserverType {
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// A binder that calls `binding(target, value)` on `scheduler` for each element, while
    /// `target` is alive.
    public init<Target: AnyObject>(
        _ target: Target, scheduler: ImmediateSchedulerType = MainScheduler.instance,
        binding: @escaping (Target, Value) -> Void
    ) {
        weak let weakTarget = target
        self.binding = { event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { element in
                    if let target = weakTarget { binding(target, element) }
                    return Disposables.create()
                }
            case .error(let error):
                rxFatalErrorInDebug("Binding error: \(error)")
            case .completed:
                break
            }
        }
    }

    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// Type-erases this binder.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}
