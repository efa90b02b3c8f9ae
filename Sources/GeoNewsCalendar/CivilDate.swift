/// Dates of the proleptic Gregorian calendar as whole days since 1970-01-01, by Howard
/// Hinnant's "chrono-compatible low-level date algorithms" (`days_from_civil`,
/// `civil_from_days`): exact for every year an `Int` day count can hold, with no table and no
/// Foundation, so that the feed dates, the trace times and the time-zone rules agree to the day.
public enum CivilDate {
    /// Whether `year` has a 29 February.
    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// Days from 1970-01-01 to the given date (negative before it). `month` is 1…12 and `day`
    /// 1…31; a day past the month's end counts on into the next month.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days after 1970-01-01: the inverse of ``days(year:month:day:)``.
    public static func date(ofDay days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The year of the date `days` days after 1970-01-01.
    public static func year(ofDay days: Int) -> Int { date(ofDay: days).year }
}
