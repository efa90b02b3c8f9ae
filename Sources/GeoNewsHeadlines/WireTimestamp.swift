import Foundation
import GeoNewsCalendar

/// Parsing and printing of the two timestamp forms the providers use: RFC 2822 (RSS `pubDate`)
/// and ISO 8601 (NewsAPI and GNews `publishedAt`).
///
/// Hand-written rather than `DateFormatter`-based: formatters are not `Sendable`, are costly to
/// build, and their RFC 2822 handling depends on the locale data present on the machine.
enum WireTimestamp {
    /// Parses RFC 2822 / RFC 822 dates such as `Wed, 01 May 2024 09:30:00 GMT` or
    /// `1 May 2024 11:30 +0200`. The weekday and seconds are optional; zones are `GMT`, `UT`,
    /// `UTC`, `Z`, the North American names (`EST` … `PDT`) or `±hhmm`. Returns `nil` otherwise.
    static func rfc2822(_ text: String) -> Date? {
        var fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if let first = fields.first, first.hasSuffix(",") || Int(first) == nil { fields.removeFirst() }
        guard fields.count == 5 || fields.count == 4,
            let day = Int(fields[0]),
            let month = monthNumbers[fields[1].lowercased().prefix(3).description],
            var year = Int(fields[2])
        else { return nil }
        if year < 100 { year += year < 50 ? 2000 : 1900 }
        let clock = fields[3].split(separator: ":").map { Int($0) }
        guard clock.count == 2 || clock.count == 3, let hour = clock[0], let minute = clock[1] else { return nil }
        let second = clock.count == 3 ? clock[2] : 0
        guard let second else { return nil }
        let offset = fields.count == 5 ? zoneOffsetSeconds(fields[4]) : 0
        guard let offset else { return nil }
        return date(
            year: year, month: month, day: day, hour: hour, minute: minute, second: Double(second),
            offsetSeconds: offset)
    }

    /// Parses ISO 8601 timestamps `2024-05-01T09:30:00Z`, with optional fractional seconds and a
    /// `Z` or `±hh:mm` / `±hhmm` offset. Returns `nil` otherwise.
    static func iso8601(_ text: String) -> Date? {
        let s = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= s.count else { return nil }
            var value = 0
            for byte in s[range] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard s.count >= 19, s[4] == 45, s[7] == 45, s[10] == 84 || s[10] == 32, s[13] == 58, s[16] == 58,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let whole = number(17..<19)
        else { return nil }
        var index = 19
        var second = Double(whole)
        if index < s.count, s[index] == 46 {
            var scale = 0.1
            index += 1
            while index < s.count, s[index] >= 48, s[index] <= 57 {
                second += Double(s[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        let zone = String(decoding: s[index...], as: UTF8.self)
        guard let offset = zone.isEmpty ? 0 : zoneOffsetSeconds(zone.replacingOccurrences(of: ":", with: ""))
        else { return nil }
        return date(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            offsetSeconds: offset)
    }

    /// Parses GDELT's `seendate`, `20240501T093000Z` (UTC). Returns `nil` otherwise.
    static func gdelt(_ text: String) -> Date? {
        let s = Array(text)
        guard s.count == 16, s[8] == "T", s[15] == "Z" else { return nil }
        let digits = String(s[0..<8]) + String(s[9..<15])
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        let d = Array(digits)
        return iso8601(
            "\(String(d[0..<4]))-\(String(d[4..<6]))-\(String(d[6..<8]))T\(String(d[8..<10])):\(String(d[10..<12])):\(String(d[12..<14]))Z")
    }

    /// `20240501093000`, GDELT's `startdatetime` / `enddatetime` form (UTC).
    static func gdeltQueryString(_ date: Date) -> String {
        iso8601String(date).filter(\.isNumber).prefix(14).description
    }

    /// `2024-05-01T09:30:00Z`: whole seconds, UTC.
    static func iso8601String(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = CivilDate.date(ofDay: days)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day,
            secondsOfDay / 3600, secondsOfDay / 60 % 60, secondsOfDay % 60)
    }

    private static let monthNumbers: [String: Int] = [
        "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
        "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
    ]

    private static let namedZones: [String: Int] = [
        "GMT": 0, "UT": 0, "UTC": 0, "Z": 0,
        "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
    ]

    private static func zoneOffsetSeconds(_ zone: String) -> Int? {
        if let hours = namedZones[zone.uppercased()] { return hours * 3600 }
        let utf8 = Array(zone.utf8)
        guard utf8.count == 5, utf8[0] == 43 || utf8[0] == 45,
            let hh = Int(String(decoding: utf8[1..<3], as: UTF8.self)),
            let mm = Int(String(decoding: utf8[3..<5], as: UTF8.self)), hh < 24, mm < 60
        else { return nil }
        return (utf8[0] == 45 ? -1 : 1) * (hh * 3600 + mm * 60)
    }

    private static func date(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double, offsetSeconds: Int
    ) -> Date? {
        // Years of four digits: a feed's `pubDate` may say any number, and the day count below
        // would overflow for the largest.
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), second >= 0, second < 61
        else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 - offsetSeconds) + second
        return Date(timeIntervalSince1970: seconds)
    }
}
