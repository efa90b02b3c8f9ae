import GeoNewsCalendar

/// The rule a TZif file's footer states for every instant after its last transition (POSIX
/// TZ string, with RFC 8536's extensions: hours from −167 to 167 in a rule's time), e.g.
/// `<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45` for the Chatham Islands.
struct PosixZoneRule: Sendable, Equatable {
    /// Seconds east of UTC in standard time, and in daylight time when the zone has one.
    let standardOffset: Int
    let daylight: Daylight?

    struct Daylight: Sendable, Equatable {
        let offset: Int
        let start: DateRule
        let end: DateRule
    }

    /// A day of the year (`Mm.w.d`, `Jn` or `n`) and the local time of day (seconds) at which a
    /// change happens.
    struct DateRule: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// Weekday `weekday` (0 = Sunday) of week `week` (1…5, 5 = the last) of `month`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
            /// Day 1…365, February 29 never counted.
            case julianNoLeap(Int)
            /// Day 0…365, February 29 counted.
            case zeroBased(Int)
        }
        let day: Day
        let time: Int
    }

    /// Parses the footer; `nil` when it is not a TZ string this reader understands.
    init?(_ text: String) {
        var s = Substring(text)
        guard Self.name(&s), let std = Self.offset(&s) else { return nil }
        standardOffset = -std
        if s.isEmpty {
            daylight = nil
            return
        }
        guard Self.name(&s) else { return nil }
        var dst = standardOffset + 3600
        if let first = s.first, first != "," {
            guard let explicit = Self.offset(&s) else { return nil }
            dst = -explicit
        }
        guard s.first == "," else { return nil }
        s = s.dropFirst()
        guard let start = Self.rule(&s), s.first == "," else { return nil }
        s = s.dropFirst()
        guard let end = Self.rule(&s), s.isEmpty else { return nil }
        daylight = Daylight(offset: dst, start: start, end: end)
    }

    /// Seconds east of UTC at `instant` (seconds since 1970-01-01T00:00:00Z).
    func offset(at instant: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = CivilDate.year(ofDay: Int((instant + Int64(standardOffset)).floorDivided(by: 86_400)))
        // The change to daylight time happens at a standard-time clock reading, the change
        // back at a daylight-time one.
        let start = Int64(daylight.start.secondsIntoYear(year) + CivilDate.days(year: year, month: 1, day: 1) * 86_400 - standardOffset)
        let end = Int64(daylight.end.secondsIntoYear(year) + CivilDate.days(year: year, month: 1, day: 1) * 86_400 - daylight.offset)
        let inDaylight = start < end ? (instant >= start && instant < end) : !(instant >= end && instant < start)
        return inDaylight ? daylight.offset : standardOffset
    }

    // MARK: parsing

    private static func name(_ s: inout Substring) -> Bool {
        if s.first == "<" {
            guard let close = s.firstIndex(of: ">") else { return false }
            s = s[s.index(after: close)...]
            return true
        }
        let letters = s.prefix { $0.isLetter }
        guard letters.count >= 3 else { return false }
        s = s.dropFirst(letters.count)
        return true
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, hours up to 167.
    private static func offset(_ s: inout Substring) -> Int? {
        var sign = 1
        if s.first == "+" || s.first == "-" {
            if s.first == "-" { sign = -1 }
            s = s.dropFirst()
        }
        var parts: [Int] = []
        while parts.count < 3 {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard let value = Int(digits) else { return nil }
            parts.append(value)
            s = s.dropFirst(digits.count)
            guard s.first == ":" else { break }
            s = s.dropFirst()
        }
        guard parts[0] <= 167, parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let seconds = parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
        return sign * seconds
    }

    private static func rule(_ s: inout Substring) -> DateRule? {
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            s = s.dropFirst(digits.count)
            return Int(digits)
        }
        let day: DateRule.Day
        switch s.first {
        case "M":
            s = s.dropFirst()
            guard let m = number(), s.first == "." else { return nil }
            s = s.dropFirst()
            guard let w = number(), s.first == "." else { return nil }
            s = s.dropFirst()
            guard let d = number(), (1...12).contains(m), (1...5).contains(w), (0...6).contains(d) else { return nil }
            day = .monthWeekDay(month: m, week: w, weekday: d)
        case "J":
            s = s.dropFirst()
            guard let n = number(), (1...365).contains(n) else { return nil }
            day = .julianNoLeap(n)
        default:
            guard let n = number(), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7200
        if s.first == "/" {
            s = s.dropFirst()
            guard let t = offset(&s) else { return nil }
            time = t
        }
        return DateRule(day: day, time: time)
    }
}

extension PosixZoneRule.DateRule {
    /// Seconds from the start of `year`'s January 1 (local clock) to this change.
    func secondsIntoYear(_ year: Int) -> Int {
        let jan1 = CivilDate.days(year: year, month: 1, day: 1)
        let dayOfYear: Int
        switch day {
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate.days(year: year, month: month, day: 1)
            let firstWeekday = (first + 4).floorMod(7)  // 1970-01-01 was a Thursday
            var dayOfMonth = 1 + (weekday - firstWeekday).floorMod(7) + (week - 1) * 7
            let length = CivilDate.days(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1) - first
            while dayOfMonth > length { dayOfMonth -= 7 }
            dayOfYear = first + dayOfMonth - 1 - jan1
        case .julianNoLeap(let n):
            let leap = CivilDate.isLeap(year) && n >= 60 ? 1 : 0
            dayOfYear = n - 1 + leap
        case .zeroBased(let n):
            dayOfYear = n
        }
        return dayOfYear * 86_400 + time
    }
}

extension BinaryInteger {
    func floorDivided(by d: Self) -> Self {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }

    func floorMod(_ d: Self) -> Self { self - floorDivided(by: d) * d }
}
