/// Why a batch run stopped. Bad records never stop a run: they become rows with `error` set.
public enum BatchResolveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The options or the input's layout do not allow a run (no latitude column, say).
    case usage(String)
    /// An input file could not be opened.
    case inputUnreadable(path: String, reason: String)
    /// Reading an input failed part way.
    case readFailed(path: String, reason: String)
    /// The output could not be created or written.
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .usage(let message): return message
        case .inputUnreadable(let path, let reason): return "cannot open input \(path): \(reason)"
        case .readFailed(let path, let reason): return "cannot read \(path): \(reason)"
        case .writeFailed(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }
}
