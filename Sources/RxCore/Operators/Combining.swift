import Foundation
import Synchronization

// The machinery `combineLatest` and `zip` share: N sources whose elements are collected into
// slots of one `Value` type (the element type for the collection forms, `Any` for the forms
// with the sources as arguments, written once over a parameter pack), a state machine that
// decides when to emit, and a sink that carries out its actions.

/// What a combining sink must do after a transition, outside the state lock.
enum CombiningAction<Value> {
    /// Nothing.
    case none
    /// Combine these values and send the result.
    case emit([Value])
    /// Source `index` is done: dispose its subscription.
    case disposeSource(Int)
    /// Send `completed` and dispose everything.
    case complete
    /// Send the error and dispose everything.
    case fail
}

/// The state of `combineLatest` or `zip`.
protocol CombiningStateMachine {
    associatedtype Value
    /// Whether no sources at all still make one combination (of `[]`) before completing.
    static var combinesNoSources: Bool { get }
    /// A machine for `arity` sources. `completesEarly`: whether it completes as soon as no
    /// combination can come any more, before every source has completed.
    init(arity: Int, completesEarly: Bool)
    mutating func next(_ value: Value, at index: Int) -> CombiningAction<Value>
    mutating func completed(at index: Int) -> CombiningAction<Value>
    mutating func failed() -> CombiningAction<Value>
}

/// Receives the events of the sources of a combining sink, tagged with the source's index.
protocol CombiningReceiver<Value>: AnyObject {
    associatedtype Value
    /// The receiving sink's trace node.
    var traceID: UInt64 { get }
    func receive(_ event: Event<Value>, from index: Int)
    func receiveNext(_ value: Value, from index: Int)
}

/// One source of `combineLatest`/`zip`, with its elements converted to the slot type.
@usableFromInline
struct CombiningSource<Value> {
    let observable: AnyObject
    let subscribe: (any CombiningReceiver<Value>, Int, ResourceCounter) -> Disposable

    init<Element>(_ source: Observable<Element>, convert: @escaping (Element) -> Value) {
        observable = source
        subscribe = { receiver, index, counter in
            source.subscribe(CombiningObserver(receiver: receiver, index: index, convert: convert, counter: counter))
        }
    }
}

extension CombiningSource where Value == Any {
    init<Source: ObservableType>(any source: Source) {
        self.init(source.asObservable(), convert: { $0 })
    }

    /// The sources of a form that takes them as arguments, in order, their elements in `Any`
    /// slots (`CombiningSlots` takes them out again as their own types).
    @usableFromInline
    static func of<each Source: ObservableType>(_ source: repeat each Source) -> [CombiningSource<Any>] {
        var sources: [CombiningSource<Any>] = []
        for source in repeat each source { sources.append(CombiningSource(any: source)) }
        return sources
    }
}

/// One combination's `Any` slots, read back in order, each as its source's element type: what
/// turns `[Any]` into the arguments of a result selector or the items of a tuple, for any number
/// of sources.
///
/// The closures are made here, generic over the elements' types themselves, rather than in the
/// operators' entry points, generic over the sources' types: there each element's type would be
/// an associated type (`(each O).Element`), looked up again at every combination. The entry
/// points that make them are `@inlinable`, so that a call with concrete types gets a closure
/// specialised for them: unspecialised, a pack is built through a tuple whose type metadata the
/// runtime looks up at every combination (docs/performance.md, "zip and combineLatest over a
/// parameter pack").
@usableFromInline
struct CombiningSlots {
    @usableFromInline let values: [Any]
    @usableFromInline var index = 0

    @inlinable init(_ values: [Any]) { self.values = values }

    @inlinable mutating func next<T>(_: T.Type) -> T {
        defer { index += 1 }
        return values[index] as! T
    }

    /// `selector` applied to a combination's slots.
    @inlinable
    static func combine<each E, Result>(
        _ selector: @escaping (repeat each E) throws -> Result
    ) -> ([Any]) throws -> Result {
        { values in
            var slots = CombiningSlots(values)
            return try selector(repeat slots.next((each E).self))
        }
    }

    /// A combination's slots as a tuple.
    @inlinable
    static func tuple<each E>(of _: repeat (each E).Type) -> ([Any]) -> (repeat each E) {
        { values in
            var slots = CombiningSlots(values)
            return (repeat slots.next((each E).self))
        }
    }
}

/// Subscribed to one source; converts its elements and hands them to the sink with its index.
final class CombiningObserver<Element, Value>: ObserverBase<Element> {
    private let receiver: any CombiningReceiver<Value>
    private let index: Int
    private let convert: (Element) -> Value

    init(
        receiver: any CombiningReceiver<Value>, index: Int, convert: @escaping (Element) -> Value,
        counter: ResourceCounter
    ) {
        self.receiver = receiver
        self.index = index
        self.convert = convert
        super.init(counter: counter)
        traceEdge(traceID, receiver.traceID, .forward)
    }

    override func onNextCore(_ element: Element) {
        receiver.receiveNext(convert(element), from: index)
    }

    override func onCore(_ event: Event<Element>) {
        switch event {
        case .next(let element): onNextCore(element)
        case .error(let error): receiver.receive(.error(error), from: index)
        case .completed: receiver.receive(.completed, from: index)
        }
    }
}

/// The sink shared by `combineLatest` and `zip` (their final subclasses only name it).
///
/// Transitions run under a `Mutex`; actions (combining, sending, disposing) run after it is
/// released, under a recursive `gate` so downstream sees one event at a time even when a
/// source is fed from inside a downstream subscriber.
class CombiningSink<Machine: CombiningStateMachine, Observer: ObserverType>: Sink<Observer>, CombiningReceiver {
    typealias Value = Machine.Value

    private let gate = NSRecursiveLock()
    private let machine: Mutex<Machine>
    private let combine: ([Value]) throws -> Observer.Element
    private var subscriptions: [SingleAssignmentDisposable] = []
    /// Whether a source that ends has its own subscription disposed before the sink acts on
    /// the end, as RxSwift's per-arity forms do (`ZipObserver`, `CombineLatestObserver`); its
    /// collection forms act first and dispose after.
    private let disposesEndedSourceFirst: Bool

    init(
        arity: Int, completesEarly: Bool, disposesEndedSourceFirst: Bool,
        combine: @escaping ([Value]) throws -> Observer.Element, observer: Observer, cancel: SinkDisposer,
        counter: ResourceCounter
    ) {
        self.machine = Mutex(Machine(arity: arity, completesEarly: completesEarly))
        self.combine = combine
        self.disposesEndedSourceFirst = disposesEndedSourceFirst
        super.init(observer: observer, cancel: cancel, counter: counter)
    }

    func run(_ sources: [CombiningSource<Value>], observerCounter: ResourceCounter) -> Disposable {
        subscriptions = sources.map { _ in SingleAssignmentDisposable() }
        let all = Disposables.create(subscriptions)
        if sources.isEmpty {
            if Machine.combinesNoSources { perform(.emit([]), error: nil) }
            forwardCompletedAndDispose()
            return all
        }
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(self, index, observerCounter))
        }
        return all
    }

    final func receiveNext(_ value: Value, from index: Int) {
        gate.lock(); defer { gate.unlock() }
        perform(machine.withLock { $0.next(value, at: index) }, error: nil)
    }

    final func receive(_ event: Event<Value>, from index: Int) {
        gate.lock(); defer { gate.unlock() }
        switch event {
        case .next(let value):
            perform(machine.withLock { $0.next(value, at: index) }, error: nil)
        case .error(let error):
            if disposesEndedSourceFirst { subscriptions[index].dispose() }
            perform(machine.withLock { $0.failed() }, error: error)
        case .completed:
            if disposesEndedSourceFirst { subscriptions[index].dispose() }
            perform(machine.withLock { $0.completed(at: index) }, error: nil)
        }
    }

    private func perform(_ action: CombiningAction<Value>, error: Swift.Error?) {
        switch action {
        case .none:
            break
        case .emit(let values):
            do {
                forwardNext(try combine(values))
            } catch {
                _ = machine.withLock { $0.failed() }
                forwardOn(.error(error))
                dispose()
            }
        case .disposeSource(let index):
            subscriptions[index].dispose()
        case .complete:
            forwardOn(.completed)
            dispose()
        case .fail:
            forwardOn(.error(error ?? RxError.unknown))
            dispose()
        }
    }
}
