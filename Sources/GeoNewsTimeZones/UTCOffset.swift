/// A zone's offset from UTC at one instant, and the local clock it gives.
public struct UTCOffset: Hashable, Sendable, CustomStringConvertible {
    /// Seconds east of UTC: 19 800 for India, -36 000 for `Etc/GMT+10`.
    public let seconds: Int

    public init(seconds: Int) { self.seconds = seconds }

    /// ISO 8601's `±hh:mm` (`+05:30`, `+12:45`, `-10:00`, `+00:00`), with `:ss` only for the
    /// few historical offsets that are not whole minutes.
    public var description: String {
        let sign = seconds < 0 ? "-" : "+"
        let m = seconds.magnitude
        var text = sign + Self.twoDigits(Int(m / 3600)) + ":" + Self.twoDigits(Int(m / 60 % 60))
        if m % 60 != 0 { text += ":" + Self.twoDigits(Int(m % 60)) }
        return text
    }

    /// The local wall-clock `HH:MM` (24-hour) at `instant`, seconds since 1970-01-01T00:00:00Z.
    public func clockTime(at instant: Int64) -> String {
        let local = instant + Int64(seconds)
        let secondOfDay = Int(((local % 86_400) + 86_400) % 86_400)
        return Self.twoDigits(secondOfDay / 3600) + ":" + Self.twoDigits(secondOfDay / 60 % 60)
    }

    private static func twoDigits(_ v: Int) -> String { v < 10 ? "0" + String(v) : String(v) }
}
