import Foundation
import RxCore
import RxTesting
import Testing

private struct Book: Codable, Equatable {
    let title: String
}

@Suite(.serialized, .noLeaks)
struct DecodeTests {
    @Test func decodesEachDataWithTheDecoder() throws {
        let json = Data(#"{"title": "Anatomy"}"#.utf8)
        let plist = try PropertyListEncoder().encode(Book(title: "Plist"))
        #expect(
            recorded {
                $0.createHotObservable([.next(210, json), .completed(300)]).decode(
                    type: Book.self, decoder: JSONDecoder())
            } == [.next(210, Book(title: "Anatomy")), .completed(300)])
        #expect(
            recorded {
                $0.createHotObservable([.next(220, plist), .completed(300)])
                    .decode(type: Book.self, decoder: PropertyListDecoder())
            } == [.next(220, Book(title: "Plist")), .completed(300)])
    }

    @Test func aDecodingFailureEndsTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Data(#"{"title": "A"}"#.utf8)), .next(220, Data("not json".utf8)),
            .next(230, Data(#"{"title": "B"}"#.utf8)),
        ])
        let res = scheduler.start { xs.decode(type: Book.self, decoder: JSONDecoder()) }
        #expect(res.events.count == 2)
        #expect(res.events.first == .next(210, Book(title: "A")))
        #expect(res.events.last?.time == 220)
        #expect(res.events.last?.value.error is DecodingError)
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }
}
