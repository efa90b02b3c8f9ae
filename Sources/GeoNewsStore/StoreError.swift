/// Why the store could not do what it was asked.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The database file or its directory could not be opened or migrated.
    case cannotOpen(path: String, reason: String)
    /// The store's address (`--store`) is not one the server can use; the reason names the part.
    case badLocation(String)
    /// The database server cannot be reached, refused the connection, or did not answer within
    /// the deadline: the request may succeed later.
    case unavailable(String)
    /// A query failed (disk full, I/O error, a corrupt file).
    case failed(String)
    /// A selector named more than one row where one was meant.
    case ambiguous(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "the state database \(path) cannot be opened: \(reason); check --state-dir and its permissions"
        case .badLocation(let reason):
            return "--store: \(reason)"
        case .unavailable(let reason):
            return "the store is unavailable: \(reason)"
        case .failed(let reason):
            return "the state database failed: \(reason)"
        case .ambiguous(let reason):
            return reason
        }
    }
}
