/// Where in the user's code a node was made: captured with `#fileID`/`#line` defaulted
/// parameters on every operator and `subscribe`, so it costs no stack walk and no allocation.
public struct CallSite: Sendable, CustomStringConvertible {
    /// `#fileID`, e.g. `MyApp/main.swift`.
    public let file: StaticString
    public let line: UInt

    public init(_ file: StaticString, _ line: UInt) {
        self.file = file
        self.line = line
    }

    /// The `#fileID` as a string: `MyApp/main.swift`.
    public var fileID: String { file.description }

    /// `main.swift:7`: the file name without its module.
    public var description: String {
        let id = fileID
        let file = id.split(separator: "/").last.map(String.init) ?? id
        return "\(file):\(line)"
    }
}
