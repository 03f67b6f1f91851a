import RxCore
import RxTesting
import Testing

/// Counts its disposals.
private class Counting: Disposable, @unchecked Sendable {
    private(set) var count = 0
    func dispose() { count += 1 }
}

/// A disposable that is a struct (held boxed by the core), counting through a class.
private struct CountingValue: Disposable {
    let counter: Counting
    func dispose() { counter.dispose() }
}

/// A struct too big for an existential's three inline words, so it lives in a box of its own.
private struct CountingLargeValue: Disposable {
    let counter: Counting
    let padding = (1, 2, 3, 4)
    func dispose() { counter.dispose() }
}

/// A class whose `Disposable` conformance is its superclass's.
private final class CountingSubclass: Counting, @unchecked Sendable {}

/// A producer whose `run` returns parts a test made: `sink` may be any class (a user's `run` need
/// not return a `Sink`), and `disposeFirst` disposes the `SinkDisposer` before `run` returns.
private final class HandMadeParts: Producer<Int> {
    private let sink: Disposable & AnyObject
    private let subscription: Disposable
    private let disposeFirst: Bool

    init(sink: Disposable & AnyObject, subscription: Disposable, disposeFirst: Bool = false) {
        self.sink = sink
        self.subscription = subscription
        self.disposeFirst = disposeFirst
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Int {
        if disposeFirst { cancel.dispose() }
        return (sink: sink, subscription: subscription)
    }
}

/// A `Sink` that counts its disposals.
private final class CountingSink<Observer: ObserverType>: Sink<Observer> {
    let counter: Counting
    init(observer: Observer, cancel: SinkDisposer, counter: Counting) {
        self.counter = counter
        super.init(observer: observer, cancel: cancel)
    }
    override func dispose() {
        counter.dispose()
        super.dispose()
    }
}

/// A producer whose `run` returns a `CountingSink`, as a user's operator would.
private final class CountingSinkProducer: Producer<Int> {
    let counter = Counting()
    weak var lastSink: AnyObject?

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Int {
        let sink = CountingSink(observer: observer, cancel: cancel, counter: counter)
        lastSink = sink
        return (sink: sink, subscription: Disposables.create())
    }
}

@Suite(.serialized, .noLeaks)
struct DisposableTests {
    @Test func createEmptyDoesNothing() {
        let disposable = Disposables.create()
        disposable.dispose()
        disposable.dispose()
    }

    @Test func createWithActionRunsItOnce() {
        var runs = 0
        let disposable = Disposables.create { runs += 1 }
        #expect(!disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        #expect(runs == 1)
        #expect(disposable.isDisposed)
    }

    @Test(arguments: [2, 3, 4, 7])
    func createOfSeveralDisposesEachOnce(_ count: Int) {
        let parts = (0..<count).map { _ in Counting() }
        let all: Cancelable
        switch count {
        case 2: all = Disposables.create(parts[0], parts[1])
        case 3: all = Disposables.create(parts[0], parts[1], parts[2])
        default: all = Disposables.create(parts[0], parts[1], parts[2], parts[3])
        }
        let array = Disposables.create(parts)
        #expect(!all.isDisposed)
        all.dispose()
        all.dispose()
        #expect(all.isDisposed)
        let expected = count <= 4 ? 1 : 0
        #expect(parts.prefix(min(count, 4)).allSatisfy { $0.count == 1 })
        #expect(parts.dropFirst(4).allSatisfy { $0.count == expected })
        array.dispose()
        #expect(parts.prefix(min(count, 4)).allSatisfy { $0.count == 2 })
        #expect(parts.dropFirst(4).allSatisfy { $0.count == 1 })
    }

    @Test func compositeDisposesMembersAndLateInsertions() {
        let a = Counting(), b = Counting(), c = Counting(), late = Counting()
        let composite = CompositeDisposable(a, b)
        let key = composite.insert(c)
        #expect(composite.count == 3)
        composite.remove(for: key!)
        #expect(c.count == 1, "remove(for:) disposes the removed member")
        #expect(composite.count == 2)
        composite.dispose()
        #expect(a.count == 1 && b.count == 1 && composite.isDisposed)
        #expect(composite.insert(late) == nil)
        #expect(late.count == 1, "inserting into a disposed composite disposes at once")
        composite.dispose()
        #expect(a.count == 1)
    }

    @Test func serialDisposesThePreviousAndLateOnes() {
        let serial = SerialDisposable()
        let first = Counting(), second = Counting(), late = Counting()
        serial.disposable = first
        serial.disposable = second
        #expect(first.count == 1 && second.count == 0)
        serial.dispose()
        #expect(second.count == 1 && serial.isDisposed)
        serial.disposable = late
        #expect(late.count == 1)
    }

    @Test func singleAssignmentDisposesOnSetWhenAlreadyDisposed() {
        let early = SingleAssignmentDisposable()
        let inner = Counting()
        early.dispose()
        #expect(early.isDisposed)
        early.setDisposable(inner)
        #expect(inner.count == 1)

        let normal = SingleAssignmentDisposable()
        let other = Counting()
        normal.setDisposable(other)
        #expect(other.count == 0)
        normal.dispose()
        normal.dispose()
        #expect(other.count == 1)
    }

    @Test func booleanDisposableFlips() {
        let boolean = BooleanDisposable()
        #expect(!boolean.isDisposed)
        boolean.dispose()
        #expect(boolean.isDisposed)
        #expect(BooleanDisposable(isDisposed: true).isDisposed)
    }

    @Test func refCountWaitsForEveryRetainedReference() {
        let underlying = Counting()
        let refCount = RefCountDisposable(disposable: underlying)
        let first = refCount.retain()
        let second = refCount.retain()
        refCount.dispose()
        #expect(underlying.count == 0 && !refCount.isDisposed)
        first.dispose()
        first.dispose()
        #expect(underlying.count == 0, "disposing one reference twice counts once")
        second.dispose()
        #expect(underlying.count == 1 && refCount.isDisposed)
        refCount.dispose()
        #expect(underlying.count == 1)
    }

    @Test func refCountWithNoReferencesDisposesAtOnce() {
        let underlying = Counting()
        let refCount = RefCountDisposable(disposable: underlying)
        refCount.dispose()
        #expect(underlying.count == 1)
    }

    @Test func disposeBagDisposesOnDeinit() {
        let a = Counting(), b = Counting()
        do {
            let bag = DisposeBag()
            bag.insert(a)
            b.disposed(by: bag)
            #expect(a.count == 0 && b.count == 0)
        }
        #expect(a.count == 1 && b.count == 1)
    }

    @Test func disposeBagEndsSubscriptions() {
        let subject = PublishSubject<Int>()
        var bag = DisposeBag()
        let got = Collected<Int>()
        subject.subscribe(onNext: { got.append($0) }).disposed(by: bag)
        subject.onNext(1)
        bag = DisposeBag()
        subject.onNext(2)
        #expect(got.all == [1])
        #expect(!subject.hasObservers)
        _ = bag
    }

    @Test func disposeBagInitialisers() {
        let a = Counting(), b = Counting(), c = Counting()
        do {
            _ = DisposeBag(disposing: a, b)
            _ = DisposeBag(disposing: [c])
        }
        #expect(a.count == 1 && b.count == 1 && c.count == 1)
    }

    @Test func disposeBagBuildersAndArrays() {
        let a = Counting(), b = Counting(), c = Counting(), d = Counting(), e = Counting()
        do {
            let bag = DisposeBag {
                a
                b
            }
            bag.insert([c])
            bag.insert {
                d
                e
            }
            #expect([a, b, c, d, e].allSatisfy { $0.count == 0 })
        }
        #expect([a, b, c, d, e].allSatisfy { $0.count == 1 })
    }

    @Test func compositeOfFourOrMore() {
        let members = (0..<6).map { _ in Counting() }
        let composite = CompositeDisposable(members[0], members[1], members[2], members[3], members[4], members[5])
        #expect(composite.count == 6)
        composite.dispose()
        #expect(members.allSatisfy { $0.count == 1 })
        let four = CompositeDisposable(Counting(), Counting(), Counting(), Counting())
        #expect(four.count == 4)
        four.dispose()
    }

    /// A subscribe handler that completes synchronously makes the sink dispose its
    /// `SinkDisposer` before `setSinkAndSubscription`: the handler's disposable must still be
    /// disposed, when it is handed over.
    @Test func sinkDisposerDisposedBeforeSet() {
        var handlerDisposed = 0
        let observable = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create { handlerDisposed += 1 }
        }
        let log = EventLog<Int>()
        let subscription = observable.subscribe(log)
        #expect(handlerDisposed == 1)
        #expect(log.events == [.next(1), .completed])
        subscription.dispose()
        #expect(handlerDisposed == 1)
    }

    @Test func sinkDisposerDisposedAfterSetDisposesOnce() {
        var handlerDisposed = 0
        let observable = Observable<Int>.create { _ in Disposables.create { handlerDisposed += 1 } }
        let subscription = observable.subscribe(onNext: { _ in })
        #expect(handlerDisposed == 0)
        subscription.dispose()
        subscription.dispose()
        #expect(handlerDisposed == 1)
    }

    /// A `SinkDisposer` holds the sink in its state word: disposing twice disposes the sink once
    /// and lets go of it (the sink and its disposer held each other until then).
    @Test func sinkDisposerSetThenDisposedTwiceDisposesTheSinkOnce() {
        let producer = CountingSinkProducer()
        let subscription = producer.subscribe(EventLog<Int>())
        #expect(producer.lastSink != nil && producer.counter.count == 0)
        #expect(!((subscription as? Cancelable)?.isDisposed ?? true))
        subscription.dispose()
        subscription.dispose()
        #expect(producer.counter.count == 1, "the sink's own dispose, once")
        #expect(producer.lastSink == nil, "released at the first dispose")
        #expect((subscription as? Cancelable)?.isDisposed == true)
    }

    /// A user's `run` may return a sink that is not a `Sink` (any class): the disposer boxes it
    /// and disposes it once with the subscription, then lets go of both.
    @Test func foreignSinkFromAUserRunIsDisposedOnceAndReleased() {
        weak var weakSink: Counting?
        weak var weakPart: Counting?
        let subscription: Disposable
        do {
            let sink = Counting(), part = CountingSubclass()
            weakSink = sink
            weakPart = part
            subscription = HandMadeParts(sink: sink, subscription: part).subscribe(EventLog<Int>())
            #expect(sink.count == 0 && part.count == 0)
            subscription.dispose()
            subscription.dispose()
            #expect(sink.count == 1 && part.count == 1)
        }
        #expect(weakSink == nil && weakPart == nil, "the disposer let go of both")
        _ = subscription
    }

    /// Disposed before `run` returned: the sink and the subscription are disposed when handed
    /// over, once, whether the sink is a `Sink` or another class.
    @Test func foreignSinkDisposedBeforeSetIsDisposedOnSet() {
        weak var weakSink: Counting?
        let value = Counting()
        let subscription: Disposable
        do {
            let sink = Counting()
            weakSink = sink
            subscription = HandMadeParts(sink: sink, subscription: CountingValue(counter: value), disposeFirst: true)
                .subscribe(EventLog<Int>())
            #expect(sink.count == 1 && value.count == 1)
            subscription.dispose()
            #expect(sink.count == 1 && value.count == 1)
        }
        #expect((subscription as? Cancelable)?.isDisposed == true)
        #expect(weakSink == nil, "let go of when disposed on set")
    }

    /// A disposer that is let go of undisposed (its sink does not hold it, as a `Sink` would) lets
    /// go of the sink it holds.
    @Test func undisposedSinkDisposerReleasesItsForeignSink() {
        weak var weakSink: Counting?
        do {
            let sink = Counting()
            weakSink = sink
            _ = HandMadeParts(sink: sink, subscription: Disposables.create()).subscribe(EventLog<Int>())
            #expect(sink.count == 0)
        }
        #expect(weakSink == nil)
    }

    /// A struct returned from `create`'s handler is held boxed by the `SinkDisposer` and still
    /// disposed once, whether disposal comes after `run` returned or before.
    @Test func structDisposableFromCreate() {
        let afterSet = Counting(), beforeSet = Counting(), large = Counting()
        let later = Observable<Int>.create { _ in CountingValue(counter: afterSet) }.subscribe(onNext: { _ in })
        let early = Observable<Int>.create { observer in
            observer.onCompleted()
            return CountingValue(counter: beforeSet)
        }.subscribe(onNext: { _ in })
        #expect(beforeSet.count == 1, "completed inside the handler: disposed when handed over")
        let big = Observable<Int>.create { _ in CountingLargeValue(counter: large) }.map { $0 }.subscribe()
        #expect(afterSet.count == 0 && large.count == 0)
        later.dispose()
        later.dispose()
        early.dispose()
        big.dispose()
        #expect(afterSet.count == 1 && beforeSet.count == 1 && large.count == 1)
    }

    /// `Disposables.create(a, b)` of structs, of a subclass and of the no-op disposes each
    /// part once and reports it.
    @Test func binaryOfStructsAndSubclasses() {
        let a = Counting(), b = CountingSubclass(), c = Counting()
        let values = Disposables.create(CountingValue(counter: a), CountingLargeValue(counter: c))
        let mixed = Disposables.create(b, Disposables.create())
        #expect(!values.isDisposed && !mixed.isDisposed)
        values.dispose()
        mixed.dispose()
        values.dispose()
        mixed.dispose()
        #expect(values.isDisposed && mixed.isDisposed)
        #expect(a.count == 1 && b.count == 1 && c.count == 1)
    }
}
