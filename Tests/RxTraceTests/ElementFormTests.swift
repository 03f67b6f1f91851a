import RxTesting
import RxTrace
import Testing

@testable import RxCore

/// A sink born while tracing keeps the form of its elements in its hop (`TraceElementForm`):
/// a plain one-word element is stored as a word with its type's number, learnt once, and any
/// other asks its type at every record as before. The records must not tell the two apart.
@Suite(.serialized) struct ElementFormTests {
    /// Two halves of one word: plain, eight bytes, neither an `Int` nor a `Double`.
    struct Halves: Equatable {
        var low: Int32
        var high: Int32
    }

    final class Box {}

    @Test func aPlainOneWordTypeIsAWordWithItsNumber() {
        for type in [Int.self, UInt64.self, Double.self, Halves.self, UnsafeRawPointer?.self] as [Any.Type] {
            func form<T>(_: T.Type) -> TraceElementForm { TraceElementForm.of(T.self) }
            let found = _openExistential(type, do: form)
            #expect(found.isWord, "\(type)")
            #expect(found.type == TraceTypes.number(of: type), "\(type)")
        }
    }

    @Test func anyOtherTypeAsksItsType() {
        // Narrower than a word, wider, not plain, or an existential.
        #expect(!TraceElementForm.of(Bool.self).isWord)
        #expect(!TraceElementForm.of(Int32.self).isWord)
        #expect(!TraceElementForm.of(Optional<Int>.self).isWord)
        #expect(!TraceElementForm.of((Int, Int).self).isWord)
        #expect(!TraceElementForm.of(String.self).isWord)
        #expect(!TraceElementForm.of(Box.self).isWord)
        #expect(!TraceElementForm.of(Any.self).isWord)
        #expect(!TraceElementForm.unknown.isWord)
    }

    /// `create` → `map` → `filter` → `subscribe` of one element type: the sinks' three paths
    /// (`create`'s sink receiving and forwarding, `map`'s forwarding, `filter`'s forwarding into
    /// the observer), with `values` as the source's elements.
    private func pipeline<Element>(_ values: [Element], _ keep: @escaping (Element) -> Bool) -> Disposable {
        Observable<Element>.create { observer in
            for value in values { observer.onNext(value) }
            observer.onCompleted()
            return Disposables.create()
        }
        .map { $0 }.filter(keep).subscribe(onNext: { _ in })
    }

    /// Elements of every form through the sinks, recorded on this thread, or on one numbered
    /// past 65,534 (every record in two slots: the path that asks the element's type).
    private func record(onThread thread: UInt32?) -> TraceDocument {
        checkingNoLeaks {
            let local = TraceLocal.current
            let saved = TraceThreads.current(local)
            if let thread { local.threadIndex = thread }
            defer { local.threadIndex = saved }
            return Trace.record {
                let disposables = [
                    pipeline([Int.min, -1, 0, Int.max], { $0 != 0 }),
                    pipeline([-0.0, 1.5, -2.25], { $0 != 1.5 }),
                    pipeline([Halves(low: -1, high: 2), Halves(low: 3, high: -4)], { $0.low < 0 }),
                    pipeline([UInt8(7), 255], { _ in true }),
                    pipeline([Int?.none, 3], { _ in true }),
                    pipeline([(1, -2)], { _ in true }),
                ]
                for d in disposables { d.dispose() }
            }
        }
    }

    @Test func elementsOfEveryFormRecordTheirValues() {
        let packed = record(onThread: nil)
        let wide = record(onThread: 70_000)
        let values = packed.events.compactMap(\.value)
        for value in [
            "\(Int.min)", "-1", "0", "\(Int.max)", "-0.0", "1.5", "-2.25", "Halves(low: -1, high: 2)",
            "Halves(low: 3, high: -4)", "7", "255", "nil", "Optional(3)", "(1, -2)",
        ] {
            // Each value as the source sent it, then again as `map` forwarded it.
            #expect(values.filter { $0 == value }.count >= 2, "\(value)")
        }
        // The one-slot records (the learnt form) read back as the two-slot ones (the type asked).
        func keys(_ document: TraceDocument) -> [String] {
            document.steps.map { "\($0.seq) \($0.call.rawValue) \($0.from)→\($0.to)" }
                + document.events.map { "\($0.seq) \($0.node) \($0.kind.rawValue) \($0.value ?? "-")" }
        }
        #expect(keys(packed) == keys(wide))
        #expect(packed.dropped == DroppedCounts())
    }
}

/// `TraceRecorder.local` tells this recorder's ids from others' with one compare: its numbers
/// run from 1 to 2⁴⁰ − 1 above its base, and anything else is 0.
@Suite(.serialized) struct RecorderLocalIDTests {
    @Test func onlyIDsAboveTheBaseAndWithinItsGenerationAreThisRecorders() {
        let recorder = TraceRecorder()
        let other = TraceRecorder()
        let base = recorder.idBase
        let span: UInt64 = 1 << Tracing.generationShift
        #expect(base != 0 && base % span == 0)
        #expect(recorder.local(base + 1) == 1)
        #expect(recorder.local(base + 12_345) == 12_345)
        #expect(recorder.local(base + span - 1) == span - 1)
        #expect(recorder.local(base) == 0)
        #expect(recorder.local(base + span) == 0)
        #expect(recorder.local(base - 1) == 0)
        #expect(recorder.local(0) == 0)
        #expect(recorder.local(.max) == 0)
        #expect(recorder.local(other.idBase + 1) == 0)
        #expect(other.local(other.idBase + 1) == 1)
    }
}
