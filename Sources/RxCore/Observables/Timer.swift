extension ObservableType where Element: RxAbstractInteger {
    /// 0, 1, 2, … one every `period` on `scheduler`, first after one `period`.
    public static func interval(
        _ period: RxTimeInterval, scheduler: SchedulerType, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Timer(dueTime: period, period: period, scheduler: scheduler, callSite: CallSite(file, line))
    }

    /// 0 after `dueTime`; with a `period`, then 1, 2, … every `period`; without, `completed`.
    public static func timer(
        _ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        Timer(dueTime: dueTime, period: period, scheduler: scheduler, callSite: CallSite(file, line))
    }
}

final class Timer<Element: RxAbstractInteger>: Producer<Element> {
    fileprivate let dueTime: RxTimeInterval
    fileprivate let period: RxTimeInterval?
    fileprivate let scheduler: SchedulerType

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType, callSite: CallSite?) {
        self.dueTime = dueTime
        self.period = period
        self.scheduler = scheduler
        super.init(counter: ResourceCounter.rxTimer, callSite: callSite)
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: Disposable & AnyObject, subscription: Disposable) where Observer.Element == Element {
        let sink = TimerSink(observer: observer, cancel: cancel)
        let subscription: Disposable
        if let period {
            subscription = scheduler.schedulePeriodic(Element(0), startAfter: dueTime, period: period) {
                [weak sink] count in
                sink?.forwardOn(.next(count))
                return count &+ 1
            }
        } else {
            subscription = scheduler.scheduleRelative((), dueTime: dueTime) { [weak sink] _ in
                sink?.forwardOn(.next(0))
                sink?.forwardOn(.completed)
                sink?.dispose()
                return Disposables.create()
            }
        }
        return (sink: sink, subscription: subscription)
    }
}

final class TimerSink<Observer: ObserverType>: Sink<Observer> {
    init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel, counter: ResourceCounter.rxTimerSink)
    }
}

extension ResourceCounter {
    fileprivate static let rxTimer = named("Timer")
    fileprivate static let rxTimerSink = named("TimerSink")
}
