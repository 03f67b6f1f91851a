extension ObservableType {
    /// The given elements in order, then `completed`.
    ///
    /// ```swift
    /// Observable.of("🐶", "🐱", "🐭", "🐹")
    /// ```
    public static func of(
        _ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        ObservableSequence(elements: elements, scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// The array's elements in order, then `completed`.
    public static func from(
        _ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        ObservableSequence(elements: array, scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// The sequence's elements in order, then `completed`.
    public static func from<Source: Swift.Sequence>(
        _ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> where Source.Element == Element {
        ObservableSequence(elements: sequence, scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// The optional's value if it has one, then `completed`.
    public static func from(optional: Element?, file: StaticString = #fileID, line: UInt = #line) -> Observable<Element>
    {
        ObservableSequence(
            elements: optional.map { [$0] } ?? [], scheduler: ImmediateScheduler(), callSite: CallSite(file, line))
    }

    /// The optional's value if it has one, then `completed`, on `scheduler`.
    public static func from(
        optional: Element?, scheduler: ImmediateSchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        ObservableSequence(elements: optional.map { [$0] } ?? [], scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// `element` forever.
    public static func repeatElement(
        _ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        ObservableSequence(
            elements: Swift.sequence(first: element) { $0 }, scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// `initialState`, then `iterate` of it, while `condition` holds.
    public static func generate(
        initialState: Element, condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Generate(
            initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler,
            callSite: CallSite(file, line))
    }
}

/// Integer types `range`, `interval` and `timer` count with.
public typealias RxAbstractInteger = BinaryInteger & FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
    /// `count` integers from `start`. Fails with `RxError.overflow`… never: an overflowing range
    /// traps in RxSwift; here it is rejected up front by precondition.
    public static func range(
        start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        precondition(count >= 0, "range: count can't be negative")
        precondition(count == 0 || start <= Element.max - (count - 1), "range: start + count overflows")
        precondition(Int(exactly: count) != nil, "range: count must fit in Int")
        return RangeProducer(start: start, count: count, scheduler: scheduler, callSite: CallSite(file, line))
    }
}

/// Emits a sequence's elements one per scheduled step. On the `CurrentThreadScheduler` the sink
/// queues itself on the trampoline for each element (no allocation per element), so sequences
/// subscribed together interleave exactly as RxSwift's do.
final class ObservableSequence<Source: Swift.Sequence>: Producer<Source.Element> {
    typealias Element = Source.Element
    fileprivate let elements: Source
    fileprivate let scheduler: ImmediateSchedulerType

    init(elements: Source, scheduler: ImmediateSchedulerType, callSite: CallSite?) {
        self.elements = elements
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.rxObservableSequence, callSite: callSite)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink: SteppingSink<Observer>
        if let array = elements as? [Element] {
            sink = ObservableSequenceSink(array, scheduler: scheduler, observer: observer, cancel: cancel)
        } else {
            var iterator = elements.makeIterator()
            sink = ClosureSteppingSink(
                next: { iterator.next() }, scheduler: scheduler, observer: observer, cancel: cancel,
                counter: ResourceCounter.rxObservableSequenceSink)
        }
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}

final class RangeProducer<Element: RxAbstractInteger>: Producer<Element> {
    private let start: Element
    private let count: Element
    private let scheduler: ImmediateSchedulerType

    init(start: Element, count: Element, scheduler: ImmediateSchedulerType, callSite: CallSite?) {
        self.start = start
        self.count = count
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.rxRangeProducer, callSite: callSite)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = RangeSink(start: start, count: count, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}

final class Generate<Element>: Producer<Element> {
    private let initialState: Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    private let scheduler: ImmediateSchedulerType

    init(
        initialState: Element, condition: @escaping (Element) throws -> Bool,
        iterate: @escaping (Element) throws -> Element, scheduler: ImmediateSchedulerType, callSite: CallSite?
    ) {
        self.initialState = initialState
        self.condition = condition
        self.iterate = iterate
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.rxGenerate, callSite: callSite)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        var state = initialState
        var started = false
        let condition = self.condition, iterate = self.iterate
        let sink = ClosureSteppingSink(
            next: { () throws -> Element? in
                if started { state = try iterate(state) }
                started = true
                return try condition(state) ? state : nil
            }, scheduler: scheduler, observer: observer, cancel: cancel, counter: ResourceCounter.rxGenerateSink)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}

/// Emits one element per scheduled step; subclasses say how the next element is made.
class SteppingSink<Observer: ObserverType>: Sink<Observer>, TrampolineItem {
    typealias Element = Observer.Element
    private let scheduler: ImmediateSchedulerType
    /// `self` as a trampoline item, made once (docs/architecture.md, "Generic metadata").
    private unowned(unsafe) var asTrampolineItem: any TrampolineItem

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: SinkDisposer, counter: ResourceCounter) {
        self.scheduler = scheduler
        self.asTrampolineItem = NopTrampolineItem.shared
        super.init(observer: observer, cancel: cancel, counter: counter)
        self.asTrampolineItem = self
    }

    func run() -> Disposable {
        if scheduler is CurrentThreadScheduler {
            CurrentThreadScheduler.enqueue(asTrampolineItem)
            return Disposables.create()
        }
        return scheduler.scheduleRecursive(()) { _, recurse in
            if self.step() { recurse(()) }
        }
    }

    /// Forwards one element, or the end; true when there may be more.
    func step() -> Bool {
        fatalError("SteppingSink.step must be overridden")
    }

    /// Ends the sequence: `completed` (or the error) then dispose.
    final func finish(_ error: Swift.Error? = nil) {
        if let error { forwardOn(.error(error)) } else { forwardOn(.completed) }
        dispose()
    }

    /// One element per trampoline turn, as RxSwift schedules it. While nothing else is queued,
    /// queueing this sink again and taking it straight back off would change nothing, so it
    /// keeps stepping; as soon as other work is queued it yields to it.
    func invoke() {
        let trampoline = CurrentThreadScheduler.trampoline
        while step() {
            if trampoline.hasQueuedWork {
                trampoline.enqueue(asTrampolineItem)
                return
            }
        }
    }
}

/// A placeholder trampoline item, only there until a sink can refer to itself.
final class NopTrampolineItem: TrampolineItem {
    static let shared = NopTrampolineItem()
    var isDisposed: Bool { true }
    func invoke() {}
}

/// Steps through an array by index.
final class ObservableSequenceSink<Observer: ObserverType>: SteppingSink<Observer> {
    private let elements: [Element]
    @exclusivity(unchecked) private var index = 0

    init(_ elements: [Element], scheduler: ImmediateSchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.elements = elements
        super.init(
            scheduler: scheduler, observer: observer, cancel: cancel, counter: ResourceCounter.rxObservableSequenceSink)
    }

    override func step() -> Bool {
        if index < elements.count {
            let element = elements[index]
            index += 1
            forwardNext(element)
            return !isDisposed
        }
        finish()
        return false
    }
}

/// Counts through an integer range. Generic over `Element` as well as `Observer`: a generic
/// argument's metadata is at hand, an associated type's is looked up at each step
/// (docs/architecture.md, "Generic metadata").
final class RangeSink<Element: RxAbstractInteger, Observer: ObserverType>: SteppingSink<Observer>
where Observer.Element == Element {
    // Generic integer arithmetic goes through witness tables, so count down in `Int` and add
    // a stored `one` rather than making literals of `Element` at each step.
    @exclusivity(unchecked) private var next: Element
    @exclusivity(unchecked) private var remaining: Int
    private let one: Element = 1
    /// `Element` is `Int` (the common case): the range then counts in `nextInt`, skipping the
    /// witness-table `&+` and the value-witness copies of generic temporaries.
    private let elementIsInt: Bool
    @exclusivity(unchecked) private var nextInt: Int

    init(start: Element, count: Element, scheduler: ImmediateSchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.next = start
        self.remaining = Int(count)
        self.elementIsInt = Element.self == Int.self
        self.nextInt = elementIsInt ? unsafeBitCast(start, to: Int.self) : 0
        super.init(scheduler: scheduler, observer: observer, cancel: cancel, counter: ResourceCounter.rxRangeSink)
    }

    override func step() -> Bool {
        if elementIsInt && remaining > 0 {
            let element = unsafeBitCast(nextInt, to: Element.self)
            remaining -= 1
            nextInt &+= 1
            forwardNext(element)
            return !isDisposed
        }
        return stepOther()
    }

    /// A step of a range of another integer type, or the end: out of line, so the `Int` step
    /// above sets up no more than it needs.
    @inline(never)
    private func stepOther() -> Bool {
        if remaining > 0 {
            let element = next
            remaining -= 1
            if remaining > 0 { next = next &+ one }
            forwardNext(element)
            return !isDisposed
        }
        finish()
        return false
    }
}

/// Pulls from a closure (nil ends the sequence, a throw fails it).
final class ClosureSteppingSink<Observer: ObserverType>: SteppingSink<Observer> {
    private let next: () throws -> Element?

    /// `counter` names what it stands for in traces: `ObservableSequenceSink`, `GenerateSink`.
    init(
        next: @escaping () throws -> Element?, scheduler: ImmediateSchedulerType, observer: Observer,
        cancel: SinkDisposer, counter: ResourceCounter
    ) {
        self.next = next
        super.init(scheduler: scheduler, observer: observer, cancel: cancel, counter: counter)
    }

    override func step() -> Bool {
        do {
            if let element = try next() {
                forwardNext(element)
                return !isDisposed
            }
            finish()
        } catch {
            finish(error)
        }
        return false
    }
}

/// Runs work at once, on the calling thread (RxSwift's internal `ImmediateScheduler`).
struct ImmediateScheduler: ImmediateSchedulerType {
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        action(state)
    }
}

extension ResourceCounter {
    fileprivate static let rxObservableSequence = named("ObservableSequence")
    fileprivate static let rxObservableSequenceSink = named("ObservableSequenceSink")
    fileprivate static let rxRangeProducer = named("RangeProducer")
    fileprivate static let rxGenerate = named("Generate")
    fileprivate static let rxGenerateSink = named("GenerateSink")
    fileprivate static let rxRangeSink = named("RangeSink")
}
