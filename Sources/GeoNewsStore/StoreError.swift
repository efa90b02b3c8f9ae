/// Why the store could not do what it was asked.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The database file or its directory could not be opened or migrated.
    case cannotOpen(path: String, reason: String)
    /// A query failed (disk full, I/O error, a corrupt file).
    case failed(String)
    /// A selector named more than one row where one was meant.
    case ambiguous(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "the state database \(path) cannot be opened: \(reason); check --state-dir and its permissions"
        case .failed(let reason):
            return "the state database failed: \(reason)"
        case .ambiguous(let reason):
            return reason
        }
    }
}
