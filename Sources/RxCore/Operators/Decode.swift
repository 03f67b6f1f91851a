import Foundation

/// Something that decodes a value from `Data`: `JSONDecoder` and `PropertyListDecoder` are.
public protocol DataDecoder {
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Each `Data` decoded as an `Item`; a failure to decode ends the sequence with the error.
    ///
    /// ```swift
    /// responses.decode(type: User.self, decoder: JSONDecoder())
    /// ```
    public func decode<Item: Decodable, Decoder: DataDecoder>(
        type: Item.Type, decoder: Decoder, file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Item> {
        map({ try decoder.decode(type, from: $0) }, file: file, line: line)
    }
}
