extension ObservableType {
    /// The given elements in order, then `completed`.
    ///
    /// ```swift
    /// Observable.of("🐶", "🐱", "🐭", "🐹")
    /// ```
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        ObservableSequence(elements: elements, scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// The array's elements in order, then `completed`.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        ObservableSequence(elements: array, scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// The sequence's elements in order, then `completed`.
    public static func from<Source: Swift.Sequence>(_ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> where Source.Element == Element {
        ObservableSequence(elements: sequence, scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// The optional's value if it has one, then `completed`.
    public static func from(optional: Element?, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        ObservableSequence(elements: optional.map { [$0] } ?? [], scheduler: ImmediateScheduler(), callSite: CallSite(file, line))
    }

    /// The optional's value if it has one, then `completed`, on `scheduler`.
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        ObservableSequence(elements: optional.map { [$0] } ?? [], scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// `element` forever.
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        ObservableSequence(elements: Swift.sequence(first: element) { $0 }, scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// `initialState`, then `iterate` of it, while `condition` holds.
    public static func generate(initialState: Element, condition: @escaping (Element) throws -> Bool, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance, iterate: @escaping (Element) throws -> Element, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        Generate(initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler, callSite: CallSite(file, line))
    }
}

/// Integer types `range`, `interval` and `timer` count with.
public typealias RxAbstractInteger = BinaryInteger & FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
    /// `count` integers from `start`. Fails with `RxError.overflow`… never: an overflowing range
    /// traps in RxSwift; here it is rejected up front by precondition.
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element> {
        precondition(count >= 0, "range: count can't be negative")
        precondition(start &+ (count - 1) >= start || count == 0, "range: start + count overflows")
        return ObservableSequence(elements: RangeSequence(start: start, count: count), scheduler: scheduler, callSite: CallSite(file, line), counter: ResourceCounter.named("RangeProducer"))
    }
}

struct RangeSequence<Element: RxAbstractInteger>: Swift.Sequence, IteratorProtocol {
    var start: Element
    var count: Element

    mutating func next() -> Element? {
        guard count > 0 else { return nil }
        defer {
            count -= 1
            if count > 0 { start += 1 }
        }
        return start
    }
}

/// Emits a sequence's elements one per scheduled step. On the `CurrentThreadScheduler` the sink
/// queues itself on the trampoline for each element (no allocation per element), so sequences
/// subscribed together interleave exactly as RxSwift's do.
final class ObservableSequence<Source: Swift.Sequence>: Producer<Source.Element> {
    typealias Element = Source.Element
    fileprivate let elements: Source
    fileprivate let scheduler: ImmediateSchedulerType

    init(elements: Source, scheduler: ImmediateSchedulerType, callSite: CallSite?, counter: ResourceCounter? = nil) {
        self.elements = elements
        self.scheduler = scheduler
        super.init(counter: counter ?? ResourceCounter.named("ObservableSequence"), callSite: callSite)
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        var iterator = elements.makeIterator()
        let sink = SteppingSink(next: { iterator.next() }, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}

final class Generate<Element>: Producer<Element> {
    private let initialState: Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    private let scheduler: ImmediateSchedulerType

    init(initialState: Element, condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, scheduler: ImmediateSchedulerType, callSite: CallSite?) {
        self.initialState = initialState
        self.condition = condition
        self.iterate = iterate
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.named("Generate"), callSite: callSite)
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        var state = initialState
        var started = false
        let condition = self.condition, iterate = self.iterate
        let sink = SteppingSink(next: { () throws -> Element? in
            if started { state = try iterate(state) }
            started = true
            return try condition(state) ? state : nil
        }, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}

/// Pulls one element per step from `next` (nil ends the sequence, a throw fails it).
final class SteppingSink<Observer: ObserverType>: Sink<Observer>, TrampolineItem {
    typealias Element = Observer.Element
    private let next: () throws -> Element?
    private let scheduler: ImmediateSchedulerType

    init(next: @escaping () throws -> Element?, scheduler: ImmediateSchedulerType, observer: Observer, cancel: Cancelable) {
        self.next = next
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.named("SteppingSink"))
    }

    func run() -> Disposable {
        if scheduler is CurrentThreadScheduler {
            CurrentThreadScheduler.enqueue(self)
            return Disposables.create()
        }
        return scheduler.scheduleRecursive(()) { _, recurse in
            if self.step() { recurse(()) }
        }
    }

    /// One element; true when there may be more.
    private func step() -> Bool {
        do {
            if let element = try next() {
                forwardOn(.next(element))
                return !isDisposed
            }
            forwardOn(.completed)
        } catch {
            forwardOn(.error(error))
        }
        dispose()
        return false
    }

    func invoke() {
        if step() { CurrentThreadScheduler.enqueue(self) }
    }
}

/// Runs work at once, on the calling thread (RxSwift's internal `ImmediateScheduler`).
struct ImmediateScheduler: ImmediateSchedulerType {
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        action(state)
    }
}
