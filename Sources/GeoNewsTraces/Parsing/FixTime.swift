import GeoNewsBoundaries
import GeoNewsCalendar
import GeoNewsTimeZones

/// Fix times as they appear in traces: ISO 8601 (`2024-05-01T12:30:00Z`, with fractions or a
/// `±HH:MM` offset, a space for the `T`, or a bare date) or Unix epoch seconds (`1714566600`,
/// `1714566600.25`). Times are kept as written for output; they are parsed only where the
/// summary needs arithmetic (the time of a border crossing between two fixes).
enum FixTime {
    /// Seconds since 1970-01-01T00:00:00Z, or `nil` when `text` is neither form. A time
    /// without an offset is taken as UTC.
    static func epochSeconds(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { epochSeconds($0) }
    }

    /// The instants a fix time may name, in seconds since the epoch: the years 1 to 9999 that
    /// ISO 8601's four digits write. A time beyond (`1e300` epoch seconds) counts as no time,
    /// like text that is not one, so that no later conversion to whole days or seconds traps.
    static let epochRange: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    static func epochSeconds(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        parsedSeconds(b).flatMap { epochRange.contains($0) ? $0 : nil }
    }

    private static func parsedSeconds(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !b.isEmpty else { return nil }
        if b.count < 10 || b[4] != UInt8(ascii: "-") { return DecimalParser.parse(b) }
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= b.count else { return nil }
            var v = 0
            for k in i..<(i + width) {
                let d = b[k] &- 48
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            i += width
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2),
            expect(UInt8(ascii: "-")), let day = number(2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = Double(CivilDate.days(year: year, month: month, day: day)) * 86_400
        guard i < b.count else { return seconds }
        guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == 0x20 else { return nil }
        i += 1
        guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2),
            hour <= 24, minute < 60
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if expect(UInt8(ascii: ":")) {
            guard let second = number(2), second <= 60 else { return nil }
            seconds += Double(second)
            if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                i += 1
                var scale = 0.1
                let start = i
                while i < b.count, b[i] &- 48 < 10 { seconds += Double(b[i] &- 48) * scale; scale /= 10; i += 1 }
                guard i > start else { return nil }
            }
        }
        guard i < b.count else { return seconds }
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            return i + 1 == b.count ? seconds : nil
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = b[i] == UInt8(ascii: "+") ? 1.0 : -1.0
            i += 1
            guard let oh = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            let om = i < b.count ? (number(2) ?? -1) : 0
            guard om >= 0, i == b.count else { return nil }
            return seconds - sign * Double(oh * 3600 + om * 60)
        default:
            return nil
        }
    }

    /// `seconds` since the epoch as ISO 8601, to the millisecond when not whole: in UTC
    /// (`…Z`), or as the local time at `offset` (`2024-05-01T10:30:00+02:00`). Takes times
    /// from ``epochSeconds(_:)``, within ``epochRange``; beyond a day outside it (or NaN) the
    /// text is the number of seconds itself.
    static func iso8601(_ seconds: Double, offset: UTCOffset? = nil) -> String {
        let seconds = seconds + Double(offset?.seconds ?? 0)
        let whole = seconds.rounded(.down)
        guard whole >= epochRange.lowerBound - 86_400, whole <= epochRange.upperBound + 86_400,
            let days = Int(exactly: (whole / 86_400).rounded(.down)), let wholeSeconds = Int(exactly: whole)
        else { return "\(seconds)" }
        let rest = wholeSeconds - days * 86_400
        let (y, m, d) = CivilDate.date(ofDay: days)
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        var text = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rest / 3600, 2)):\(pad(rest / 60 % 60, 2)):\(pad(rest % 60, 2))"
        let millis = Int(((seconds - whole) * 1000).rounded())
        if millis > 0 && millis < 1000 { text += "." + pad(millis, 3) }
        return text + (offset.map(\.description) ?? "Z")
    }
}
