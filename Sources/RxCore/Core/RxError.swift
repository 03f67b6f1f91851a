/// The errors the core itself produces.
public enum RxError: Swift.Error, CustomDebugStringConvertible {
    case unknown
    /// Subscribed to a disposed subject.
    case disposed(object: AnyObject)
    /// An arithmetic overflow (e.g. in `range`).
    case overflow
    /// An argument was out of range (e.g. `element(at:)`).
    case argumentOutOfRange
    /// The sequence had no elements where one was required.
    case noElements
    /// The sequence had more than one element where one was required.
    case moreThanOneElement
    /// `timeout` fired.
    case timeout

    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }
}
