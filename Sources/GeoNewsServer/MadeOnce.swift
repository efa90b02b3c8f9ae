import Synchronization

/// A value made by the first caller that asks for it, then kept: the regions with their edges
/// indexed, a file's gzip form. A caller that comes while it is being made waits for it, so
/// only bounded work made from what the server holds goes here, never anything that waits on
/// a client.
final class MadeOnce<Value: Sendable>: Sendable {
    private let made = Mutex<Value?>(nil)

    /// The value, made by `make` if no caller has made it yet.
    func value(_ make: () -> Value) -> Value {
        made.withLock { made in
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}
