import HTTPTypes

#if canImport(Glibc)
import Glibc
#endif

/// The fields every response leaves with, whichever door answered it: `Date` (RFC 9110
/// §6.6.1) and `Server`. Written here and nowhere else: ``EventLoopAnswers`` frames its own
/// answers and every head the router writes with it, one instance per connection. The
/// application is given no server name, and the `Date` Hummingbird sets on the router's
/// responses is replaced by this one's, the same text.
struct ResponseFraming {
    let serverName: String
    private var second = 0
    private var date = ""

    /// How many fields ``append(to:)`` adds.
    static let fieldCount = 2

    init(serverName: String) {
        self.serverName = serverName
    }

    /// Appends the fields to `fields`, which hold neither: a ``PlainAnswer``'s.
    mutating func append(to fields: inout HTTPFields) {
        fields.append(HTTPField(name: .date, value: now()))
        fields.append(HTTPField(name: .server, value: serverName))
    }

    /// Sets the fields on a head written elsewhere (the router's), replacing any already
    /// there. An interim response (1xx) is left as it is.
    mutating func frame(_ head: inout HTTPResponse) {
        guard head.status.kind != .informational else { return }
        head.headerFields[.date] = now()
        head.headerFields[.server] = serverName
    }

    /// The `Date` field's text (the IMF-fixdate of RFC 9110 §5.6.7), formatted once a second.
    private mutating func now() -> String {
        let t = time(nil)
        if t != second || date.isEmpty {
            second = t
            var parts = tm()
            var seconds = t
            gmtime_r(&seconds, &parts)
            let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
            date =
                "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        }
        return date
    }
}
